// The Backend of a plugin whose kernels are its own (the GPU families): kernels listed from the
// plugin's registry, and one order of checks for every problem, so that each refusal comes at
// the same step in every plugin:
//   1. the problem: some kernel of the plugin computes it (types, pattern, epilogue, sizes);
//   2. a kernel the host names: it computes this problem's types;
//   3. the device: the driver, the device's existence, the plugin's architecture (runs_on);
//   4. the kernel on this device: the named one fits it, or the heuristic picks one.
// Steps 1 and 2 ask no device, so their reasons are the same with or without a GPU. create()
// runs the same steps and builds the plugin's Gemm for the kernel they end with.
#pragma once

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/kernel_registry.hpp>

#include <memory>
#include <string>

namespace spmma_plugin::cuda {

template <class Entry>
class KernelBackend : public CudaBackend {
public:
    std::span<const spmma_kernel_info> kernels() const final { return registry().infos(); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const final { select(device, p, kernel); }

    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) final {
        return make_gemm(device, p, select(device, p, kernel));
    }

protected:
    virtual const KernelRegistry<Entry>& registry() const = 0;
    // Step 1: "" when some kernel of the plugin computes p, else why none does.
    virtual std::string problem_reason(const spmma_problem& p) const = 0;
    // Step 2: "" when kernel k computes p's types, else why not.
    virtual std::string kernel_reason(const Entry& k, const spmma_problem& p) const = 0;
    // Step 4 for a named kernel: "" when k runs p on dev (shared memory, grid size), else why not.
    virtual std::string kernel_device_reason(const Entry&, const spmma_problem&, const DeviceProperties&) const { return {}; }
    // Step 4 with no kernel named: the heuristic's choice for p on dev, or nullptr with *why.
    virtual const Entry* choose(const spmma_problem& p, const DeviceProperties& dev, std::string* why) const = 0;
    // The plugin's Gemm for p on kernel k.
    virtual std::unique_ptr<Gemm> make_gemm(int device, const spmma_problem& p, const Entry& k) const = 0;

private:
    const Entry& select(int device, const spmma_problem& p, const char* kernel) const {
        if (std::string why = problem_reason(p); !why.empty()) unsupported(why);
        const Entry* named = registry().find(kernel);
        if (kernel && !named) unsupported(std::string("no kernel named ") + kernel);
        if (named)
            if (std::string why = kernel_reason(*named, p); !why.empty()) unsupported(why);
        const DeviceProperties dev = require_device(device);
        if (named) {
            if (std::string why = kernel_device_reason(*named, p, dev); !why.empty()) unsupported(why);
            return *named;
        }
        std::string why;
        const Entry* chosen = choose(p, dev, &why);
        if (!chosen) unsupported(why.empty() ? "unsupported: no kernel of this plugin runs this problem" : why);
        return *chosen;
    }
};

}  // namespace spmma_plugin::cuda

// What a vendor-library baseline's Backend does apart from describing itself: its kernels are
// type families (the library picks the kernel inside one), and a problem's setup is checked in
// one order: the types and the epilogue first (MakeSetup: the same reason with or without a
// GPU; the library's own epilogue or a refusal naming what it lacks), then the kernel name
// asked for, then the device (the library, the architecture the family needs). Setup has
// `family` (a pointer to a struct with `name` and `min_sm`); GemmT is built from
// (device, problem, setup). Its info() and runs_on() come from the plugin's identity(), asked
// once. Header-only: it needs the CUDA plugin helpers, see padded_gemm.hpp.
#pragma once

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/refusals.hpp>

#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#ifndef SPMMA_VERSION
#define SPMMA_VERSION "0.0.0"
#endif

namespace spmma_baseline {

// What a baseline says of itself and of its library (found or not).
struct BaselineIdentity {
    const char* name = "";
    const char* vendor = "";
    const char* target = "";         // "sm_75+"
    uint32_t flags = 0;              // SPMMA_PLUGIN_DENSE for a dense baseline
    std::string library_version;     // "+cublasLt.13.1.0" after spmma's version; "" when not loaded
    std::string description;
    std::string why_not;             // the library's reason it cannot run; "" when it can
    int min_sm = 0;                  // the oldest architecture it runs on,
    std::string min_sm_note;         // and why: "cuBLASLt 13.1.0", "sparse tensor cores"
};

template <class Setup, class GemmT, std::optional<Setup> (*MakeSetup)(const spmma_problem&, std::string& why),
          std::span<const spmma_kernel_info> (*KernelInfos)()>
class FamilyBackend : public spmma_plugin::cuda::CudaBackend {
public:
    spmma_plugin_info info() const final {
        const BaselineIdentity& id = identity_once();
        return {sizeof(spmma_plugin_info), id.flags, id.name, id.vendor, version_.c_str(), id.target, id.description.c_str()};
    }

    std::string runs_on(const spmma_plugin::cuda::DeviceProperties& p) const final {
        const BaselineIdentity& id = identity_once();
        if (!id.why_not.empty()) return id.why_not;
        if (p.major * 10 + p.minor < id.min_sm)
            return "needs sm_" + std::to_string(id.min_sm) + " or newer (" + id.min_sm_note + "), device is " + p.arch();
        return {};
    }

    std::span<const spmma_kernel_info> kernels() const override { return KernelInfos(); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        const Setup s = setup_for(device, p, kernel);
        // NOTES: whether the library takes an epilogue the plugin maps (its alpha vector, a bias
        // type, an activation for these types) only the library says, per version and GPU: the
        // GEMM's descriptors and first plan are made here, so that its refusal comes with
        // supports() rather than as a failed create (cuSPARSELt 0.8 on an H100 declines its alpha
        // vector and its GELU for 16-bit inputs, 2026-11-27).
        if (spmma_problem_has_epilogue(&p)) GemmT(device, p, s);
    }

    std::unique_ptr<spmma_plugin::Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        return std::make_unique<GemmT>(device, p, setup_for(device, p, kernel));
    }

protected:
    virtual BaselineIdentity identity() const = 0;

private:
    const BaselineIdentity& identity_once() const {
        std::call_once(once_, [&] {
            id_ = identity();
            version_ = std::string(SPMMA_VERSION) + id_.library_version;
        });
        return id_;
    }

    Setup setup_for(int device, const spmma_problem& p, const char* kernel) const {
        using spmma_plugin::unsupported;
        std::string why;
        const auto s = MakeSetup(p, why);
        if (!s) unsupported(why);
        if (kernel && std::strcmp(kernel, s->family->name) != 0)
            unsupported(std::string("unsupported: ") + kernel + " does not run this problem's types; " + s->family->name + " does");
        const spmma_plugin::cuda::DeviceProperties props = require_device(device);
        const int sm = props.major * 10 + props.minor;
        if (sm < s->family->min_sm)
            unsupported(std::string("unsupported: ") + s->family->name + " needs sm_" + std::to_string(s->family->min_sm) +
                        " or newer, device is " + props.arch());
        return *s;
    }

    mutable std::once_flag once_;
    mutable BaselineIdentity id_;
    mutable std::string version_;
};

}  // namespace spmma_baseline

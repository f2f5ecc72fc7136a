// What a vendor-library baseline's Backend does apart from describing itself: its kernels are
// type families (the library picks the kernel inside one), and a problem's setup is checked in
// one order: the types first (the same reason with or without a GPU), then the kernel name
// asked for, then the device (the library, the architecture the family needs). Setup has
// `family` (a pointer to a struct with `name` and `min_sm`); GemmT is built from
// (device, problem, setup). Header-only: it needs the CUDA plugin helpers, see padded_gemm.hpp.
#pragma once

#include <spmma_plugin/cuda_gemm.hpp>

#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace spmma_baseline {

template <class Setup, class GemmT, std::optional<Setup> (*MakeSetup)(const spmma_problem&, std::string& why),
          std::span<const spmma_kernel_info> (*KernelInfos)()>
class FamilyBackend : public spmma_plugin::cuda::CudaBackend {
public:
    std::span<const spmma_kernel_info> kernels() const override { return KernelInfos(); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const override { setup_for(device, p, kernel); }

    std::unique_ptr<spmma_plugin::Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        return std::make_unique<GemmT>(device, p, setup_for(device, p, kernel));
    }

private:
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
};

}  // namespace spmma_baseline

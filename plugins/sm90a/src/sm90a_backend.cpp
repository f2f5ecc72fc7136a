// The sm90a plugin: sparse GEMM on wgmma.mma_async.sp with a TMA/mbarrier pipeline, for every
// type sm_90a's sparse tensor cores take. Entry point and Backend.
#include "kernel_table.hpp"
#include "selection.hpp"
#include "sm90a_gemm.hpp"

#include <spmma_plugin/cuda_gemm.hpp>

namespace spmma_sm90a {
namespace {

using namespace spmma_plugin;

class Sm90aBackend final : public cuda::CudaBackend {
public:
    spmma_plugin_info info() const override {
        spmma_plugin_info i{};
        i.struct_size = sizeof i;
        i.flags = 0;
        i.name = "sm90a";
        i.vendor = "spmma";
        i.version = "0.1.0";
        i.target = "sm_90a";
        i.description = "wgmma.mma_async.sp with TMA multicast, warp-specialised persistent kernels (Hopper)";
        return i;
    }

    std::string runs_on(const cuda::DeviceProperties& p) const override {
        if (p.major == 9 && p.minor == 0) return {};
        return "needs sm_90a (Hopper), device is " + p.arch();
    }

    std::span<const spmma_kernel_info> kernels() const override { return kernel_infos(); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        const std::string why = problem_unsupported_reason(p);
        if (!why.empty()) unsupported(why);
        if (kernel) {
            const KernelEntry* e = find_kernel_entry(kernel);
            if (!e) unsupported(std::string("no kernel named ") + kernel);
            const std::string types = kernel_types_reason(e->name, e->a_type, e->b_type, e->acc_type, e->satfinite, p);
            if (!types.empty()) unsupported(types);
        } else if (matching_kernels(p).empty()) {
            unsupported(std::string("unsupported: no sm90a kernel for ") + spmma_dtype_name(p.a_type) + " x " +
                        spmma_dtype_name(p.b_type) + " -> " + spmma_dtype_name(p.acc_type));
        }
        require_device(device);
    }

    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        const cuda::DeviceProperties props = require_device(device);
        const KernelEntry* e = kernel ? find_kernel_entry(kernel) : choose_kernel(p, props.sm_count);
        if (!e) unsupported("unsupported: no sm90a kernel for this problem");
        return std::make_unique<Sm90aGemm>(device, p, *e);
    }
};

Sm90aBackend& backend() {
    static Sm90aBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm90a

SPMMA_DEFINE_PLUGIN(spmma_sm90a::backend)

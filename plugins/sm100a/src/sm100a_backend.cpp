// The sm100a plugin: sparse GEMM on tcgen05.mma.sp (5th-generation tensor cores, tensor memory)
// for every kind sm_100a's sparse instruction has, block-scaled ones included. Entry point and
// Backend. Its code is compiled for sm_100a only: on any other device probe says so and nothing
// is launched.
#include "kernel_table.hpp"
#include "selection.hpp"
#include "sm100a_gemm.hpp"

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_sm100a/target.hpp>

namespace spmma_sm100a {
namespace {

using namespace spmma_plugin;

class Sm100aBackend final : public cuda::CudaBackend {
public:
    spmma_plugin_info info() const override {
        spmma_plugin_info i{};
        i.struct_size = sizeof i;
        i.flags = 0;
        i.name = "sm100a";
        i.vendor = "spmma";
        i.version = "0.1.0";
        i.target = "sm_100a";
        i.description =
            "tcgen05.mma.sp with tensor memory, TMA and persistent warp-specialised kernels, every kind incl. block "
            "scaling (Blackwell B200/GB200); compiled and checked on the instruction model, not yet run on sm_100 "
            "hardware";
        return i;
    }

    std::string runs_on(const cuda::DeviceProperties& p) const override { return device_reason(p.major, p.minor); }

    std::span<const spmma_kernel_info> kernels() const override { return kernel_infos(); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        if (kernel) {
            const KernelEntry* e = find_kernel_entry(kernel);
            if (!e) unsupported(std::string("no kernel named ") + kernel);
            const std::string why = kernel_mismatch(e->cfg.kind, e->cfg.sv, e->acc_type, p);
            if (!why.empty()) unsupported(why + " [kernel " + kernel + "]");
        } else {
            const std::string why = problem_unsupported_reason(p);
            if (!why.empty()) unsupported(why);
        }
        require_device(device);
    }

    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        // (The boundary ran check_supported first.)
        const cuda::DeviceProperties props = require_device(device);
        const KernelEntry* e = kernel ? find_kernel_entry(kernel) : choose_kernel(p, props.sm_count);
        if (!e) unsupported("unsupported: no sm100a kernel for this problem");
        return std::make_unique<Sm100aGemm>(device, p, *e);
    }
};

Sm100aBackend& backend() {
    static Sm100aBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm100a

SPMMA_DEFINE_PLUGIN(spmma_sm100a::backend)

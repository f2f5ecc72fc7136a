// The sm100a plugin: sparse GEMM on tcgen05.mma.sp (5th-generation tensor cores, tensor memory)
// for every kind sm_100a's sparse instruction has, block-scaled ones included. Entry point and
// what the Backend says it is. Its code is compiled for sm_100a only: on any other device probe
// says so and nothing is launched.
#include "selection.hpp"
#include "sm100a_gemm.hpp"

namespace spmma_sm100a {

spmma_plugin_info Sm100aBackend::info() const {
    return spmma_plugin::plugin_info(
        "sm100a", "sm_100a",
        "tcgen05.mma.sp with tensor memory, TMA and persistent warp-specialised kernels, every kind incl. block "
        "scaling (Blackwell B200/GB200); compiled and checked on the instruction model, not yet run on sm_100 "
        "hardware");
}

std::unique_ptr<spmma_plugin::Gemm> Sm100aBackend::make_gemm(int device, const spmma_problem& p, const KernelEntry& e) const {
    return std::make_unique<Sm100aGemm>(device, p, e);
}

namespace {

Sm100aBackend& backend() {
    static Sm100aBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm100a

SPMMA_DEFINE_PLUGIN(spmma_sm100a::backend)

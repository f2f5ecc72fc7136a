// The sm80 plugin: sparse GEMM with sm_80 mma.sp / mma.sp::ordered_metadata (HMMA.SP, IMMA.SP)
// for f16, bf16, tf32, s8/u8, s4/u4 and (sm_89+) e4m3/e5m2, on any device from sm_80 on.
#include "sm80_backend.hpp"
#include "sm80_gemm.hpp"

namespace spmma_sm80 {

spmma_plugin_info Sm80Backend::info() const {
    return spmma_plugin::plugin_info(
        "sm80", "sm_80", "mma.sp (sm_80 warp-level sparse MMA): f16, bf16, tf32, s8/u8, s4/u4, e4m3/e5m2 (sm_89+)");
}

std::unique_ptr<spmma_plugin::Gemm> Sm80Backend::make_gemm(int device, const spmma_problem& p, const KernelDesc& k) const {
    return std::make_unique<Sm80Gemm>(device, p, k);
}

namespace {

Sm80Backend& backend() {
    static Sm80Backend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm80

SPMMA_DEFINE_PLUGIN(spmma_sm80::backend)

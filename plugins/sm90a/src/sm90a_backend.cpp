// The sm90a plugin: sparse GEMM on wgmma.mma_async.sp with a TMA/mbarrier pipeline, for every
// type sm_90a's sparse tensor cores take. Entry point and what the Backend says it is.
#include "selection.hpp"
#include "sm90a_gemm.hpp"

namespace spmma_sm90a {

spmma_plugin_info Sm90aBackend::info() const {
    return spmma_plugin::plugin_info("sm90a", "sm_90a",
                                     "wgmma.mma_async.sp with TMA multicast, warp-specialised persistent kernels (Hopper)");
}

std::unique_ptr<spmma_plugin::Gemm> Sm90aBackend::make_gemm(int device, const spmma_problem& p, const KernelEntry& e) const {
    return std::make_unique<Sm90aGemm>(device, p, e);
}

namespace {

Sm90aBackend& backend() {
    static Sm90aBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm90a

SPMMA_DEFINE_PLUGIN(spmma_sm90a::backend)

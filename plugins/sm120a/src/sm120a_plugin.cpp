// The sm120a plugin: sparse GEMM with the sm_120a mma.sp::ordered_metadata .kind forms
// (kind::f8f6f4 QMMA.SP; block-scaled kind::mxf8f6f4 QMMA.SF.SP, kind::mxf4 / mxf4nvf4
// OMMA.SF.SP) on sm_120 / sm_121 devices only. Compiled and checked on the instruction model;
// not yet run on sm_120 hardware (README.md).
#include "sm120a_backend.hpp"
#include "sm120a_gemm.hpp"

namespace spmma_sm120a {

spmma_plugin_info Sm120aBackend::info() const {
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
    return spmma_plugin::plugin_info(
        "sm120a-swmma", "sm_80",
        "CHECK BUILD of the sm120a kernels for sm_80 / sm_90: pipeline, fragments, scale words and epilogue on the GPU, "
        "the mma.sp in software; not a performance plugin");
#else
    return spmma_plugin::plugin_info(
        "sm120a", "sm_120a",
        "mma.sp .kind forms of sm_120a: kind::f8f6f4 (e4m3/e5m2/e3m2/e2m3/e2m1), block-scaled kind::mxf8f6f4, "
        "kind::mxf4, kind::mxf4nvf4 (compiled and checked on the model; not yet run on sm_120 hardware)");
#endif
}

std::unique_ptr<spmma_plugin::Gemm> Sm120aBackend::make_gemm(int device, const spmma_problem& p, const KernelDesc& k) const {
    return std::make_unique<Sm120aGemm>(device, p, k);
}

namespace {

Sm120aBackend& backend() {
    static Sm120aBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm120a

SPMMA_DEFINE_PLUGIN(spmma_sm120a::backend)

#include "kernel_table.hpp"

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/kernel_registry.hpp>
#include <spmma_sm100a/pack.hpp>

#include <vector>

SPMMA_DECLARE_FATBIN(sm100a_spgemm_f16)
SPMMA_DECLARE_FATBIN(sm100a_spgemm_tf32)
SPMMA_DECLARE_FATBIN(sm100a_spgemm_f8f6f4)
SPMMA_DECLARE_FATBIN(sm100a_spgemm_i8)
SPMMA_DECLARE_FATBIN(sm100a_spgemm_mxf8f6f4)
SPMMA_DECLARE_FATBIN(sm100a_spgemm_mxf4)
SPMMA_DECLARE_FATBIN(sm100a_spgemm_mxf4nvf4)

namespace spmma_sm100a {
namespace {

// Kernel-name accumulator tokens -> ABI types.
constexpr spmma_dtype acc_f32 = SPMMA_F32, acc_f16 = SPMMA_F16, acc_s32 = SPMMA_S32;

const char* types_of(Kind k) {
    switch (k) {
        case Kind::F16: return "f16 x f16 or bf16 x bf16";
        case Kind::TF32: return "tf32 x tf32";
        case Kind::F8F6F4: return "e4m3/e5m2/e3m2/e2m3/e2m1 x the same";
        case Kind::I8: return "s8/u8 x s8/u8";
        case Kind::MXF8F6F4: return "e4m3/e5m2/e3m2/e2m3/e2m1 x the same, ue8m0 scales per 64 k";
        case Kind::MXF4: return "e2m1 x e2m1 (pairwise 4:8), ue8m0 scales per 64 k";
        case Kind::MXF4NVF4: return "e2m1 x e2m1 (pairwise 4:8)";
    }
    return "?";
}

KernelEntry make_entry(const void* image, const char* name, Kind kind, ScaleVec sv, spmma_dtype acc, int cg, int bn,
                       int stages) {
    const TileConfig cfg{kind, sv, cg, bn, stages};
    std::string d = std::string(types_of(kind));
    if (kind == Kind::MXF4NVF4)
        d += sv == ScaleVec::X4 ? ", ue8m0 or ue4m3 scales per 32 k" : ", ue8m0 scales per 64 k";
    d += std::string(" -> ") + spmma_dtype_name(acc) + ", tcgen05.mma.sp.cta_group::" + std::to_string(cg) +
         ".kind::" + kind_name(kind) + (is_block_scaled(kind) ? std::string(".block_scale.scale_vec::") +
                                                                    std::to_string(static_cast<int>(sv)) + "X"
                                                              : std::string()) +
         ", " + std::to_string(cfg.bm()) + "x" + std::to_string(bn) + " tile" +
         (cg == 2 ? " on a CTA pair" : "") + ", " + std::to_string(stages) + " TMA stages, " +
         std::to_string(cfg.acc_buffers()) + " accumulator buffer(s) in tensor memory";
    return KernelEntry{{name, d, image, {}}, acc, cfg};
}

std::vector<KernelEntry> build_table() {
    std::vector<KernelEntry> t;
#define SPMMA_SM100A_KERNEL(TOK, KIND, SV, ACC, BM, BN, BK, CG, S)                                             \
    t.push_back(make_entry(image, "sm100a_" #TOK "_" #ACC "_" #BM "x" #BN "x" #BK "_cg" #CG "_s" #S, Kind::KIND, \
                           ScaleVec::SV, acc_##ACC, CG, BN, S));
    {
        const void* image = SPMMA_FATBIN(sm100a_spgemm_f16);
#include <spmma_sm100a/kernels/f16.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm100a_spgemm_tf32);
#include <spmma_sm100a/kernels/tf32.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm100a_spgemm_f8f6f4);
#include <spmma_sm100a/kernels/f8f6f4.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm100a_spgemm_i8);
#include <spmma_sm100a/kernels/i8.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm100a_spgemm_mxf8f6f4);
#include <spmma_sm100a/kernels/mxf8f6f4.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm100a_spgemm_mxf4);
#include <spmma_sm100a/kernels/mxf4.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm100a_spgemm_mxf4nvf4);
#include <spmma_sm100a/kernels/mxf4nvf4.inc>
    }
#undef SPMMA_SM100A_KERNEL
    return t;
}

}  // namespace

const spmma_plugin::KernelRegistry<KernelEntry>& kernel_table() { return spmma_plugin::kernel_registry<KernelEntry, build_table>(); }

}  // namespace spmma_sm100a

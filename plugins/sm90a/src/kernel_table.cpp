#include "kernel_table.hpp"

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/kernel_registry.hpp>

#include <vector>

SPMMA_DECLARE_FATBIN(sm90a_spgemm_f16)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_bf16)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_tf32)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_f8)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_i8)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_f16_decode)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_bf16_decode)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_f8_decode)
SPMMA_DECLARE_FATBIN(sm90a_spgemm_i8_decode)

namespace spmma_sm90a {
namespace {

// Kernel-name tokens -> ABI types.
constexpr spmma_dtype dt_f16 = SPMMA_F16, dt_bf16 = SPMMA_BF16, dt_tf32 = SPMMA_TF32, dt_e4m3 = SPMMA_E4M3,
                      dt_e5m2 = SPMMA_E5M2, dt_s8 = SPMMA_S8, dt_u8 = SPMMA_U8;
constexpr spmma_dtype acc_f32 = SPMMA_F32, acc_f16 = SPMMA_F16, acc_s32 = SPMMA_S32, acc_s32sat = SPMMA_S32;
constexpr bool sat_f32 = false, sat_f16 = false, sat_s32 = false, sat_s32sat = true;

KernelEntry make_entry(const void* image, const char* name, spmma_dtype a, spmma_dtype b, spmma_dtype acc, bool sat,
                       int bm, int bn, int cm, int cn, int stages) {
    const auto fam = a == SPMMA_F16 || a == SPMMA_BF16 ? Family::B16 : a == SPMMA_TF32 ? Family::B32 : Family::B8;
    const TileConfig cfg{fam, bm, bn, cm, cn, stages};
    std::string d = std::string(spmma_dtype_name(a)) + " x " + spmma_dtype_name(b) + " -> " +
                    spmma_dtype_name(acc) + (sat ? " (satfinite)" : "") + ", wgmma.mma_async.sp, " +
                    std::to_string(bm) + "x" + std::to_string(bn) + " tile, " + std::to_string(cfg.consumers()) +
                    " consumer warpgroup(s), " + std::to_string(stages) + " TMA stages";
    if (cm * cn > 1)
        d += ", " + std::to_string(cm) + "x" + std::to_string(cn) + " cluster" + (cm > 1 ? " (B multicast)" : "") +
             (cn > 1 ? " (A multicast)" : "");
    return KernelEntry{{name, d, image, {}}, a, b, acc, sat, cfg, {}, {}};
}

// A split kernel for every kernel with clusters of four or eight along m whose tile also has a
// kernel with clusters of two: named ..._c4x1+2x1_... (..._c8x1+2x1_...), it runs the first on
// the SMs that hold its clusters and the second on those left over (split_plan.hpp).
void add_split_kernels(std::vector<KernelEntry>& t) {
    const size_t n = t.size();
    for (size_t i = 0; i < n; ++i) {
        const KernelEntry& main = t[i];
        if ((main.cfg.cm != 4 && main.cfg.cm != 8) || main.cfg.cn != 1) continue;
        const std::string cluster = main.cfg.cm == 4 ? "c4x1" : "c8x1";
        const std::string tag = "_" + cluster + "_";
        const size_t at = main.name.find(tag);
        const std::string rest_name = main.name.substr(0, at) + "_c2x1_" + main.name.substr(at + tag.size());
        for (size_t j = 0; j < n; ++j) {
            if (t[j].name != rest_name) continue;
            KernelEntry s = main;
            s.symbol = main.name;
            s.name = main.name.substr(0, at) + "_" + cluster + "+2x1_" + main.name.substr(at + tag.size());
            s.description = main.description + "; beside it, 2x1 clusters of the same tile on the SMs that its clusters leave over";
            s.rest_symbol = rest_name;
            s.rest_cfg = t[j].cfg;
            t.push_back(s);
        }
    }
}

std::vector<KernelEntry> build_table() {
    std::vector<KernelEntry> t;
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S)                                                   \
    t.push_back(make_entry(image, "sm90a_" #A #B "_" #ACC "_" #BM "x" #BN "x" #BK "_c" #CM "x" #CN "_s" #S,   \
                           dt_##A, dt_##B, acc_##ACC, sat_##ACC, BM, BN, CM, CN, S));
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_f16);
#include <spmma_sm90a/kernels/f16.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_bf16);
#include <spmma_sm90a/kernels/bf16.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_tf32);
#include <spmma_sm90a/kernels/tf32.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_f8);
#include <spmma_sm90a/kernels/f8.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_i8);
#include <spmma_sm90a/kernels/i8.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_f16_decode);
#include <spmma_sm90a/kernels/f16_decode.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_bf16_decode);
#include <spmma_sm90a/kernels/bf16_decode.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_f8_decode);
#include <spmma_sm90a/kernels/f8_decode.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm90a_spgemm_i8_decode);
#include <spmma_sm90a/kernels/i8_decode.inc>
    }
#undef SPMMA_SM90A_KERNEL
    add_split_kernels(t);
    return t;
}

}  // namespace

const spmma_plugin::KernelRegistry<KernelEntry>& kernel_table() { return spmma_plugin::kernel_registry<KernelEntry, build_table>(); }

}  // namespace spmma_sm90a

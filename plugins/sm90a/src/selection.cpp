#include "selection.hpp"

#include <spmma_sm90a/pack.hpp>
#include <spmma_sm90a/perf_model.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace spmma_sm90a {
namespace {

bool is_float_out(spmma_dtype t) { return t == SPMMA_F32 || t == SPMMA_F16 || t == SPMMA_BF16; }

}  // namespace

std::string problem_unsupported_reason(const spmma_problem& p) {
    const auto fam = family_of(p.a_type, p.b_type);
    if (!fam)
        return std::string("unsupported: A/B types ") + spmma_dtype_name(p.a_type) + " x " + spmma_dtype_name(p.b_type) +
               " (sm90a takes f16 x f16, bf16 x bf16, tf32 x tf32, e4m3/e5m2 x e4m3/e5m2, s8/u8 x s8/u8)";
    const bool integer = p.a_type == SPMMA_S8 || p.a_type == SPMMA_U8;
    const spmma_pattern want = *fam == Family::B32 ? SPMMA_PATTERN_1_2 : SPMMA_PATTERN_2_4;
    if (p.pattern != want)
        return std::string("unsupported: pattern ") + spmma_pattern_name(p.pattern) + " (wgmma.mma_async.sp takes " +
               spmma_pattern_name(want) + " for " + spmma_dtype_name(p.a_type) + ")";
    if (p.scale_type != SPMMA_DTYPE_NONE) return "unsupported: block scaling (sm_90a has no block-scaled sparse wgmma)";
    if (integer) {
        if (p.acc_type != SPMMA_S32) return "unsupported: integer types accumulate in s32";
        if (p.d_type != SPMMA_S32) return std::string("unsupported: output ") + spmma_dtype_name(p.d_type) + " for s32 accumulation (s32 only)";
    } else {
        const bool f16_acc_ok = p.a_type == SPMMA_F16 || *fam == Family::B8;
        if (!(p.acc_type == SPMMA_F32 || (p.acc_type == SPMMA_F16 && f16_acc_ok)))
            return std::string("unsupported: ") + spmma_dtype_name(p.acc_type) + " accumulation for " +
                   spmma_dtype_name(p.a_type) + (f16_acc_ok ? " (f32 or f16)" : " (f32 only)");
        if (!is_float_out(p.d_type)) return std::string("unsupported: output type ") + spmma_dtype_name(p.d_type) + " (f32, f16 or bf16)";
        if (p.saturate) return "unsupported: satfinite applies to integer accumulation only";
    }
    if (p.beta != 0.0) {
        const bool ok = integer ? p.c_type == SPMMA_S32 : is_float_out(p.c_type);
        if (!ok) return std::string("unsupported: C of type ") + spmma_dtype_name(p.c_type);
    }
    constexpr int64_t lim = std::numeric_limits<int32_t>::max();
    if (p.m > lim || p.n > lim || p.k > lim - 256) return "unsupported: m, n and k must be below 2^31";
    if (p.k % traits(*fam).group != 0)
        return "unsupported: k must be a multiple of " + std::to_string(traits(*fam).group);
    return {};
}

bool kernel_matches(const KernelEntry& e, const spmma_problem& p) {
    return e.a_type == p.a_type && e.b_type == p.b_type && e.acc_type == p.acc_type &&
           (e.acc_type != SPMMA_S32 || e.satfinite == (p.saturate != 0));
}

std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelEntry*> v;
    for (const KernelEntry& e : kernel_table())
        if (kernel_matches(e, p)) v.push_back(&e);
    return v;
}

const KernelEntry* choose_kernel(const spmma_problem& p, int sm_count) {
    const int out_bytes = spmma_dtype_storage_bits(p.d_type) / 8;
    const std::vector<const KernelEntry*> ks = matching_kernels(p);
    std::vector<TileConfig> cs;
    for (const KernelEntry* e : ks) cs.push_back(e->cfg);
    const bool tma_epilogue = tma_epilogue_possible(p);
    const int i = choose_config(cs, [&](const TileConfig& c) {
        return estimated_clocks(c, p.m, p.n, p.k, out_bytes, sm_count, tma_epilogue);
    });
    return i < 0 ? nullptr : ks[static_cast<size_t>(i)];
}

bool tma_epilogue_possible(const spmma_problem& p) {
    return p.beta == 0.0 && (p.n * (spmma_dtype_storage_bits(p.d_type) / 8)) % 16 == 0;
}

int raster_group(const TileConfig& cfg, int64_t cluster_tiles_m) {
    const int64_t rows_per_cluster_tile = static_cast<int64_t>(cfg.bm) * cfg.cm;
    const int64_t g = std::max<int64_t>(1, 2048 / rows_per_cluster_tile);
    return static_cast<int>(std::max<int64_t>(1, std::min(g, cluster_tiles_m)));
}

}  // namespace spmma_sm90a

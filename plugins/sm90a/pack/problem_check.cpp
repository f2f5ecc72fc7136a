#include <spmma_sm90a/problem_check.hpp>

#include <spmma_sm90a/pack.hpp>

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

bool kernel_types_match(spmma_dtype a, spmma_dtype b, spmma_dtype acc, bool satfinite, const spmma_problem& p) {
    return a == p.a_type && b == p.b_type && acc == p.acc_type && (acc != SPMMA_S32 || satfinite == (p.saturate != 0));
}

std::string kernel_types_reason(const std::string& name, spmma_dtype a, spmma_dtype b, spmma_dtype acc, bool satfinite,
                                const spmma_problem& p) {
    if (kernel_types_match(a, b, acc, satfinite, p)) return {};
    return "unsupported: kernel " + name + " computes " + spmma_dtype_name(a) + " x " + spmma_dtype_name(b) + " -> " +
           spmma_dtype_name(acc) + (satfinite ? " satfinite" : "");
}

}  // namespace spmma_sm90a

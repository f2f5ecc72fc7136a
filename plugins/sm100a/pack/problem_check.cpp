#include <spmma_sm100a/problem_check.hpp>

#include <spmma_sm100a/pack.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace spmma_sm100a {
namespace {

bool is_float_out(spmma_dtype t) { return t == SPMMA_F32 || t == SPMMA_F16 || t == SPMMA_BF16; }

bool takes(Kind k, spmma_dtype t) {
    try {
        type_code(k, t);
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

std::string name_of(spmma_dtype t) { return spmma_dtype_name(t); }

}  // namespace

std::string kernel_mismatch(Kind kind, ScaleVec sv, spmma_dtype acc, const spmma_problem& p, int* depth) {
    int d = 0;
    if (!depth) depth = &d;
    *depth = 0;
    const std::string k = std::string("kind::") + kind_name(kind);
    if (!takes(kind, p.a_type) || !takes(kind, p.b_type) || (kind == Kind::F16 && p.a_type != p.b_type))
        return "unsupported: " + k + " does not take " + name_of(p.a_type) + " x " + name_of(p.b_type);
    *depth = 1;
    if (p.pattern != pattern_of(kind))
        return "unsupported: pattern " + std::string(spmma_pattern_name(p.pattern)) + " (" + k + " takes " +
               spmma_pattern_name(pattern_of(kind)) + ")";
    *depth = 2;
    if (!is_block_scaled(kind)) {
        if (p.scale_type != SPMMA_DTYPE_NONE) return "unsupported: block scales given to " + k;
    } else {
        if (p.scale_type == SPMMA_DTYPE_NONE) return "unsupported: " + k + " needs block scales";
        const bool type_ok = p.scale_type == SPMMA_UE8M0 || (kind == Kind::MXF4NVF4 && sv == ScaleVec::X4 && p.scale_type == SPMMA_UE4M3);
        *depth = 3;
        if (!type_ok) return "unsupported: " + name_of(p.scale_type) + " scales with " + k + " scale_vec::" + std::to_string(static_cast<int>(sv)) + "X";
        *depth = 4;
        if (p.scale_block != scale_block(kind, sv))
            return "unsupported: scale block " + std::to_string(p.scale_block) + ": tcgen05.mma.sp " + k +
                   ".scale_vec::" + std::to_string(static_cast<int>(sv)) + "X applies one scale per " +
                   std::to_string(scale_block(kind, sv)) + " k (its sparse K of " + std::to_string(traits(kind).mma_k) +
                   " over " + std::to_string(static_cast<int>(sv)) + " scales)";
    }
    *depth = 5;
    if (p.acc_type != acc)
        return "unsupported: " + name_of(p.acc_type) + " accumulation (this kernel accumulates in " + name_of(acc) + ")";
    if (kind == Kind::F16 && acc == SPMMA_F16 && p.a_type != SPMMA_F16)
        return "unsupported: f16 accumulation takes f16 inputs only";
    *depth = 6;
    if (kind == Kind::I8) {
        if (p.d_type != SPMMA_S32) return "unsupported: output " + name_of(p.d_type) + " for s32 accumulation (s32 only)";
        if (p.beta != 0.0 && p.c_type != SPMMA_S32) return "unsupported: C of type " + name_of(p.c_type);
    } else {
        if (!is_float_out(p.d_type)) return "unsupported: output type " + name_of(p.d_type) + " (f32, f16 or bf16)";
        if (p.saturate) return "unsupported: satfinite applies to integer accumulation only";
        if (p.beta != 0.0 && !is_float_out(p.c_type)) return "unsupported: C of type " + name_of(p.c_type);
    }
    *depth = 7;
    constexpr int64_t lim = std::numeric_limits<int32_t>::max() / 2;
    if (p.m <= 0 || p.n <= 0 || p.k <= 0) return "unsupported: empty problem";
    if (p.m > lim || p.n > lim || p.k > lim) return "unsupported: m, n and k must be below 2^30";
    if (p.k % traits(kind).group != 0) return "unsupported: k must be a multiple of " + std::to_string(traits(kind).group);
    if (is_block_scaled(kind) && p.k % p.scale_block != 0) return "unsupported: k must be a multiple of the scale block";
    return {};
}

std::string problem_unsupported_reason(std::span<const KernelKind> kernels, const spmma_problem& p) {
    std::string best;
    int best_depth = -1;
    for (const KernelKind& k : kernels) {
        int depth = 0;
        std::string why = kernel_mismatch(k.kind, k.sv, k.acc, p, &depth);
        if (why.empty()) return {};
        if (depth > best_depth) {
            best_depth = depth;
            best = std::move(why);
        }
    }
    if (best_depth > 0) return best;
    return "unsupported: " + name_of(p.a_type) + " x " + name_of(p.b_type) + ", pattern " +
           spmma_pattern_name(p.pattern) + (p.scale_type != SPMMA_DTYPE_NONE ? ", " + name_of(p.scale_type) + " scales" : "") +
           " (sm100a: f16/bf16 2:4, tf32 1:2, e4m3/e5m2/e3m2/e2m3/e2m1 2:4 with or without ue8m0 scales, s8/u8 2:4, "
           "e2m1 pairwise 4:8 with ue8m0/ue4m3 scales)";
}

}  // namespace spmma_sm100a

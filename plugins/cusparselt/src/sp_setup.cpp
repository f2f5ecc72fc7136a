#include "sp_setup.hpp"

#include <spmma_plugin/host_epilogue.hpp>

#include <array>
#include <cmath>
#include <cstdlib>

namespace spmma_cusparselt {
namespace {

using spmma_baseline::refuse;

enum FamilyIndex { kF16F32, kF16F16, kBF16F32, kTF32F32, kF8F32, kS8S32, kFamilyCount };

const std::array<Family, kFamilyCount> kFamilies = {{
    {"cusparselt_f16f16_f32acc", "cuSPARSELt 2:4 GEMM, f16 x f16, f32 accumulation, f16 out", 80},
    {"cusparselt_f16f16_f16acc", "cuSPARSELt 2:4 GEMM, f16 x f16, f16 accumulation and out", 80},
    {"cusparselt_bf16bf16_f32acc", "cuSPARSELt 2:4 GEMM, bf16 x bf16, f32 accumulation, bf16 out", 80},
    {"cusparselt_tf32tf32_f32acc", "cuSPARSELt 1:2 GEMM, tf32 x tf32 (f32 storage), f32 accumulation and out", 80},
    {"cusparselt_f8f8_f32acc", "cuSPARSELt 2:4 GEMM, e4m3 x e4m3 or e5m2 x e5m2, f32 accumulation, bf16/f16/f32 out", 89},
    {"cusparselt_s8s8_s32acc", "cuSPARSELt 2:4 GEMM, s8 x s8, s32 accumulation and out, f32 epilogue (exact while |D| < 2^24)", 80},
}};

const std::array<spmma_kernel_info, kFamilyCount> kInfos = spmma_baseline::kernel_infos_of(kFamilies);

const char* n(spmma_dtype t) { return spmma_dtype_name(t); }

// NOTES: bench/results/2026-11-22-h200-cusparselt-tf32 has the data (bench/NOTES.md, "16-bit D
// in whole sectors; a smoke run of every plugin; cuSPARSELt tf32"); the variable lets that
// measurement be repeated with a newer cuSPARSELt.
const char* const kTf32Refusal =
    "unsupported: cuSPARSELt 0.8's tf32 GEMM measured 28x outside tf32 tolerance on an H200 (2026-11-22); "
    "SPMMA_CUSPARSELT_TF32=on runs it anyway";

bool tf32_enabled() {
    const char* v = std::getenv("SPMMA_CUSPARSELT_TF32");
    return v && std::string(v) == "on";
}

}  // namespace

std::span<const spmma_kernel_info> kernel_infos() { return kInfos; }

spmma_pattern native_pattern(spmma_dtype t) {
    return spmma_dtype_storage_bits(t) == 32 ? SPMMA_PATTERN_1_2 : SPMMA_PATTERN_2_4;
}

namespace {

std::optional<SpSetup> sp_types(const spmma_problem& p, std::string& why) {
    const spmma_dtype a = p.a_type, b = p.b_type, d = p.d_type;
    if (p.scale_type != SPMMA_DTYPE_NONE)
        return refuse(why, "unsupported: the cusparselt plugin runs unscaled problems only (cuSPARSELt's block-scaled "
                           "e2m1/e4m3 GEMMs, sm_100+, are not wired)");
    switch (a) {
        case SPMMA_S4: case SPMMA_U4: return refuse(why, std::string("unsupported: cuSPARSELt has no 4-bit integer GEMM (") + n(a) + ")");
        case SPMMA_U8: return refuse(why, "unsupported: cuSPARSELt has no u8 GEMM (its integer GEMM takes s8)");
        case SPMMA_E2M1:
            return refuse(why, "unsupported: cuSPARSELt's e2m1 GEMM is block-scaled only (paired 4:8 with ue4m3/ue8m0 scales, "
                               "sm_100+); this problem is unscaled");
        case SPMMA_E2M3: case SPMMA_E3M2: return refuse(why, std::string("unsupported: cuSPARSELt has no ") + n(a) + " GEMM");
        default: break;
    }
    if (b != a)
        return refuse(why, std::string("unsupported: cuSPARSELt takes one type for A and B (got ") + n(a) + " x " + n(b) + ")");
    if (p.c_type != d) return refuse(why, std::string("unsupported: C must have D's type (C ") + n(p.c_type) + ", D " + n(d) + ")");
    if (spmma_dtype_storage_bits(a) >= 8 && p.pattern != native_pattern(a))
        return refuse(why, std::string("unsupported: cuSPARSELt's ") + n(a) + " GEMM is " + spmma_pattern_name(native_pattern(a)) +
                               " sparse, not " + spmma_pattern_name(p.pattern));
    SpSetup s;
    switch (a) {
        case SPMMA_F16:
            if (d != SPMMA_F16) return refuse(why, std::string("unsupported: cuSPARSELt's f16 GEMM writes f16, not ") + n(d));
            if (p.acc_type == SPMMA_F16) {
                s.family = &kFamilies[kF16F16];
                s.compute = CUSPARSE_COMPUTE_16F;
            } else if (p.acc_type == SPMMA_F32) {
                s.family = &kFamilies[kF16F32];
            } else {
                return refuse(why, std::string("unsupported: cuSPARSELt's f16 GEMM accumulates in f32 or f16, not ") + n(p.acc_type));
            }
            s.ab = s.cd = CUDA_R_16F;
            return s;
        case SPMMA_BF16:
            if (p.acc_type != SPMMA_F32) return refuse(why, std::string("unsupported: cuSPARSELt's bf16 GEMM accumulates in f32, not ") + n(p.acc_type));
            if (d != SPMMA_BF16) return refuse(why, std::string("unsupported: cuSPARSELt's bf16 GEMM writes bf16, not ") + n(d));
            s.family = &kFamilies[kBF16F32];
            s.ab = s.cd = CUDA_R_16BF;
            return s;
        case SPMMA_TF32:
            if (!tf32_enabled()) return refuse(why, kTf32Refusal);
            if (p.acc_type != SPMMA_F32 || d != SPMMA_F32)
                return refuse(why, std::string("unsupported: cuSPARSELt's tf32 GEMM accumulates and writes f32 (acc ") + n(p.acc_type) +
                                       ", out " + n(d) + ")");
            s.family = &kFamilies[kTF32F32];
            s.ab = s.cd = CUDA_R_32F;
            return s;
        case SPMMA_E4M3:
        case SPMMA_E5M2:
            if (p.acc_type != SPMMA_F32) return refuse(why, std::string("unsupported: cuSPARSELt's fp8 GEMM accumulates in f32, not ") + n(p.acc_type));
            if (d != SPMMA_BF16 && d != SPMMA_F16 && d != SPMMA_F32)
                return refuse(why, std::string("unsupported: cuSPARSELt's fp8 GEMM writes bf16, f16 or f32 here, not ") + n(d));
            s.family = &kFamilies[kF8F32];
            s.ab = a == SPMMA_E4M3 ? CUDA_R_8F_E4M3 : CUDA_R_8F_E5M2;
            s.cd = d == SPMMA_BF16 ? CUDA_R_16BF : d == SPMMA_F16 ? CUDA_R_16F : CUDA_R_32F;
            return s;
        case SPMMA_S8:
            if (p.acc_type != SPMMA_S32 || d != SPMMA_S32)
                return refuse(why, std::string("unsupported: the s8 GEMM accumulates and writes s32 (acc ") + n(p.acc_type) + ", out " + n(d) + ")");
            if (p.saturate) return refuse(why, "unsupported: cuSPARSELt's s8 GEMM has no satfinite accumulation");
            // NOTES: cuSPARSELt scales in f32 even for s32 results: integral alpha and beta of at
            // most 2^24 are exact there.
            for (const double v : {p.alpha, p.beta})
                if (v != std::floor(v) || std::fabs(v) > 16777216.0)
                    return refuse(why, "unsupported: alpha and beta must be integers of magnitude at most 2^24 (cuSPARSELt's s8 GEMM "
                                       "scales in f32)");
            s.family = &kFamilies[kS8S32];
            s.ab = CUDA_R_8I;
            s.cd = CUDA_R_32I;
            s.compute = CUSPARSE_COMPUTE_32I;
            return s;
        default:
            return refuse(why, std::string("unsupported: the cusparselt plugin has no GEMM for ") + n(a) + " x " + n(b));
    }
}

}  // namespace

std::optional<SpSetup> sp_setup(const spmma_problem& p, std::string& why) {
    std::optional<SpSetup> s = sp_types(p, why);
    if (!s || !spmma_problem_has_epilogue(&p)) return s;
    if (const std::string e = spmma_plugin::host_epilogue_reason(p); !e.empty()) return refuse(why, "unsupported: " + e);
    if (p.col_scale)
        return refuse(why, "unsupported: cuSPARSELt scales rows only (its alpha vector has one value per row of D); no column scale");
    // NOTES: PyTorch's _cslt_sparse_mm runs the alpha vector with a host beta of 0; whether
    // cuSPARSELt then reads beta from the host or as a vector is not documented, so not asked.
    if (p.row_scale && p.beta != 0.0)
        return refuse(why, "unsupported: with a row scale (cuSPARSELt's alpha vector) the cusparselt plugin runs beta = 0 only");
    if (p.bias == SPMMA_BIAS_COL) return refuse(why, "unsupported: cuSPARSELt's bias has one value per row of D; no column bias");
    if (p.bias == SPMMA_BIAS_ROW && p.bias_type != p.d_type)
        return refuse(why, std::string("unsupported: cuSPARSELt's bias has D's type (") + n(p.d_type) + "), not " + n(p.bias_type));
    if (p.activation == SPMMA_ACTIVATION_SILU) return refuse(why, "unsupported: cuSPARSELt has no SiLU (its activations are ReLU and GELU)");
    s->alpha_vector = p.row_scale != 0;
    s->bias = p.bias == SPMMA_BIAS_ROW;
    s->activation = p.activation;
    return s;
}

}  // namespace spmma_cusparselt

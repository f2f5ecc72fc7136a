#include "lt_setup.hpp"

#include <spmma_plugin/host_epilogue.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace spmma_cublas {
namespace {

using spmma_baseline::refuse;

enum FamilyIndex { kF16F32, kF16F16, kBF16F32, kTF32F32, kF8F32, kS8S32, kFamilyCount };

const std::array<Family, kFamilyCount> kFamilies = {{
    {"cublaslt_f16f16_f32acc", "cuBLASLt dense GEMM, f16 x f16, f32 accumulation, f16 or f32 out", 75},
    {"cublaslt_f16f16_f16acc", "cuBLASLt dense GEMM, f16 x f16, f16 accumulation and out (alpha, beta in f16)", 75},
    {"cublaslt_bf16bf16_f32acc", "cuBLASLt dense GEMM, bf16 x bf16, f32 accumulation, bf16 or f32 out", 80},
    {"cublaslt_tf32tf32_f32acc", "cuBLASLt dense GEMM, tf32 x tf32 (f32 storage), f32 accumulation and out", 80},
    {"cublaslt_f8f8_f32acc", "cuBLASLt dense GEMM, e4m3/e5m2 (not e5m2 x e5m2), f32 accumulation, bf16/f16/f32 out, scales 1.0", 89},
    {"cublaslt_s8s8_s32acc", "cuBLASLt dense GEMM, s8 x s8, s32 accumulation and out, wrapping s32 epilogue", 75},
}};

const std::array<spmma_kernel_info, kFamilyCount> kInfos = spmma_baseline::kernel_infos_of(kFamilies);

const char* n(spmma_dtype t) { return spmma_dtype_name(t); }

bool fits_s32(double v) { return v >= -2147483648.0 && v <= 2147483647.0; }

}  // namespace

std::span<const spmma_kernel_info> kernel_infos() { return kInfos; }

bool exact_in_f16(double v) {
    if (!std::isfinite(v)) return false;
    const double a = std::fabs(v);
    if (a == 0) return true;
    if (a > 65504.0) return false;
    int exp = 0;
    std::frexp(a, &exp);                      // a = f * 2^exp, f in [0.5, 1)
    const int e = std::max(exp - 1, -14);     // binade (subnormals share the smallest normal's spacing)
    const double steps = std::ldexp(a, 10 - e);  // a / 2^(e - 10): an integer for f16 values
    return steps == std::floor(steps);
}

namespace {

std::optional<LtSetup> lt_types(const spmma_problem& p, std::string& why) {
    const spmma_dtype a = p.a_type, b = p.b_type, d = p.d_type;
    if (p.scale_type != SPMMA_DTYPE_NONE)
        return refuse(why, "unsupported: the cublas plugin runs unscaled problems only (cuBLASLt's block-scaled GEMMs are not wired)");
    if (p.c_type != d) return refuse(why, std::string("unsupported: C must have D's type (C ") + n(p.c_type) + ", D " + n(d) + ")");
    switch (a) {
        case SPMMA_S4: case SPMMA_U4: return refuse(why, std::string("unsupported: cuBLASLt has no 4-bit integer GEMM (") + n(a) + ")");
        case SPMMA_U8: return refuse(why, "unsupported: cuBLASLt has no u8 GEMM (its integer GEMM takes s8)");
        case SPMMA_E2M1: case SPMMA_E2M3: case SPMMA_E3M2:
            return refuse(why, std::string("unsupported: cuBLASLt has no unscaled ") + n(a) + " GEMM");
        default: break;
    }
    LtSetup s;
    switch (a) {
        case SPMMA_F16:
        case SPMMA_BF16:
        case SPMMA_TF32: {
            if (b != a) return refuse(why, std::string("unsupported: A and B must have the same type (") + n(a) + " x " + n(b) + ")");
            if (a == SPMMA_F16 && p.acc_type == SPMMA_F16) {
                if (d != SPMMA_F16) return refuse(why, std::string("unsupported: f16 accumulation writes f16, not ") + n(d));
                for (const double v : {p.alpha, p.beta})
                    if (!exact_in_f16(v))
                        return refuse(why, "unsupported: alpha and beta must be f16 values (cuBLASLt's f16-accumulation GEMM scales in f16; got " +
                                               std::to_string(v) + ")");
                s.family = &kFamilies[kF16F16];
                s.a = s.b = s.cd = CUDA_R_16F;
                s.compute = CUBLAS_COMPUTE_16F;
                s.scale = CUDA_R_16F;
                return s;
            }
            if (p.acc_type != SPMMA_F32) return refuse(why, std::string("unsupported: cuBLASLt's ") + n(a) + " GEMM accumulates in f32, not " + n(p.acc_type));
            if (a == SPMMA_TF32) {
                if (d != SPMMA_F32) return refuse(why, std::string("unsupported: cuBLASLt's tf32 GEMM writes f32, not ") + n(d));
                s.family = &kFamilies[kTF32F32];
                s.a = s.b = s.cd = CUDA_R_32F;
                s.compute = CUBLAS_COMPUTE_32F_FAST_TF32;
                return s;
            }
            if (d != a && d != SPMMA_F32)
                return refuse(why, std::string("unsupported: cuBLASLt's ") + n(a) + " GEMM writes " + n(a) + " or f32, not " + n(d));
            s.family = &kFamilies[a == SPMMA_F16 ? kF16F32 : kBF16F32];
            s.a = s.b = a == SPMMA_F16 ? CUDA_R_16F : CUDA_R_16BF;
            s.cd = d == SPMMA_F32 ? CUDA_R_32F : s.a;
            return s;
        }
        case SPMMA_E4M3:
        case SPMMA_E5M2: {
            if (b != SPMMA_E4M3 && b != SPMMA_E5M2)
                return refuse(why, std::string("unsupported: cuBLASLt's fp8 GEMM multiplies e4m3/e5m2 by e4m3/e5m2, not ") + n(a) + " x " + n(b));
            if (a == SPMMA_E5M2 && b == SPMMA_E5M2) return refuse(why, "unsupported: cuBLASLt has no e5m2 x e5m2 GEMM (A or B must be e4m3)");
            if (p.acc_type != SPMMA_F32) return refuse(why, std::string("unsupported: cuBLASLt's fp8 GEMM accumulates in f32, not ") + n(p.acc_type));
            if (d != SPMMA_BF16 && d != SPMMA_F16 && d != SPMMA_F32)
                return refuse(why, std::string("unsupported: cuBLASLt's fp8 GEMM writes bf16, f16 or f32 here, not ") + n(d));
            s.family = &kFamilies[kF8F32];
            s.a = a == SPMMA_E4M3 ? CUDA_R_8F_E4M3 : CUDA_R_8F_E5M2;
            s.b = b == SPMMA_E4M3 ? CUDA_R_8F_E4M3 : CUDA_R_8F_E5M2;
            s.cd = d == SPMMA_BF16 ? CUDA_R_16BF : d == SPMMA_F16 ? CUDA_R_16F : CUDA_R_32F;
            s.fp8 = true;
            return s;
        }
        case SPMMA_S8: {
            if (b != SPMMA_S8) return refuse(why, std::string("unsupported: cuBLASLt's integer GEMM takes s8 x s8, not s8 x ") + n(b));
            if (p.acc_type != SPMMA_S32 || d != SPMMA_S32)
                return refuse(why, std::string("unsupported: the s8 GEMM accumulates and writes s32 (acc ") + n(p.acc_type) + ", out " + n(d) + ")");
            if (p.saturate) return refuse(why, "unsupported: cuBLASLt's s8 GEMM wraps its s32 accumulation; it has no satfinite");
            if (!fits_s32(p.alpha) || !fits_s32(p.beta) || p.alpha != std::floor(p.alpha) || p.beta != std::floor(p.beta))
                return refuse(why, "unsupported: alpha and beta must be s32 integers (cuBLASLt's s8 GEMM scales in s32)");
            s.family = &kFamilies[kS8S32];
            s.a = s.b = CUDA_R_8I;
            s.cd = CUDA_R_32I;
            s.compute = CUBLAS_COMPUTE_32I;
            s.scale = CUDA_R_32I;
            return s;
        }
        default:
            return refuse(why, std::string("unsupported: the cublas plugin has no GEMM for ") + n(a) + " x " + n(b));
    }
}

}  // namespace

std::optional<LtSetup> lt_setup(const spmma_problem& p, std::string& why) {
    std::optional<LtSetup> s = lt_types(p, why);
    if (!s || !spmma_problem_has_epilogue(&p)) return s;
    if (const std::string e = spmma_plugin::host_epilogue_reason(p); !e.empty()) return refuse(why, "unsupported: " + e);
    if (p.row_scale)
        return refuse(why, "unsupported: cuBLASLt's alpha vector scales the rows of its column-major D, the columns of this D; no row scale");
    if (p.col_scale && p.beta != 0.0)
        return refuse(why, "unsupported: cuBLASLt's alpha vector takes beta = 0 (CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO)");
    if (p.col_scale && s->scale != CUDA_R_32F)
        return refuse(why, "unsupported: the cublas plugin passes the alpha vector in f32; this family scales in f16");
    if (p.bias == SPMMA_BIAS_ROW)
        return refuse(why, "unsupported: cuBLASLt's bias has one value per row of its column-major D, a column of this D; no row bias");
    if (p.activation == SPMMA_ACTIVATION_SILU) return refuse(why, "unsupported: cuBLASLt has no SiLU epilogue (its activations are ReLU and GELU)");
    s->alpha_vector = p.col_scale != 0;
    s->bias = p.bias == SPMMA_BIAS_COL;
    if (s->bias) s->bias_type = p.bias_type == SPMMA_F32 ? CUDA_R_32F : s->cd;
    s->activation = p.activation;
    return s;
}

}  // namespace spmma_cublas

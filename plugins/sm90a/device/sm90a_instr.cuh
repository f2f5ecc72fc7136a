// The instruction variants of wgmma.mma_async.sp the sm90a kernels use, as types: element
// family, accumulator kind and register count, and the call of the PTX wrapper. Named
// instr_<a><b>_<acc> like the kernels (acc: f32, f16, s32, s32sat = s32 with .satfinite).
#pragma once

#include <spmma_sm90a/layout.hpp>

#include "ptx_sm90a_wgmma.cuh"

namespace spmma_sm90a {

enum class AccKind { F32, F16, S32 };

#define SPMMA_SM90A_INSTR(NAME, FAMILY, ACC_T, KIND, DIV, WRAPPER, SAT)                                     \
    struct NAME {                                                                                         \
        static constexpr Family kFamily = Family::FAMILY;                                                 \
        static constexpr AccKind kAcc = AccKind::KIND;                                                    \
        /* s32 results clamped (.satfinite; the host runs these only for problems that ask for it) */   \
        static constexpr bool kSatfinite = SAT;                                                           \
        using Acc = ACC_T;                                                                                \
        /* accumulator registers per thread of an m64nN instruction */                                   \
        static constexpr int regs(int n) { return n / DIV; }                                              \
        template <int N, int Sel>                                                                         \
        __device__ static __forceinline__ void mma(Acc (&d)[N / DIV], uint64_t desc_a, uint64_t desc_b,   \
                                                   uint32_t meta, uint32_t scale_d) {                     \
            spmma_ptx::WRAPPER<N, Sel>(d, desc_a, desc_b, meta, scale_d);                                 \
        }                                                                                                 \
    };

SPMMA_SM90A_INSTR(instr_f16f16_f32, B16, float, F32, 2, wgmma_sp_f32_f16_f16, false)
SPMMA_SM90A_INSTR(instr_f16f16_f16, B16, uint32_t, F16, 4, wgmma_sp_f16_f16_f16, false)
SPMMA_SM90A_INSTR(instr_bf16bf16_f32, B16, float, F32, 2, wgmma_sp_f32_bf16_bf16, false)
SPMMA_SM90A_INSTR(instr_tf32tf32_f32, B32, float, F32, 2, wgmma_sp_f32_tf32_tf32, false)
SPMMA_SM90A_INSTR(instr_e4m3e4m3_f32, B8, float, F32, 2, wgmma_sp_f32_e4m3_e4m3, false)
SPMMA_SM90A_INSTR(instr_e4m3e5m2_f32, B8, float, F32, 2, wgmma_sp_f32_e4m3_e5m2, false)
SPMMA_SM90A_INSTR(instr_e5m2e4m3_f32, B8, float, F32, 2, wgmma_sp_f32_e5m2_e4m3, false)
SPMMA_SM90A_INSTR(instr_e5m2e5m2_f32, B8, float, F32, 2, wgmma_sp_f32_e5m2_e5m2, false)
SPMMA_SM90A_INSTR(instr_e4m3e4m3_f16, B8, uint32_t, F16, 4, wgmma_sp_f16_e4m3_e4m3, false)
SPMMA_SM90A_INSTR(instr_e4m3e5m2_f16, B8, uint32_t, F16, 4, wgmma_sp_f16_e4m3_e5m2, false)
SPMMA_SM90A_INSTR(instr_e5m2e4m3_f16, B8, uint32_t, F16, 4, wgmma_sp_f16_e5m2_e4m3, false)
SPMMA_SM90A_INSTR(instr_e5m2e5m2_f16, B8, uint32_t, F16, 4, wgmma_sp_f16_e5m2_e5m2, false)
SPMMA_SM90A_INSTR(instr_s8s8_s32, B8, uint32_t, S32, 2, wgmma_sp_s32_s8_s8, false)
SPMMA_SM90A_INSTR(instr_s8u8_s32, B8, uint32_t, S32, 2, wgmma_sp_s32_s8_u8, false)
SPMMA_SM90A_INSTR(instr_u8s8_s32, B8, uint32_t, S32, 2, wgmma_sp_s32_u8_s8, false)
SPMMA_SM90A_INSTR(instr_u8u8_s32, B8, uint32_t, S32, 2, wgmma_sp_s32_u8_u8, false)
SPMMA_SM90A_INSTR(instr_s8s8_s32sat, B8, uint32_t, S32, 2, wgmma_sp_s32sat_s8_s8, true)
SPMMA_SM90A_INSTR(instr_s8u8_s32sat, B8, uint32_t, S32, 2, wgmma_sp_s32sat_s8_u8, true)
SPMMA_SM90A_INSTR(instr_u8s8_s32sat, B8, uint32_t, S32, 2, wgmma_sp_s32sat_u8_s8, true)
SPMMA_SM90A_INSTR(instr_u8u8_s32sat, B8, uint32_t, S32, 2, wgmma_sp_s32sat_u8_u8, true)

#undef SPMMA_SM90A_INSTR

}  // namespace spmma_sm90a

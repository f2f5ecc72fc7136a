// Every kernel of the sm80 plugin, one X-macro list per kernel file: the .cu file defines each
// entry as an extern "C" kernel, the host registry lists the same names with their fatbin.
//
//   X(name, tag, ordered, bm, bn, wm, wn, stages)
//     name     sm80_<a><b>_<acc>[_sat]_<BM>x<BN>x<BK>_s<stages>_<om|sp> (sm89_ for e4m3/e5m2);
//              BK is the logical k of one pipeline stage (128 bytes of k: 64 f16, 32 tf32,
//              128 8-bit, 256 4-bit); om = mma.sp::ordered_metadata, sp = mma.sp
//     tag      the type combination (op_tags.hpp / device/mma_ops.cuh)
//     ordered  1 for om, 0 for sp
//     bm, bn   CTA tile; wm, wn warp tile; stages cp.async pipeline depth
#pragma once

// ---- tile sets ----------------------------------------------------------------------------
// NOTES: 256x128 with 8 warps of 64x64 is the main tile (A is half-size, so a tall tile halves
// the B traffic per flop); 128x256 for wide problems; 128x128 (4 warps) for small ones and, with
// 3 stages (75 KiB), for sm_86/sm_89's 99 KiB of shared memory.
#define SPMMA_SM80_TILES_FULL(X, pfx, bk, tag, v, ord)                 \
    X(pfx##_256x128x##bk##_s4_##v, tag, ord, 256, 128, 64, 64, 4)      \
    X(pfx##_128x256x##bk##_s4_##v, tag, ord, 128, 256, 64, 64, 4)      \
    X(pfx##_128x128x##bk##_s4_##v, tag, ord, 128, 128, 64, 64, 4)      \
    X(pfx##_128x128x##bk##_s3_##v, tag, ord, 128, 128, 64, 64, 3)
#define SPMMA_SM80_TILES_TWO(X, pfx, bk, tag, v, ord)                  \
    X(pfx##_256x128x##bk##_s4_##v, tag, ord, 256, 128, 64, 64, 4)      \
    X(pfx##_128x128x##bk##_s3_##v, tag, ord, 128, 128, 64, 64, 3)

// Both metadata variants of one type combination.
#define SPMMA_SM80_BOTH(TILES, X, pfx, bk, tag) TILES(X, pfx, bk, tag, om, 1) TILES(X, pfx, bk, tag, sp, 0)

// ---- per kernel file ------------------------------------------------------------------------
// kernels/sm80_spgemm_f16.cu
#define SPMMA_SM80_KERNELS_F16(X)                                                   \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_FULL, X, sm80_f16f16_f32, 64, F16F16_F32)      \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_FULL, X, sm80_f16f16_f16, 64, F16F16_F16)
// kernels/sm80_spgemm_bf16.cu
#define SPMMA_SM80_KERNELS_BF16(X) \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_FULL, X, sm80_bf16bf16_f32, 64, BF16BF16_F32)
// kernels/sm80_spgemm_tf32.cu
#define SPMMA_SM80_KERNELS_TF32(X) \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_tf32tf32_f32, 32, TF32TF32_F32)
// kernels/sm80_spgemm_i8.cu
#define SPMMA_SM80_KERNELS_I8(X)                                                    \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s8s8_s32, 128, S8S8_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s8u8_s32, 128, S8U8_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u8s8_s32, 128, U8S8_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u8u8_s32, 128, U8U8_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s8s8_s32_sat, 128, S8S8_S32_SAT)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s8u8_s32_sat, 128, S8U8_S32_SAT)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u8s8_s32_sat, 128, U8S8_S32_SAT)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u8u8_s32_sat, 128, U8U8_S32_SAT)
// kernels/sm80_spgemm_i4.cu
#define SPMMA_SM80_KERNELS_I4(X)                                                    \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s4s4_s32, 256, S4S4_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s4u4_s32, 256, S4U4_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u4s4_s32, 256, U4S4_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u4u4_s32, 256, U4U4_S32)          \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s4s4_s32_sat, 256, S4S4_S32_SAT)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_s4u4_s32_sat, 256, S4U4_S32_SAT)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u4s4_s32_sat, 256, U4S4_S32_SAT)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm80_u4u4_s32_sat, 256, U4U4_S32_SAT)
// kernels/sm89_spgemm_f8.cu (SASS for sm_89 and sm_90 only)
#define SPMMA_SM80_KERNELS_F8(X)                                                    \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm89_e4m3e4m3_f32, 128, E4M3E4M3_F32)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm89_e4m3e5m2_f32, 128, E4M3E5M2_F32)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm89_e5m2e4m3_f32, 128, E5M2E4M3_F32)  \
    SPMMA_SM80_BOTH(SPMMA_SM80_TILES_TWO, X, sm89_e5m2e5m2_f32, 128, E5M2E5M2_F32)

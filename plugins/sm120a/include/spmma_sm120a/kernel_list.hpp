// Every kernel of the sm120a plugin, one X-macro list per kernel file: the .cu file defines each
// entry as an extern "C" kernel, the host registry lists the same names with their fatbin.
//
//   X(name, KIND, A, B, ACC, SV, SCALE, bm, bn, wm, wn, stages)
//     name    sm120a_<kind>_<a><b>_<acc | scale x vec>_<BM>x<BN>x<BK>_s<stages>; BK is the logical
//             k of one pipeline stage (two mma: 128 for 8-bit containers, 256 for packed e2m1)
//     KIND    F8F6F4, MXF8F6F4, MXF4, MXF4NVF4 (forms.hpp Kind)
//     A, B    operand types (E4M3, E5M2, E3M2, E2M3, E2M1: SPMMA_<A>)
//     ACC     F32 or F16 (SPMMA_<ACC>); SV scale_vec (0, 1, 2, 4); SCALE DTYPE_NONE, UE8M0, UE4M3
//     bm, bn  CTA tile; wm, wn warp tile; stages cp.async pipeline depth
#pragma once

// ---- tiles ----------------------------------------------------------------------------------
// NOTES: sm_120 gives a block at most 99 KiB of shared memory (100 KiB an SM), so no tile here
// pairs with a second CTA per SM: 128x128 with 8 warps of 64x32 and 3 stages (78 KiB unscaled,
// 84 KiB with 4X scales) is the main tile; 128x64 with 4 warps and 4 stages (72-78 KiB) gives
// twice the CTAs for problems too small to fill the GPU with the big tile. Warp tiles are
// 64x32: four 16-row atoms (two scale-a pairs) by four 8-column atoms (one scale-b quad).
#define SPMMA_SM120A_TILES(X, pfx, bk, KIND, A, B, ACC, SV, SCALE)            \
    X(pfx##_128x128x##bk##_s3, KIND, A, B, ACC, SV, SCALE, 128, 128, 64, 32, 3) \
    X(pfx##_128x64x##bk##_s4, KIND, A, B, ACC, SV, SCALE, 128, 64, 64, 32, 4)

// Every A x B pair of the kind::f8f6f4 types: P(X, a, A, b, B), lower case for names.
#define SPMMA_SM120A_FOR_B(P, X, a, A) \
    P(X, a, A, e4m3, E4M3) P(X, a, A, e5m2, E5M2) P(X, a, A, e3m2, E3M2) P(X, a, A, e2m3, E2M3) P(X, a, A, e2m1, E2M1)
#define SPMMA_SM120A_FOR_PAIRS(P, X)                                                             \
    SPMMA_SM120A_FOR_B(P, X, e4m3, E4M3) SPMMA_SM120A_FOR_B(P, X, e5m2, E5M2)                    \
    SPMMA_SM120A_FOR_B(P, X, e3m2, E3M2) SPMMA_SM120A_FOR_B(P, X, e2m3, E2M3)                    \
    SPMMA_SM120A_FOR_B(P, X, e2m1, E2M1)

// ---- per kernel file ------------------------------------------------------------------------
// kernels/sm120a_spgemm_f8f6f4.cu: kind::f8f6f4, f32 and f16 accumulation, all 25 pairs
#define SPMMA_SM120A_F8F6F4_PAIR(X, a, A, b, B)                                                   \
    SPMMA_SM120A_TILES(X, sm120a_f8f6f4_##a##b##_f32, 128, F8F6F4, A, B, F32, 0, DTYPE_NONE)       \
    SPMMA_SM120A_TILES(X, sm120a_f8f6f4_##a##b##_f16, 128, F8F6F4, A, B, F16, 0, DTYPE_NONE)
#define SPMMA_SM120A_KERNELS_F8F6F4(X) SPMMA_SM120A_FOR_PAIRS(SPMMA_SM120A_F8F6F4_PAIR, X)

// kernels/sm120a_spgemm_mxf8f6f4.cu: kind::mxf8f6f4 scale_vec::1X ue8m0, all 25 pairs
#define SPMMA_SM120A_MXF8F6F4_PAIR(X, a, A, b, B) \
    SPMMA_SM120A_TILES(X, sm120a_mxf8f6f4_##a##b##_ue8m0x1, 128, MXF8F6F4, A, B, F32, 1, UE8M0)
#define SPMMA_SM120A_KERNELS_MXF8F6F4(X) SPMMA_SM120A_FOR_PAIRS(SPMMA_SM120A_MXF8F6F4_PAIR, X)

// kernels/sm120a_spgemm_mxf4.cu: kind::mxf4 scale_vec::2X ue8m0
#define SPMMA_SM120A_KERNELS_MXF4(X) \
    SPMMA_SM120A_TILES(X, sm120a_mxf4_e2m1_ue8m0x2, 256, MXF4, E2M1, E2M1, F32, 2, UE8M0)

// kernels/sm120a_spgemm_mxf4nvf4.cu: kind::mxf4nvf4 scale_vec::2X ue8m0 and scale_vec::4X ue4m3
#define SPMMA_SM120A_KERNELS_MXF4NVF4(X)                                                         \
    SPMMA_SM120A_TILES(X, sm120a_mxf4nvf4_e2m1_ue8m0x2, 256, MXF4NVF4, E2M1, E2M1, F32, 2, UE8M0) \
    SPMMA_SM120A_TILES(X, sm120a_mxf4nvf4_e2m1_ue4m3x4, 256, MXF4NVF4, E2M1, E2M1, F32, 4, UE4M3)

// kernels/sm120a_swmma_spgemm.cu, the check build (SPMMA_SM120A_SOFTWARE_MMA, plugin sm120a-swmma,
// device/mma_software.cuh): one form of each data path (containers with e2m1 and 6-bit types,
// f16 accumulation, 1X / 2X / 4X scale words, packed e2m1), both tiles, the same names.
#define SPMMA_SM120A_KERNELS_SWMMA(X)                                                                  \
    SPMMA_SM120A_TILES(X, sm120a_f8f6f4_e4m3e2m1_f32, 128, F8F6F4, E4M3, E2M1, F32, 0, DTYPE_NONE)       \
    SPMMA_SM120A_TILES(X, sm120a_f8f6f4_e2m3e3m2_f16, 128, F8F6F4, E2M3, E3M2, F16, 0, DTYPE_NONE)       \
    SPMMA_SM120A_TILES(X, sm120a_mxf8f6f4_e2m1e5m2_ue8m0x1, 128, MXF8F6F4, E2M1, E5M2, F32, 1, UE8M0)    \
    SPMMA_SM120A_KERNELS_MXF4(X) SPMMA_SM120A_KERNELS_MXF4NVF4(X)

// The form of one entry (host and device).
#define SPMMA_SM120A_FORM(KIND, A, B, ACC, SV, SCALE) \
    ::spmma_sm120a::Form{::spmma_sm120a::Kind::KIND, SPMMA_##A, SPMMA_##B, SPMMA_##ACC, SPMMA_##SCALE, SV}

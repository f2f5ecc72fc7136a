// The tile set of the sm120a kernel lists (kernels/*.inc): SPMMA_SM120A_TILES expands to one
// SPMMA_SM120A_KERNEL(name, KIND, A, B, ACC, SV, SCALE, bm, bn, wm, wn, stages) per tile, which
// the file that includes a list defines first (the kernel file: device/sm120a_spgemm.cuh; the
// host table: src/kernel_table.cpp).
//
//   name    sm120a_<kind>_<a><b>_<acc | scale x vec>_<BM>x<BN>x<BK>_s<stages>; BK is the logical
//           k of one pipeline stage (two mma: 128 for 8-bit containers, 256 for packed e2m1)
//   KIND    F8F6F4, MXF8F6F4, MXF4, MXF4NVF4 (forms.hpp Kind)
//   A, B    operand types (E4M3, E5M2, E3M2, E2M3, E2M1: SPMMA_<A>)
//   ACC     F32 or F16 (SPMMA_<ACC>); SV scale_vec (0, 1, 2, 4); SCALE DTYPE_NONE, UE8M0, UE4M3
//   bm, bn  CTA tile; wm, wn warp tile; stages cp.async pipeline depth
//
// A list line names the kernel-name prefix, BK and the form:
//   SPMMA_SM120A_TILES(sm120a_mxf4_e2m1_ue8m0x2, 256, MXF4, E2M1, E2M1, F32, 2, UE8M0)
#pragma once

// NOTES: sm_120 gives a block at most 99 KiB of shared memory (100 KiB an SM), so no tile here
// pairs with a second CTA per SM: 128x128 with 8 warps of 64x32 and 3 stages (78 KiB unscaled,
// 84 KiB with 4X scales) is the main tile; 128x64 with 4 warps and 4 stages (72-78 KiB) gives
// twice the CTAs for problems too small to fill the GPU with the big tile. Warp tiles are
// 64x32: four 16-row atoms (two scale-a pairs) by four 8-column atoms (one scale-b quad).
#define SPMMA_SM120A_TILES(pfx, bk, KIND, A, B, ACC, SV, SCALE)                            \
    SPMMA_SM120A_KERNEL(pfx##_128x128x##bk##_s3, KIND, A, B, ACC, SV, SCALE, 128, 128, 64, 32, 3) \
    SPMMA_SM120A_KERNEL(pfx##_128x64x##bk##_s4, KIND, A, B, ACC, SV, SCALE, 128, 64, 64, 32, 4)

// The form of one entry (host and device).
#define SPMMA_SM120A_FORM(KIND, A, B, ACC, SV, SCALE) \
    ::spmma_sm120a::Form{::spmma_sm120a::Kind::KIND, SPMMA_##A, SPMMA_##B, SPMMA_##ACC, SPMMA_##SCALE, SV}

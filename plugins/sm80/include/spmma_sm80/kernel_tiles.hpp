// The tile sets of the sm80 kernel lists (kernels/*.inc): each expands to one
// SPMMA_SM80_KERNEL(name, tag, ordered, bm, bn, wm, wn, stages) per tile, which the file that
// includes a list defines first (the kernel file: device/sm80_spgemm.cuh; the host table:
// src/kernel_table.cpp).
//
//   name     sm80_<a><b>_<acc>[_sat]_<BM>x<BN>x<BK>_s<stages>_<om|sp> (sm89_ for e4m3/e5m2);
//            BK is the logical k of one pipeline stage (128 bytes of k: 64 f16, 32 tf32,
//            128 8-bit, 256 4-bit); om = mma.sp::ordered_metadata, sp = mma.sp
//   tag      the type combination (op_tags.hpp / device/mma_ops.cuh)
//   ordered  1 for om, 0 for sp
//   bm, bn   CTA tile; wm, wn warp tile; stages cp.async pipeline depth
//
// A list line names a tile set, the kernel-name prefix, BK, the tag and the metadata variant:
//   SPMMA_SM80_TILES_FULL(sm80_f16f16_f32, 64, F16F16_F32, om, 1)
#pragma once

// NOTES: 256x128 with 8 warps of 64x64 is the main tile (A is half-size, so a tall tile halves
// the B traffic per flop); 128x256 for wide problems; 128x128 (4 warps) for small ones and, with
// 3 stages (75 KiB), for sm_86/sm_89's 99 KiB of shared memory.
#define SPMMA_SM80_TILES_FULL(pfx, bk, tag, v, ord)                              \
    SPMMA_SM80_KERNEL(pfx##_256x128x##bk##_s4_##v, tag, ord, 256, 128, 64, 64, 4) \
    SPMMA_SM80_KERNEL(pfx##_128x256x##bk##_s4_##v, tag, ord, 128, 256, 64, 64, 4) \
    SPMMA_SM80_KERNEL(pfx##_128x128x##bk##_s4_##v, tag, ord, 128, 128, 64, 64, 4) \
    SPMMA_SM80_KERNEL(pfx##_128x128x##bk##_s3_##v, tag, ord, 128, 128, 64, 64, 3)
// NOTES: the decode tiles (a weight times at most 64 tokens, A streamed from DRAM: n within one
// tile column, so A is read once): 128 rows in 4 warps of 32 rows, as narrow in n as the tokens,
// with deep pipelines in little shared memory (2-3 CTAs an SM) and split-K (split_k.hpp) where
// m / 128 tiles leave SMs idle.
#define SPMMA_SM80_TILES_DECODE(pfx, bk, tag, v, ord)                           \
    SPMMA_SM80_KERNEL(pfx##_128x16x##bk##_s6_##v, tag, ord, 128, 16, 32, 16, 6) \
    SPMMA_SM80_KERNEL(pfx##_128x32x##bk##_s6_##v, tag, ord, 128, 32, 32, 32, 6) \
    SPMMA_SM80_KERNEL(pfx##_128x64x##bk##_s4_##v, tag, ord, 128, 64, 32, 64, 4)
#define SPMMA_SM80_TILES_TWO(pfx, bk, tag, v, ord)                               \
    SPMMA_SM80_KERNEL(pfx##_256x128x##bk##_s4_##v, tag, ord, 256, 128, 64, 64, 4) \
    SPMMA_SM80_KERNEL(pfx##_128x128x##bk##_s3_##v, tag, ord, 128, 128, 64, 64, 3)

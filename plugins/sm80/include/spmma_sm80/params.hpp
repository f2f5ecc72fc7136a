// The one argument every sm80 GEMM kernel takes (host fills it, nvcc and g++ both compile it).
#pragma once

#include <spmma_plugin/fused_epilogue.hpp>

#include <cstdint>

namespace spmma_sm80 {

struct GemmParams {
    const uint8_t* a;    // packed A values (layout.hpp), m padded to the CTA tile, k to the stage
    const uint32_t* e;   // packed metadata words
    const uint8_t* b;    // B column-major, columns padded to the CTA tile, ldb bytes apart
    const void* c;       // row-major m x n of c_type; never read when beta_zero
    void* d;             // row-major m x n of d_type
    int64_t ldb;         // bytes between B columns (k padded to the stage, times the element size)
    int m, n;            // the problem's (unpadded) sizes: stores and C loads are predicated on them
    int k_stages;        // pipeline stages of k (k padded / stage k)
    int tiles_m, tiles_n;
    int raster_group;    // tile rows per raster group (layout.hpp raster())
    int c_type, d_type;  // SPMMA_F32, SPMMA_F16, SPMMA_BF16 or SPMMA_S32
    int beta_zero;       // 1: D = alpha * acc (C not read)
    float alpha, beta;   // floating-point epilogue
    int64_t alpha_i, beta_i;  // integer epilogue (64-bit products and sum, then wrap or clamp)
    int saturate;        // integer epilogue: clamp to s32 instead of wrapping
    spmma_plugin::FusedEpilogue epi;  // ABI 1.2's epilogue (floating problems), fused into epilogue_tile
    // Split-K (split_k.hpp): the CTAs of a tile (k_splits of them, 1 = no split) each run an equal
    // range of its k stages and write their partial tile into partials, k_splits slices of m rows
    // of partials_ld 32-bit words (n padded to the tile), which the reduction kernel adds.
    int k_splits;
    int partials_ld;
    uint32_t* partials;
};

}  // namespace spmma_sm80

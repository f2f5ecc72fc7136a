// The one argument every sm120a GEMM kernel takes (the host fills it; nvcc and g++ compile it).
#pragma once

#include <spmma_plugin/fused_epilogue.hpp>

#include <cstdint>

namespace spmma_sm120a {

struct GemmParams {
    const uint8_t* a;     // packed A values (layout.hpp), m padded to the CTA tile, k to the stage
    const uint32_t* e;    // packed metadata words
    const uint32_t* sa;   // packed scale-a words (null when unscaled)
    const uint32_t* sb;   // packed scale-b words (null when unscaled)
    const uint8_t* b;     // B column-major in the instruction's element format, n padded, ldb apart
    const void* c;        // row-major m x n of c_type; never read when beta_zero
    void* d;              // row-major m x n of d_type
    int64_t ldb;          // bytes between B columns (k_stages * 128)
    int m, n;             // the problem's sizes: C loads and D stores are predicated on them
    int k_stages;         // pipeline stages along k
    int tiles_m, tiles_n; // CTA tiles
    int raster_group;     // tile rows per raster group (layout.hpp raster())
    int c_type, d_type;   // SPMMA_F32, SPMMA_F16 or SPMMA_BF16
    int beta_zero;        // 1: D = alpha * acc, C is not read
    float alpha, beta;
    spmma_plugin::FusedEpilogue epi;  // ABI 1.2's epilogue, fused into epilogue_vec4
};

}  // namespace spmma_sm120a

// What the host passes to every sm100a kernel besides the tensor maps (A values, B, metadata,
// scale A, scale B). Plain data, compiled by nvcc and g++ alike; passed by value.
#pragma once

#include <spmma_plugin/fused_epilogue.hpp>

#include <cstdint>

namespace spmma_sm100a {

struct KernelParams {
    int32_t m, n;           // the problem
    int32_t k_stages;       // pipeline stages along k (k padded to whole stages)
    int32_t tiles_m;        // tiles along m (ceil(m / BM), BM = 128 * CTA group) and n
    int32_t tiles_n;
    int32_t raster_group;   // tiles along m per raster band (see TileScheduler)
    uint32_t idesc;         // the instruction descriptor (descriptors.hpp), selector and scale ids 0
    int32_t d_type;         // spmma_dtype of D
    void* d;                // D, row-major m x n
    const void* c;          // C, row-major m x n, f32 (float problems) or s32; null when !use_c
    int32_t use_c;          // beta != 0
    int32_t saturate;       // integer problems: clamp the epilogue result to int32 (else wrap)
    float alpha, beta;      // float problems
    int64_t alpha_i, beta_i;  // integer problems
    spmma_plugin::FusedEpilogue epi;  // ABI 1.2's epilogue (float problems), fused into store_float16
};

}  // namespace spmma_sm100a

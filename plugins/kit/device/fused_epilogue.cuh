// ABI 1.2's epilogue on the device, for kernels that fuse it (spmma_plugin::FusedEpilogue): the
// factor alpha * rs[row] * cs[col] that multiplies the accumulator before C is added, and the
// bias and activation after, in the order and precision of plugin.h (f32; the caller rounds once
// to D's type). Shared by the sm80, sm90a, sm100a and sm120a kernels.
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/fused_epilogue.hpp>

#include <cstdint>

#include "activation.cuh"

namespace spmma_epilogue {

using spmma_plugin::FusedEpilogue;

// NOTES: read-only loads (__ldg): plain ones may not start before a store ahead of them through
// a pointer the compiler cannot tell apart (D, the epilogue buffers), so each waited a full
// memory latency and the sm90a serving op took up to 2.4x the plain GEMM (bench/NOTES.md,
// 2026-11-27). The 256x192 sm90a kernels, which spilled when such loads were hoisted, do not
// fuse the epilogue.

// alpha * rs[row] (alpha without a row scale).
__device__ __forceinline__ float row_factor(const FusedEpilogue& e, float alpha, int row) {
    return e.row_scale ? alpha * __ldg(e.row_scale + row) : alpha;
}

// row_factor * cs[col] (row_factor without a column scale): the accumulator's factor.
__device__ __forceinline__ float col_factor(const FusedEpilogue& e, float row_factor, int col) {
    return e.col_scale ? row_factor * __ldg(e.col_scale + col) : row_factor;
}

// The factors of columns col and col + 1 (col even, col + 1 < n): one 8-byte load.
__device__ __forceinline__ float2 col_factor2(const FusedEpilogue& e, float row_factor, int col) {
    if (!e.col_scale) return make_float2(row_factor, row_factor);
    const float2 cs = __ldg(reinterpret_cast<const float2*>(e.col_scale + col));
    return make_float2(row_factor * cs.x, row_factor * cs.y);
}

// x (alpha * rs * cs * acc + beta * C) plus the bias, then the activation.
__device__ __forceinline__ float finish(const FusedEpilogue& e, float x, int row, int col) {
    if (e.bias_axis != SPMMA_BIAS_NONE) x += __ldg(e.bias + (e.bias_axis == SPMMA_BIAS_ROW ? row : col));
    return activate(e.activation, x);
}

}  // namespace spmma_epilogue

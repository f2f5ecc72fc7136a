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

// NOTES: plain loads, not __ldg: a read-only load may be hoisted across the stores and barriers
// of an unrolled epilogue, so the compiler fetched every scale of the tile at once and a
// 256x192 sm90a kernel, whose accumulators fill the registers, spilled. Plain loads stay behind
// the stores to D (which may alias them) and the epilogue buffers' barriers (memory clobbers).

// alpha * rs[row] (alpha without a row scale).
__device__ __forceinline__ float row_factor(const FusedEpilogue& e, float alpha, int row) {
    return e.row_scale ? alpha * e.row_scale[row] : alpha;
}

// row_factor * cs[col] (row_factor without a column scale): the accumulator's factor.
__device__ __forceinline__ float col_factor(const FusedEpilogue& e, float row_factor, int col) {
    return e.col_scale ? row_factor * e.col_scale[col] : row_factor;
}

// x (alpha * rs * cs * acc + beta * C) plus the bias, then the activation.
__device__ __forceinline__ float finish(const FusedEpilogue& e, float x, int row, int col) {
    if (e.bias_axis != SPMMA_BIAS_NONE) x += e.bias[e.bias_axis == SPMMA_BIAS_ROW ? row : col];
    return activate(e.activation, x);
}

}  // namespace spmma_epilogue

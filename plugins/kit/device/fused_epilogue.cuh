// ABI 1.2's epilogue on the device, for kernels that fuse it (spmma_plugin::FusedEpilogue): the
// factor alpha * rs[row] * cs[col] that multiplies the accumulator before C is added, and the
// bias and activation after, in the order and precision of plugin.h (f32; the caller rounds once
// to D's type). Shared by the sm80 and sm90a kernels.
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/fused_epilogue.hpp>

#include <cstdint>

#include "activation.cuh"
#include "epilogue_store.cuh"

namespace spmma_epilogue {

using spmma_plugin::FusedEpilogue;

// alpha * rs[row] (alpha without a row scale).
__device__ __forceinline__ float row_factor(const FusedEpilogue& e, float alpha, int row) {
    return e.row_scale ? alpha * __ldg(e.row_scale + row) : alpha;
}

// row_factor * cs[col] (row_factor without a column scale): the accumulator's factor.
__device__ __forceinline__ float col_factor(const FusedEpilogue& e, float row_factor, int col) {
    return e.col_scale ? row_factor * __ldg(e.col_scale + col) : row_factor;
}

// x (alpha * rs * cs * acc + beta * C) plus the bias, then the activation.
__device__ __forceinline__ float finish(const FusedEpilogue& e, float x, int row, int col) {
    if (e.bias_axis == SPMMA_BIAS_ROW) x += load_float(e.bias, e.bias_type, row);
    else if (e.bias_axis == SPMMA_BIAS_COL) x += load_float(e.bias, e.bias_type, col);
    return e.activation == SPMMA_ACTIVATION_NONE ? x : activate(e.activation, x);
}

}  // namespace spmma_epilogue

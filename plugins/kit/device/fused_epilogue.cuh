// ABI 1.2's epilogue on the device, for kernels that fuse it (spmma_plugin::FusedEpilogue): the
// factor alpha * rs[row] * cs[col] that multiplies the accumulator before C is added, and the
// bias and activation after, in the order and precision of plugin.h (f32; the caller rounds once
// to D's type). Shared by the sm80, sm90a, sm100a and sm120a kernels.
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/fused_epilogue.hpp>

#include <cstdint>

#include "activation.cuh"
#include "ptx_sm80.cuh"

namespace spmma_epilogue {

using spmma_plugin::FusedEpilogue;

// NOTES: no test per element: every vector is on the device once the problem has an epilogue
// (ones, -0.0: FusedEpilogue), so these are loads and arithmetic only. A null test and a bias
// switch per element, unrolled over a tile, made ptxas several times slower on the sm90a
// kernels (plugins/sm90a/NOTES.md). The loads are ld.global.nc in asm volatile
// (ptx_sm80.cuh): plain loads may not start before a store ahead of them through a pointer the
// compiler cannot tell apart (D, the epilogue buffers), so each waited a full memory latency
// (bench/NOTES.md, 2026-11-27, the epilogue's cost); __ldg loads the compiler merged across the
// unrolled tile and kept every scale of it in registers (an sm90a tf32 256x128 kernel spilled).
// A row's terms and a column pair's are loaded once by the caller (RowTerms, PairTerms) and
// shared by the elements they apply to. Rows and columns are clamped by the caller to the last
// row / column where a kernel computes values it does not store (TMA boxes past D).

// What one row contributes: alpha * rs[row], and its bias (-0.0 unless the bias is per row).
struct RowTerms {
    float factor;
    float bias;
};

__device__ __forceinline__ RowTerms row_terms(const FusedEpilogue& e, float alpha, int row) {
    return {alpha * spmma_ptx::ld_global_nc_f32(e.row_scale + row), spmma_ptx::ld_global_nc_f32(e.row_bias + row)};
}

// What the column pair (col, col + 1) contributes, col even and below n rounded up to even (the
// column vectors have an even length): cs of both and their bias (-0.0 unless per column), in
// two aligned 8-byte loads.
struct PairTerms {
    float2 scale;
    float2 bias;
};

__device__ __forceinline__ PairTerms pair_terms(const FusedEpilogue& e, int col) {
    return {spmma_ptx::ld_global_nc_v2_f32(reinterpret_cast<const float2*>(e.col_scale + col)),
            spmma_ptx::ld_global_nc_v2_f32(reinterpret_cast<const float2*>(e.col_bias + col))};
}

// The accumulator's factor at column col: row factor * cs[col].
__device__ __forceinline__ float col_factor(const FusedEpilogue& e, float row_factor, int col) {
    return row_factor * spmma_ptx::ld_global_nc_f32(e.col_scale + col);
}

// x (alpha * rs * cs * acc + beta * C) plus the bias of (row, col): one of the two is -0.0.
__device__ __forceinline__ float add_bias(const FusedEpilogue& e, float x, float row_bias, int col) {
    return x + row_bias + spmma_ptx::ld_global_nc_f32(e.col_bias + col);
}

// N consecutive columns col .. col + N - 1 of row `row`: v[e] *= alpha * rs[row] * cs[col + e]
// with the epilogue, alpha without. Columns past n read the last column's scale (their values
// are never stored), so no load leaves the vectors.
template <int N>
__device__ __forceinline__ void scale_columns(const FusedEpilogue& e, float alpha, int n, int row, int col, float (&v)[N]) {
    if (e.on) {
        const float f = alpha * spmma_ptx::ld_global_nc_f32(e.row_scale + row);
#pragma unroll
        for (int i = 0; i < N; ++i) v[i] *= col_factor(e, f, min(col + i, n - 1));
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) v[i] *= alpha;
    }
}

// The same N columns after C: the bias, then the activation (one test for all N), with the
// epilogue; nothing without.
template <int N>
__device__ __forceinline__ void finish_columns(const FusedEpilogue& e, int n, int row, int col, float (&v)[N]) {
    if (!e.on) return;
    const float rb = spmma_ptx::ld_global_nc_f32(e.row_bias + row);
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = add_bias(e, v[i], rb, min(col + i, n - 1));
    if (e.activation != SPMMA_ACTIVATION_NONE) {
#pragma unroll
        for (int i = 0; i < N; ++i) v[i] = activate(e.activation, v[i]);
    }
}

}  // namespace spmma_epilogue

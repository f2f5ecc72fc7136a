// The canonical operands (plugin.h) against the problem they belong to: the size each buffer must
// have, and one check that every plugin runs at upload, so that a missing or wrongly sized
// buffer gets the same message whichever plugin is asked. Pure C++ (no CUDA).
#pragma once

#include <spmma/plugin.h>

#include <cstddef>
#include <cstdint>

namespace spmma_plugin {

// Bytes of `count` elements of t in the ABI's storage (4-bit types two per byte).
size_t storage_bytes(spmma_dtype t, int64_t count);

// The sizes the host's buffers have for problem p (plugin.h): A values m x k/2 of a_type, A
// indices m x k/G, B k x n of b_type, C m x n of c_type (0 when beta is 0: C is not read), D
// m x n of d_type, block scales m (n) x k/scale_block (0 when unscaled).
// The epilogue's vectors (ABI 1.2): row_scale m f32, col_scale n f32, bias m or n of bias_type
// (0 when absent).
struct CanonicalSizes {
    size_t a_values = 0, a_indices = 0, b = 0, c = 0, d = 0, scale_a = 0, scale_b = 0;
    size_t row_scale = 0, col_scale = 0, bias = 0;
};
CanonicalSizes canonical_sizes(const spmma_problem& p);

// Whether C is read: beta is not 0.
inline bool reads_c(const spmma_problem& p) { return p.beta != 0.0; }

// Throws Error(SPMMA_INVALID_ARGUMENT) naming the first operand that is missing or has the
// wrong size ("B has 40 bytes, expected 80"; "C is null (beta is not 0)").
void check_operands(const spmma_problem& p, const spmma_operands& ops);

// Throws Error(SPMMA_INVALID_ARGUMENT) unless a buffer for D has D's size.
void check_d_bytes(const spmma_problem& p, size_t bytes);

}  // namespace spmma_plugin

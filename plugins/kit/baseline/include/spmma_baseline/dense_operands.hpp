// The vendor-library baselines (cublas, cusparselt) take plain dense matrices: A expanded from
// the canonical compressed form (zeros where the pattern removed elements), B's and C's sizes
// checked, and every operand zero-padded up to the sizes the library accepts. Host side only,
// pure C++ (the plugins and tests/baselines link it). 8-, 16- and 32-bit element types; the
// 4-bit ones are refused.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>
#include <vector>

namespace spmma_baseline {

// Bytes of one element of t; throws std::invalid_argument for 4-bit (packed) and unknown types.
int element_bytes(spmma_dtype t);

inline int64_t round_up(int64_t x, int64_t multiple) { return (x + multiple - 1) / multiple * multiple; }

// Sizes after padding (each >= the problem's).
struct PaddedSizes {
    int64_t m = 0, n = 0, k = 0;
    bool padded(const spmma_problem& p) const { return m != p.m || n != p.n || k != p.k; }
};
PaddedSizes pad_sizes(const spmma_problem& p, int64_t multiple_m, int64_t multiple_n, int64_t multiple_k);

// Dense A, rows x cols row-major (rows >= m, cols >= k), from the canonical compressed form
// (values m x k/2, index bytes m x k/G, see plugin.h): kept values in the columns the index bytes
// name, zeros elsewhere and in the padding. Throws std::invalid_argument naming the row and
// group of an index byte that is not a valid sorted selection, and for buffers of the wrong size.
std::vector<uint8_t> expand_a(const spmma_problem& p, const void* values, size_t values_bytes, const uint8_t* indices,
                              size_t indices_bytes, int64_t rows, int64_t cols);

// The operands besides A, against the problem: B (k x n of b_type) always, C (m x n of D's type)
// only when beta is not 0. Returns whether C is read; throws std::invalid_argument ("B has 6
// bytes, expected 8") for a missing or wrongly sized one.
bool check_b_and_c(const spmma_problem& p, const spmma_operands& ops);

// A row-major rows x cols matrix of elem_bytes-byte elements, copied into the top-left corner of
// a zeroed padded_rows x padded_cols one. (B column-major k x n is row-major n x k: pad it as
// such; C row-major m x n likewise.)
std::vector<uint8_t> pad_matrix(const void* src, int elem_bytes, int64_t rows, int64_t cols, int64_t padded_rows,
                                int64_t padded_cols);

// The top-left rows x cols corner of a row-major padded_rows x padded_cols matrix, into dst.
void crop_matrix(const void* src, int elem_bytes, int64_t padded_rows, int64_t padded_cols, void* dst, int64_t rows,
                 int64_t cols);

}  // namespace spmma_baseline

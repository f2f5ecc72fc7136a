// The OpenMP CPU reference GEMM over the canonical compressed A, with each instruction family's
// semantics: only the kept (non-zero) elements of A are multiplied; products and sums are exact
// (double; integer sums are exact in double up to 2^53); block scales multiply each K block;
// integer results wrap to 32 bits or clamp with saturate; floating results go through the
// epilogue (alpha, the row and column scales, beta*C, the bias, the activation; exact, in double)
// and are converted to d_type with round-to-nearest-even, once.
#pragma once

#include <spmma/reference/verify.hpp>

#include <cstdint>
#include <vector>

namespace spmma::reference {

// Full result, row-major m x n: floating problems the exact act(alpha*rs*cs*(A*B) + beta*C +
// bias) (before the conversion to d_type), integer problems the s32 result (wrapped, or clamped with saturate).
// With abs_sum: sum over k of |a*b| (scales applied, alpha not) per element, the S of the
// tolerance. Cache-blocked, register-blocked, OpenMP over rows.
std::vector<double> gemm_full(const GemmInput& input, std::vector<double>* abs_sum = nullptr);

// One element of the same result, and its sum of |a*b| (scales applied, alpha not) if abs_sum is
// set. O(k).
double gemm_element(const GemmInput& input, int64_t i, int64_t j, double* abs_sum = nullptr);

// The reference D converted to d_type, as a canonical buffer (what a perfect plugin returns).
// Runs gemm_full: the full cost even for problems verified by sampling.
std::vector<uint8_t> reference_d(const GemmInput& input);

}  // namespace spmma::reference

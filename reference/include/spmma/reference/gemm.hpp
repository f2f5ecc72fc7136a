// The OpenMP CPU reference GEMM over the canonical compressed A, with each instruction family's
// semantics (exact products, f32/f16/s32 accumulation, wrap or .satfinite, block scaling).
#pragma once

#include <spmma/reference/verify.hpp>

#include <cstdint>
#include <vector>

namespace spmma::reference {

// Full D in the exact (double) arithmetic of alpha*A*B + beta*C, row-major m x n.
std::vector<double> gemm_full(const GemmInput& input);

// One element of the exact result, and sum_k |alpha*a*b| (for error bounds) if abs_sum is set.
double gemm_element(const GemmInput& input, int64_t i, int64_t j, double* abs_sum = nullptr);

// The reference D converted to d_type, as a canonical buffer (what a perfect plugin returns).
std::vector<uint8_t> reference_d(const GemmInput& input);

}  // namespace spmma::reference

// Which sm80 kernels compute a problem. The heuristic that picks a kernel is the backend's
// (sm80_backend.cpp).
#pragma once

#include "kernel_table.hpp"

#include <vector>

namespace spmma_sm80 {

// Whether a kernel of type combination `op` computes problems of p's types (a, b, accumulator,
// satfinite).
bool op_matches(const OpInfo& op, const spmma_problem& p);

// The kernels that compute problems of p's types, in table order.
std::vector<const KernelDesc*> matching_kernels(const spmma_problem& p);

}  // namespace spmma_sm80

// Which sm120a kernels compute a problem. The heuristic that picks a kernel is the backend's
// (sm120a_backend.cpp).
#pragma once

#include "kernel_table.hpp"

#include <vector>

namespace spmma_sm120a {

// Whether a kernel of form f computes problem p (types, pattern, accumulator, scales).
bool form_matches(const Form& f, const spmma_problem& p);

// The kernels that compute p, in table order.
std::vector<const KernelDesc*> matching_kernels(const spmma_problem& p);

}  // namespace spmma_sm120a

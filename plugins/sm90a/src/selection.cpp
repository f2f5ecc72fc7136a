#include "selection.hpp"

#include <spmma_sm90a/problem_check.hpp>

#include <algorithm>
#include <cstdint>

namespace spmma_sm90a {

std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelEntry*> v;
    for (const KernelEntry& e : kernel_table().entries())
        if (kernel_types_match(e.a_type, e.b_type, e.acc_type, e.satfinite, p)) v.push_back(&e);
    return v;
}

bool tma_epilogue_possible(const spmma_problem& p) {
    return p.beta == 0.0 && (p.n * (spmma_dtype_storage_bits(p.d_type) / 8)) % 16 == 0;
}

}  // namespace spmma_sm90a

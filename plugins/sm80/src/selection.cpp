#include "selection.hpp"

namespace spmma_sm80 {

bool op_matches(const OpInfo& op, const spmma_problem& p) {
    return op.a == p.a_type && op.b == p.b_type && op.acc == p.acc_type && op.satfinite == (p.saturate != 0);
}

std::vector<const KernelDesc*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelDesc*> v;
    for (const KernelDesc& k : kernel_table().entries())
        if (op_matches(*k.op, p)) v.push_back(&k);
    return v;
}

}  // namespace spmma_sm80

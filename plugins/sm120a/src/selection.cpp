#include "selection.hpp"

namespace spmma_sm120a {

bool form_matches(const Form& f, const spmma_problem& p) {
    if (f.a != p.a_type || f.b != p.b_type || f.acc != p.acc_type || f.pattern() != p.pattern) return false;
    if (f.scale != p.scale_type) return false;
    return !f.scaled() || f.scale_block() == p.scale_block;
}

std::vector<const KernelDesc*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelDesc*> v;
    for (const KernelDesc& k : kernel_table().entries())
        if (form_matches(k.form, p)) v.push_back(&k);
    return v;
}

}  // namespace spmma_sm120a

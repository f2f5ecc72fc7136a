// Which problems the sm90a kernels take: the checks the plugin's backend and the emu plugin's
// emulated sm90a kernels share, so both refuse the same problems with the same reasons.
#pragma once

#include <spmma/plugin.h>

#include <string>

namespace spmma_sm90a {

// Empty when some sm90a kernel can compute `p` (types, pattern, accumulator, output, sizes);
// otherwise why not, starting with "unsupported: ".
std::string problem_unsupported_reason(const spmma_problem& p);

// Whether a kernel of these types (a, b, accumulator, satfinite) computes problems of p's types.
bool kernel_types_match(spmma_dtype a, spmma_dtype b, spmma_dtype acc, bool satfinite, const spmma_problem& p);
// Empty when they match; otherwise "unsupported: kernel NAME computes ...".
std::string kernel_types_reason(const std::string& name, spmma_dtype a, spmma_dtype b, spmma_dtype acc, bool satfinite,
                                 const spmma_problem& p);

}  // namespace spmma_sm90a

// Which problems the sm100a kernels take: the check the plugin's backend and the emu plugin's
// emulated sm100a kernels share, so both refuse the same problems with the same reasons.
#pragma once

#include <spmma/plugin.h>
#include <spmma_sm100a/kind.hpp>

#include <span>
#include <string>

namespace spmma_sm100a {

// Empty when a kernel of this kind / scale_vec / accumulator computes `p` (types, pattern,
// accumulator, output, scale type and block); otherwise why not, starting with "unsupported: ".
// `depth` (if given) gets how many groups of checks passed: deeper reasons are more specific.
std::string kernel_mismatch(Kind kind, ScaleVec sv, spmma_dtype acc, const spmma_problem& p, int* depth = nullptr);

// What a kernel computes, for kernel_mismatch.
struct KernelKind {
    Kind kind;
    ScaleVec sv;
    spmma_dtype acc;
};
// Empty when one of `kernels` computes `p`; otherwise the reason of the one that got furthest
// through the checks (the most specific), or, when none takes p's types, what sm100a takes.
std::string problem_unsupported_reason(std::span<const KernelKind> kernels, const spmma_problem& p);

}  // namespace spmma_sm100a

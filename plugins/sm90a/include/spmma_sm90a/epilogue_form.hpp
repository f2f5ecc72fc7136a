// Which of the kernels' epilogue forms (Epi in device/sm90a_spgemm.cuh) a problem takes, declared
// once: the kernels call epilogue_form on their FusedEpilogue's fields, the host (its choice of
// stores, the record's words) on the problem, and the tests without a GPU.
#pragma once

#include <spmma/plugin.h>
#include <spmma_sm90a/layout.hpp>  // SPMMA_HD

#include <cstdint>

namespace spmma_sm90a {

// Plain: alpha and beta only. Linear: ABI 1.2's scales and a row bias or none (two instructions an
// element, through TMA stores or directly). General: a column bias or an activation besides (the
// direct stores only).
enum class EpilogueForm { Plain, Linear, General };

SPMMA_HD constexpr EpilogueForm epilogue_form(bool on, int32_t activation, bool bias_per_col) {
    return !on ? EpilogueForm::Plain
               : activation == SPMMA_ACTIVATION_NONE && !bias_per_col ? EpilogueForm::Linear : EpilogueForm::General;
}

inline EpilogueForm epilogue_form(const spmma_problem& p) {
    return epilogue_form(spmma_problem_has_epilogue(&p) != 0, p.activation, p.bias == SPMMA_BIAS_COL);
}

inline const char* epilogue_form_name(EpilogueForm f) {
    switch (f) {
        case EpilogueForm::Plain: return "plain";
        case EpilogueForm::Linear: return "linear";
        case EpilogueForm::General: return "general";
    }
    return "?";
}

}  // namespace spmma_sm90a

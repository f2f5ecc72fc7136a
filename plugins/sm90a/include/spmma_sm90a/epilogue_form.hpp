// Which of the kernels' epilogue forms (Epi in device/sm90a_spgemm.cuh) a problem takes. Pure
// C++ over the problem, so the host's choice of stores and the record's words are tested without
// a GPU; the kernels choose by the same fields (FusedEpilogue::on, bias_per_col, activation).
#pragma once

#include <spmma/plugin.h>

namespace spmma_sm90a {

// Plain: alpha and beta only. Linear: ABI 1.2's scales and a row bias or none (two instructions an
// element, through TMA stores or directly). General: a column bias or an activation besides (the
// direct stores only).
enum class EpilogueForm { Plain, Linear, General };

inline EpilogueForm epilogue_form(const spmma_problem& p) {
    if (!spmma_problem_has_epilogue(&p)) return EpilogueForm::Plain;
    return p.activation == SPMMA_ACTIVATION_NONE && p.bias != SPMMA_BIAS_COL ? EpilogueForm::Linear : EpilogueForm::General;
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

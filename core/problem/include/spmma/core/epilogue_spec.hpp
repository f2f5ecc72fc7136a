// The epilogue as a user writes it -- spmma gemm's --row-scale, --col-scale, --bias and
// --activation, a workload's row_scale, col_scale, bias and activation keys -- read into a
// Problem and written back (records, the rerun command); and the named ops (--op) that preset a
// problem's types and epilogue.
#pragma once

#include <spmma/core/problem.hpp>

#include <optional>
#include <span>
#include <string>

namespace spmma {

// Each part as written; "" when not given.
//   row_scale, col_scale: "random" (drawn from the seed) or a number (every element)
//   bias: "row" or "col", then optionally ",TYPE" (f32 or D's type; D's when absent) and
//         ",VALUE" (every element; drawn from the seed when absent): "col", "row,f32,0.5"
//   activation: none, relu, gelu-tanh, silu
struct EpilogueSpec {
    std::string row_scale, col_scale, bias, activation;
};

// Sets the parts given on p; a value that cannot be read gives its key (row_scale, col_scale,
// bias, activation) and the reason. A bias without a type is left for apply_default_types.
std::optional<Invalid> apply_epilogue_spec(const EpilogueSpec& spec, Problem& p);

// p's epilogue written back in that form ("" for the parts it lacks); reading it back gives the
// same problem.
EpilogueSpec epilogue_spec_of(const Problem& p);

// A named op: the types and epilogue of a kernel as it ships, for `spmma gemm --op NAME`.
struct OpPreset {
    const char* name;
    const char* description;
    const char* a_type;
    const char* b_type;
    const char* out;
    EpilogueSpec epilogue;
};
std::span<const OpPreset> op_presets();
const OpPreset* find_op_preset(const std::string& name);

}  // namespace spmma

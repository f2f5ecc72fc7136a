// `spmma gemm` arguments as given on the command line, and the jobs they describe (sizes are
// lists/ranges; dtype is a list; the product of all of them).
#pragma once

#include <spmma/core/job.hpp>
#include <spmma/core/operand_files.hpp>

#include <map>
#include <string>
#include <vector>

namespace spmma {

struct GemmSpec {
    // The texts given for each problem key (problem_keys.hpp), by the key's name: "m" ->
    // {"1024:8192:*2"}, "dtype" -> {"f16", "bf16"}, "satfinite" -> {"true"}. A key not given
    // keeps its default.
    std::map<std::string, std::vector<std::string>> given;
    // --op: a named preset (op_presets()) of types and epilogue, applied before the keys: the
    // keys given refine it.
    std::string op;
    // --a, --b, --c: operands from files (operand_files.hpp). Not keys of the table: their
    // tensors give the sizes and types the keys leave out.
    std::string a_file, b_file, c_file;
};

// Throws std::invalid_argument naming the option at fault ("--k: k must be a multiple of 4 ...").
// With --a, its tensor gives m and k and (without --dtype or --a-type) the types; with --b, n.
// `probe` reads what the problem needs of each file; without one, a file operand is refused.
std::vector<Job> jobs_from_spec(const GemmSpec& spec, const TensorProbe& probe = {});

}  // namespace spmma

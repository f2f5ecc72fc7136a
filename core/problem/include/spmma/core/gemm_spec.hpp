// `spmma gemm` arguments as given on the command line, and the jobs they describe (sizes are
// lists/ranges; dtype is a list; the product of all of them).
#pragma once

#include <spmma/core/epilogue_spec.hpp>
#include <spmma/core/job.hpp>

#include <string>
#include <vector>

namespace spmma {

struct GemmSpec {
    std::string m, n, k;             // size lists: "4096", "1000,2000", "1024:8192:*2"
    std::vector<std::string> dtypes; // A and B type each
    std::string a_type, b_type, acc, out, pattern, dist = "uniform", verify = "auto", scale_type, scale_gen = "random";
    double scale_min = 0.125, scale_max = 8.0;
    bool satfinite = false;
    double alpha = 1.0, beta = 0.0;
    uint64_t seed = 42;
    int scale_block = 0;             // 0: the type's default (64 for ue8m0, 32 for ue4m3)
    int warmup = 5, iterations = 20;
    EpilogueSpec epilogue;           // --row-scale, --col-scale, --bias, --activation
    std::string op;                  // --op: a named preset (op_presets()); the options above refine it
};

// Throws std::invalid_argument naming the option at fault ("--k: k must be a multiple of 4 ...").
std::vector<Job> jobs_from_spec(const GemmSpec& spec);

}  // namespace spmma

// One unit of work: a problem, how to run and verify it, which plugins/kernels may run it, and
// where it came from (file:line or the command line).
#pragma once

#include <spmma/core/problem.hpp>
#include <spmma/reference/verify.hpp>

#include <string>
#include <vector>

namespace spmma {

struct Job {
    Problem problem;
    int warmup = 5;
    int iterations = 20;
    reference::VerifyMode verify = reference::VerifyMode::Auto;
    std::vector<std::string> plugins; // empty: every plugin
    std::vector<std::string> kernels; // globs; empty: the plugin's own choice
    std::string source;               // "configs/quick.toml:12" or "command line"
};

}  // namespace spmma

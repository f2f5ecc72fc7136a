// One unit of work: a problem, how to run and verify it, which plugins/kernels may run it, and
// where it came from (file:line or the command line).
#pragma once

#include <spmma/core/operand_files.hpp>
#include <spmma/core/problem.hpp>
#include <spmma/reference/verify.hpp>

#include <string>
#include <vector>

namespace spmma {

// How long to time, beyond the job's warm-up and iterations (nvbench's meaning).
struct TimingPolicy {
    double min_time_s = 0;    // --min-time: more launches until the timed work reaches this
    double max_noise = 0;     // --max-noise (fraction): more launches until the median's relative spread is below
    double max_time_s = 10;   // --max-time: no more timed work than this for the two above
    bool flush_l2 = false;    // --flush-l2
};

struct Job {
    Problem problem;
    int warmup = 5;
    int iterations = 20;
    reference::VerifyMode verify = reference::VerifyMode::Auto;
    TimingPolicy timing;
    std::vector<std::string> plugins; // empty: every plugin
    std::vector<std::string> kernels; // globs; empty: the plugin's own choice
    std::string source;               // "configs/quick.toml:12" or "command line"
    // Its place in the sweep (records carry it, spmma merge checks completeness with it).
    int64_t index = 0, count = 1;     // job `index` of `count` in the workload
    std::string shard;                // "I/N" when the run took a shard
    OperandFiles files;               // operands read from files (core/weights); empty: all drawn
};

}  // namespace spmma

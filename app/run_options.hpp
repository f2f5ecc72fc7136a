// The options `run` and `gemm` share (plugins, kernels, timing, verification, outputs), and
// running a list of jobs with them; plus the plugin-folder options every command takes.
#pragma once

#include <spmma/core/job.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace spmma::app {

struct PluginDirOptions {
    std::vector<std::string> plugin_dirs;
    int device = 0;
    void add_to(CLI::App* cmd);
};

struct RunOptions : PluginDirOptions {
    std::vector<std::string> plugins, kernels;
    std::string emulate;
    int warmup = -1, iterations = -1;
    std::string verify, json, csv, baseline, save_operands, save_failures;
    long samples = 4096;
    bool no_progress = false, quiet = false;

    void add_to(CLI::App* cmd);
    // Runs the jobs on the plugins found; the exit code.
    int run(const std::vector<Job>& jobs) const;
};

}  // namespace spmma::app

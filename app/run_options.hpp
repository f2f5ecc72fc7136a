// The options `run` and `gemm` share (plugins, kernels, timing, verification, outputs), and
// running a list of jobs with them; plus the plugin-folder options every command takes.
#pragma once

#include <spmma/core/endpoint.hpp>
#include <spmma/core/job.hpp>
#include <spmma/core/record_lock.hpp>
#include <spmma/core/runner.hpp>

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spmma::app {

struct PluginDirOptions {
    std::vector<std::string> plugin_dirs;
    int device = 0;
    bool in_process = false;
    CLI::Option* device_option_ = nullptr;
    void add_to(CLI::App* cmd);
    std::vector<std::filesystem::path> dirs() const;
    // Every plugin found, each in its worker process (or loaded here with --in-process).
    std::vector<std::unique_ptr<PluginEndpoint>> open() const;
    EndpointOptions endpoint_options() const;
};

struct RunOptions : PluginDirOptions {
    std::vector<std::string> plugins, kernels;
    std::string emulate;
    std::optional<int64_t> warmup, iterations;  // given: checked through the key table
    std::string verify, json, csv, junit, baseline, save_operands, save_failures, shard, devices;
    bool resume = false, force = false;
    long samples = 4096;
    static constexpr long kMaxSamples = 2147483647;
    bool no_progress = false, quiet = false, wide = false;
    double min_time = 0, max_noise = 0, max_time = 10, timeout = 0;
    bool flush_l2 = false;

    void add_to(CLI::App* cmd);
    // Runs the jobs on the plugins found; the exit code. `inputs` are the files the jobs came from
    // (no output may name one).
    int run(const std::vector<Job>& jobs, const std::vector<std::string>& inputs = {}) const;

private:
    std::optional<int> runner_options(RunnerOptions& o) const;
    std::optional<int> open_slots(const RunnerOptions& o, std::vector<DeviceSlot>& slots) const;
    std::optional<int> check_memory(const std::vector<Job>& jobs, const RunnerOptions& o) const;
    std::optional<int> claim_outputs(const std::vector<std::string>& inputs, RunnerOptions& o, std::unique_ptr<RecordFileLock>& lock) const;
    void say_cut_short(const RunSummary& summary) const;
};

}  // namespace spmma::app

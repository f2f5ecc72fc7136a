// The runner: each job x each plugin (x each selected kernel) -> one record. Operands are made
// once per job and the reference once per job, shared by every plugin's verification.
#pragma once

#include <spmma/core/job.hpp>
#include <spmma/core/plugins.hpp>
#include <spmma/core/record.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spmma {

struct RunnerOptions {
    std::vector<std::string> plugins;       // --plugin: replaces each job's list
    std::vector<std::string> kernels;       // --kernel globs: replace each job's
    int device = 0;
    std::optional<int> warmup, iterations;  // override each job's
    std::optional<reference::VerifyMode> verify;
    reference::VerifyOptions verify_options; // samples, threshold (mode comes from the job)
    std::string baseline;                   // plugin whose median each record is compared with
    std::filesystem::path save_operands;    // every run's operands and D as .npy
    std::filesystem::path save_failures;    // failed runs' operands and D as .npy
    std::string plugin_dir;                 // for the reproducing command lines
};

// Receives records as they are made.
class RecordSink {
public:
    virtual ~RecordSink() = default;
    virtual void record(const Record& r) = 0;
    virtual void finish() {}
};

// Progress of a long run (the terminal's progress line).
class Progress {
public:
    virtual ~Progress() = default;
    virtual void start(size_t total_steps) = 0;
    virtual void step(size_t done, const std::string& what) = 0;
    virtual void finish() = 0;
};

struct RunSummary {
    int verified = 0, failed = 0, unverified = 0, errors = 0, skipped = 0;
    // 0 all verified (or unverified by request), 1 a failure or error, 3 nothing ran.
    int exit_code() const;
};

RunSummary run_jobs(const std::vector<Job>& jobs, const std::vector<Plugin>& plugins, const RunnerOptions& options,
                    const std::vector<RecordSink*>& sinks, Progress* progress = nullptr);

// Does `name` match any of the shell-style globs?
bool matches_any(const std::string& name, const std::vector<std::string>& globs);

}  // namespace spmma

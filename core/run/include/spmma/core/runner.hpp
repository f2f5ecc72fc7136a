// The runner: each job x each plugin (x each selected kernel) -> one record. A job's operands
// are generated once into shared memory and read there by every plugin (in its worker process
// or here); the reference is computed once per job, beside the plugins' runs, and a sampled
// check downloads only the elements it reads. Every record says where its time went (phases).
#pragma once

#include <spmma/core/endpoint.hpp>
#include <spmma/core/job.hpp>
#include <spmma/core/record.hpp>
#include <spmma/core/record_sink.hpp>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <map>
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
    std::optional<TimingPolicy> timing;     // --min-time, --max-noise, --max-time, --flush-l2: replace each job's
    double timeout_s = 0;                   // --timeout per plugin call; 0: scaled with the problem
    std::string baseline;                   // plugin whose median each record is compared with
    std::filesystem::path save_operands;    // every run's operands and D as .npy
    std::filesystem::path save_failures;    // failed runs' operands and D as .npy
    std::string plugin_dir;                 // for the reproducing command lines
    std::map<std::string, Record> kept;     // --resume: the records already written, by resume_key()
    // Nonzero once the run is to stop (the signal's number: SIGINT, SIGTERM): no job or plugin
    // run starts after it, and a record made after it (its worker ended) is not written.
    const std::atomic<int>* interrupt = nullptr;
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
    int missing = 0;        // of the errors: plugins asked for by name that are not loaded
    int resumed = 0;        // --resume: records the file already held (counted above too, not run again)
    size_t steps = 0, steps_done = 0;  // plugin steps (a job on one plugin) of the run, and those it reached
    int interrupted = 0;    // the signal that stopped the run, 0 when none did
    std::string output_error;  // the first output that could not be written (the run stopped there)
    double wall_ms = 0;     // run_jobs from start to end
    int devices = 1;        // run_on_devices: how many ran side by side
    Phases phases;          // summed over the records
    double gpu_busy_ms = 0; // the timed launches of GPU records: warm-up launches x median + every timed launch
    int gpu_records = 0;    // records made on a GPU in this run (the GPU's line is said only when one was)
    RunSummary& operator+=(const RunSummary& o);  // counts, phases and GPU time (not the wall time)
    // 0 all verified (or unverified by request), 1 a failure or error (a plugin asked for by name
    // and not loaded included) or an output that could not be written, 3 nothing ran (and
    // nothing failed but missing plugins; records --resume kept count as if made now);
    // 128 + the signal when one interrupted it (130 SIGINT, 143 SIGTERM).
    int exit_code() const;
    // Why the run ended before its last step, for the outputs: "" when it did not.
    std::string cut_short() const;
    // "where the time went": each phase's seconds and share of the wall time, the GPU's share when a GPU ran.
    std::string phase_table(double startup_ms) const;
};

RunSummary run_jobs(const std::vector<Job>& jobs, const std::vector<std::unique_ptr<PluginEndpoint>>& plugins,
                    const RunnerOptions& options, const std::vector<RecordSink*>& sinks, Progress* progress = nullptr);

// The jobs a runner takes next: each once, however many runners (devices) take them, in
// workload order or in the order given (indices into the jobs).
class JobFeed {
public:
    explicit JobFeed(size_t jobs) : jobs_(jobs) {}
    explicit JobFeed(std::vector<size_t> order) : jobs_(order.size()), order_(std::move(order)) {}
    std::optional<size_t> next() {
        if (stopped()) return std::nullopt;
        const size_t i = next_.fetch_add(1);
        if (i >= jobs_) return std::nullopt;
        return order_.empty() ? i : order_[i];
    }
    // No job is handed out after this (an output failed: every runner stops).
    void stop() { stopped_ = true; }
    bool stopped() const { return stopped_; }

private:
    size_t jobs_;
    std::vector<size_t> order_;  // empty: workload order
    std::atomic<size_t> next_{0};
    std::atomic<bool> stopped_{false};
};

// One device and the plugins that run on it (their own worker processes).
struct DeviceSlot {
    int device = 0;
    std::vector<std::unique_ptr<PluginEndpoint>> plugins;
    // When set, `plugins` is opened by this device's runner as the run starts, beside the other
    // devices' first jobs, instead of before the run.
    std::function<std::vector<std::unique_ptr<PluginEndpoint>>()> open;
};

// The order --devices hands out jobs in: the longest first (longest-processing-time scheduling),
// ties in workload order. A job's length is the longer of its device time and its operands'
// generation on the host, which runs behind the job before it. Device time: for each plugin it
// runs on (`plugins`: those the run names; empty: the job's own list, or one), its operand bytes
// uploaded at 20 GB/s and its warm-up and timed launches at 600 TFLOP/s; generation: 1 ns per
// element of A (drawn, pruned, compressed) and a quarter of that per element of B. The rates are
// rough fits to the standard set's records on two H100s (bench/NOTES.md, 2026-11-27): only the
// order they give matters.
std::vector<size_t> longest_first(const std::vector<Job>& jobs, const std::vector<std::string>& plugins);

// --devices: one runner per device, each taking the next job when it is done with its last, so
// problems go out as devices free up, the longest first; every record names its device. The
// sinks and the progress line are shared (one record at a time). One slot is run_jobs on that
// device. Each runner's OpenMP work (operands, the reference) takes host_threads_per_device of
// the host's threads. A slot whose plugins cannot be opened takes no jobs and counts an error.
RunSummary run_on_devices(const std::vector<Job>& jobs, std::vector<DeviceSlot>& slots, const RunnerOptions& options,
                          const std::vector<RecordSink*>& sinks, Progress* progress = nullptr);

// The OpenMP threads each of `devices` runners side by side gets on a host of `host_threads`:
// an equal share, at least 1; 0 (leave OpenMP's own setting) for one device or when the user
// set OMP_NUM_THREADS (`omp_num_threads`: its value, or null when unset).
int host_threads_per_device(int devices, int host_threads, const char* omp_num_threads);

// Does `name` match any of the shell-style globs?
bool matches_any(const std::string& name, const std::vector<std::string>& globs);

// The time limit of each plugin call of a job when --timeout is not given: 60 s plus the job's
// launches ((warm-up + iterations + 1) x 2mnk) at 1 TFLOP/s on a GPU or 1 GFLOP/s on a host
// device, plus --min-time / --max-time.
double default_timeout_s(const Job& job, const TimingPolicy& timing, bool gpu);

}  // namespace spmma

// One result record per (problem, plugin, kernel): self-contained (provenance, problem, timings,
// verdict, the command that reproduces it), written as JSON lines or CSV rows.
#pragma once

#include <spmma/core/job.hpp>
#include <spmma/core/speed_of_light.hpp>
#include <spmma/reference/verify.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace spmma {

enum class RecordStatus {
    Verified,   // ran and D matched the reference
    Failed,     // ran and D did not match
    Unverified, // ran, verification off (--verify none)
    Error,      // a plugin call failed (create, upload, run, download)
    Skipped,    // not run: the reason says why
};
const char* to_string(RecordStatus s);

struct Timing {
    int warmup = 0, iterations = 0;
    std::vector<double> times_ms;
    double median_ms = 0, min_ms = 0, mean_ms = 0;
    double tflops = 0;      // dense-equivalent 2mnk / median
    double tflops_best = 0; // 2mnk / min
    double noise = 0;       // relative half-width of the median's 95 % interval (inf below 6 times)
    bool flush_l2 = false, l2_flushed = false;
    std::string note;       // a target not met, an L2 flush not done
    static Timing from(const std::vector<double>& times, int warmup, double flops);
};

// Where a record's wall time went, in milliseconds. generate: the job's operands (in the first
// record that needed them); prepare: the plugin's create and any packing or algorithm search it
// reports inside upload; upload: the rest of upload (copies); run: warm-up and timed launches;
// download: D or its sampled elements; verify: the reference (first record of a job) and the
// check; other: destroy, process hand-over, a worker's restart.
struct Phases {
    double generate = 0, prepare = 0, upload = 0, run = 0, download = 0, verify = 0, other = 0;
    double total() const { return generate + prepare + upload + run + download + verify + other; }
    Phases& operator+=(const Phases& o);
    nlohmann::json to_json() const;
};

struct Baseline {
    std::string plugin, kernel;
    double median_ms = 0;
    double speedup = 0; // baseline median / this median
};

struct Record {
    std::string spmma_version;
    std::string timestamp;  // UTC, ISO 8601
    std::string host;
    std::string source;     // workload file:line, or "command line"
    std::string command;    // a spmma gemm command line that reruns exactly this
    Job job;
    // Plugin side (empty where no plugin was involved)
    std::string plugin, plugin_version, plugin_vendor, plugin_target, plugin_file;
    uint32_t plugin_abi_major = 0, plugin_abi_minor = 0;
    bool dense = false;     // a dense baseline (A expanded)
    std::string plugin_sha256;
    std::string isolation;  // "worker" or "in-process"
    std::string kernel;
    std::string kernel_request;   // the kernel asked for ("" : the plugin's choice)
    std::vector<std::string> plugins_requested;  // every plugin the job runs on (completeness for merge)
    double generate_ms = 0;                       // how long the job's operands took to make (once, for all its plugins)
    std::string device, device_arch, driver;
    int device_index = 0;
    std::string device_uuid, device_pci_bus_id;
    DevicePeaks device_peaks;     // ABI 1.2: written as device.peaks when the plugin states any

    RecordStatus status = RecordStatus::Skipped;
    std::string reason;     // skipped / error: why; failed: the verdict's summary
    std::string stage;      // error: which call failed
    std::optional<Timing> timing;
    std::optional<reference::Verdict> verdict;
    std::optional<Baseline> baseline;
    std::optional<SpeedOfLight> sol;  // every timed run (speed_of_light.hpp)
    std::optional<Phases> phases;
    nlohmann::json clocks;        // GPU records: clocks, power and throttle reasons over the timed launches
    nlohmann::json plugin_notes;  // the plugin's describe_handle object
    std::string d_transfer;       // "all" (D downloaded) or "elements" (only the checked elements)
    nlohmann::json operand_sources;  // operands read from files: {"a": {file, tensor, sha256, ...}}; null when drawn

    nlohmann::json to_json() const;
    static std::vector<std::string> csv_header();
    std::vector<std::string> csv_row() const;
};

// The JSON forms of a job's problem and run options, as records carry them.
nlohmann::json problem_json(const Job& j);
nlohmann::json run_json(const Job& j);

// What --resume matches: a record of this problem, run options, plugin and kernel request.
std::string resume_key(const nlohmann::json& problem, const nlohmann::json& run, const std::string& plugin, const std::string& kernel_request);
std::string resume_key(const Job& j, const std::string& plugin, const std::string& kernel_request);

// A spmma gemm command line that reruns one job on one plugin/kernel, prefixed by the SPMMA_*
// environment variables set (plugin knobs such as SPMMA_SM90A_RASTER; not the test harness's paths).
std::string reproduce_command(const Job& job, const std::string& plugin, const std::string& kernel,
                              const std::string& plugin_dir);

std::string csv_escape(const std::string& s);
std::string shell_quote(const std::string& s);
std::string utc_timestamp();
std::string host_name();

}  // namespace spmma

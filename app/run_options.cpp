#include "run_options.hpp"

#include "command.hpp"
#include "device_slots.hpp"
#include "interruption.hpp"
#include "output_paths.hpp"

#include <spmma/core/csv_sink.hpp>
#include <spmma/core/json_lines_sink.hpp>
#include <spmma/core/junit_sink.hpp>
#include <spmma/core/memory_check.hpp>
#include <spmma/core/problem_keys.hpp>
#include <spmma/core/record_lock.hpp>
#include <spmma/core/problem_bytes.hpp>
#include <spmma/core/runner.hpp>
#include <spmma/core/sweep.hpp>
#include <spmma/core/table_sink.hpp>
#include <spmma/core/terminal.hpp>
#include <spmma/core/terminal_progress.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <tuple>

namespace spmma::app {

void PluginDirOptions::add_to(CLI::App* cmd) {
    cmd->add_option("--plugin-dir", plugin_dirs,
                    "Also search this folder for plugins (after the installed ones and SPMMA_PLUGIN_PATH: a name already taken is refused)");
    device_option_ = cmd->add_option("--device", device, "Device index as the plugins count them")->capture_default_str();
    cmd->add_flag("--in-process", in_process,
                  "Load the plugins into spmma itself, not into worker processes (for gdb and Nsight; a crashing plugin ends the run)");
}

std::vector<std::filesystem::path> PluginDirOptions::dirs() const { return plugin_search_path(plugin_dirs); }

EndpointOptions PluginDirOptions::endpoint_options() const {
    EndpointOptions o;
    o.in_process = in_process;
    o.worker_exe = executable_dir() / "spmma";
    return o;
}

std::vector<std::unique_ptr<PluginEndpoint>> PluginDirOptions::open() const { return open_plugins(dirs(), endpoint_options()); }

void RunOptions::add_to(CLI::App* cmd) {
    PluginDirOptions::add_to(cmd);
    cmd->add_option("--devices", devices,
                    "Run on several devices of this host: 'all' or indices (0,1,...); one set of plugin workers per device, "
                    "each problem to the next device that is free; every record names its device")
        ->excludes(device_option_);
    cmd->add_option("--plugin,-p", plugins, "Run only these plugins (repeat or comma-separate)")->delimiter(',');
    cmd->add_option("--kernel", kernels, "Run the kernels whose names match these globs (e.g. 'sm90a_*_128x*')")->delimiter(',');
    cmd->add_option("--emulate", emulate,
                    "Run a GPU family's packing and instruction model on the CPU instead (sm80, sm90a, sm100a, "
                    "sm120a): the emu plugin with --kernel 'emu_FAMILY*'");
    // The run keys of problem_keys.hpp; here they override every job's (a workload file's too).
    const auto run_key_help = [](const char* name) {
        const ProblemKey& key = problem_key(name);
        return fmt::format("{} (default {} or the file's)", key.help, key_text(*key.get(Job{})));
    };
    cmd->add_option(problem_key("warmup").flag, warmup, run_key_help("warmup"));
    cmd->add_option(problem_key("iterations").flag, iterations, run_key_help("iterations"));
    cmd->add_option(problem_key("verify").flag, verify, run_key_help("verify"));
    cmd->add_option("--samples", samples, "Sampled verification: about this many elements, where random rows (the first and last among them) meet random columns")
        ->capture_default_str();
    cmd->add_option("--baseline", baseline, "Compare every record with this plugin's time (adds a speedup column)");
    cmd->add_option("--json", json, "Write records as JSON lines to this file ('-': standard output)");
    cmd->add_option("--csv", csv, "Write records as CSV to this file ('-': standard output)");
    cmd->add_option("--junit", junit, "Write records as JUnit XML to this file (one test case per record)");
    cmd->add_flag("--resume", resume,
                  "With --json FILE: keep FILE's records and skip the runs they cover (same problem, plugin, kernel request, run options)");
    cmd->add_flag("--force", force, "Replace an existing --json FILE that holds records (without it, or --resume, the run refuses)");
    cmd->add_option("--shard", shard,
                    "Run shard I of N (I/N, 0-based: jobs I, I+N, ...); default from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT when set");
    cmd->add_option("--save-operands", save_operands, "Write A, B, C, D and the reference D of every run as .npy here");
    cmd->add_option("--save-failures", save_failures, "Write the .npy files of failed verifications here");
    cmd->add_option("--min-time", min_time, "Time launches until at least this many seconds of timed work (more than --iterations when needed)");
    cmd->add_option("--max-noise", max_noise,
                    "Time launches until the median's relative spread (half its 95 % interval, in percent) is below this");
    cmd->add_option("--max-time", max_time, "The most timed work --min-time and --max-noise may ask for, in seconds")->capture_default_str();
    cmd->add_flag("--flush-l2", flush_l2, "Evict the GPU's L2 cache before each timed launch (outside its timing)");
    cmd->add_option("--timeout", timeout,
                    "Seconds each plugin call may take before its worker is stopped (default: 60 s plus the problem's work at a slow rate)");
    cmd->add_flag("--no-progress", no_progress, "No progress line on the terminal");
    cmd->add_flag("-q,--quiet", quiet, "No table (records still go to --json/--csv)");
    cmd->add_flag("--wide", wide,
                  "One table line per record with every cell whole, and each skip reason (default: rows fit the terminal's width, "
                  "COLUMNS or 80)");
}

namespace {

// NOTES: a week of seconds and more is no time limit anyone means, and 1e10 s overflowed the
// clock's nanoseconds into a deadline already past.
constexpr double kMaxSeconds = 1e7;

// A time option (or --max-noise, in percent) that is not a finite number in its range.
std::optional<std::string> seconds_error(const char* flag, double v, bool zero_ok) {
    if (std::isfinite(v) && (zero_ok ? v >= 0 : v > 0) && v <= kMaxSeconds) return std::nullopt;
    return fmt::format("{}: must be a number {} {:g} (got {})", flag, zero_ok ? "from 0 to" : "above 0, at most", kMaxSeconds, v);
}

// An empty entry of a list option: '' matches nothing and would skip everything.
std::optional<std::string> empty_entry(const char* flag, const std::vector<std::string>& items) {
    for (const auto& i : items)
        if (i.empty()) return fmt::format("{}: an empty name or pattern matches nothing", flag);
    return std::nullopt;
}

// --emulate FAMILY: the emu plugin must have kernels of that family ("emu_FAMILY_...").
std::optional<std::string> emulate_error(const std::string& family, const std::vector<std::unique_ptr<PluginEndpoint>>& found) {
    const PluginEndpoint* emu = find_endpoint(found, "emu");
    if (!emu) return std::nullopt;  // the run's records say the plugin is missing
    std::vector<std::string> families;
    for (const auto& k : emu->identity().kernels) {
        const std::string f = k.name.substr(4, k.name.find('_', 4) - 4);
        if (k.name.rfind("emu_", 0) == 0 && std::find(families.begin(), families.end(), f) == families.end()) families.push_back(f);
    }
    if (std::find(families.begin(), families.end(), family) != families.end()) return std::nullopt;
    return fmt::format("--emulate: no GPU family '{}' (the emu plugin has {})", family, fmt::join(families, ", "));
}

}  // namespace

// The runner's options from the command line; an exit code when they are wrong.
std::optional<int> RunOptions::runner_options(RunnerOptions& o) const {
    for (const auto& bad : {empty_entry("--plugin", plugins), empty_entry("--kernel", kernels)})
        if (bad) {
            fmt::print(stderr, "spmma: {}\n", *bad);
            return kExitUsage;
        }
    if (!emulate.empty() && emulate.find_first_of("*?[]") != std::string::npos) {
        fmt::print(stderr, "spmma: --emulate: '{}' is not a GPU family (sm80, sm90a, ...)\n", emulate);
        return kExitUsage;
    }
    if (resume) {
        if (json.empty() || json == "-") {
            fmt::print(stderr, "spmma: --resume needs --json FILE (the records to resume from)\n");
            return kExitUsage;
        }
    }
    if (resume && force) {
        fmt::print(stderr, "spmma: --resume keeps the records of --json FILE and --force replaces them: give one\n");
        return kExitUsage;
    }
    o.plugins = plugins;
    o.kernels = kernels;
    if (!emulate.empty()) {
        if (!plugins.empty() || !kernels.empty()) {
            fmt::print(stderr, "spmma: --emulate chooses the plugin and kernels itself: drop --plugin/--kernel\n");
            return kExitUsage;
        }
        o.plugins = {"emu"};
        o.kernels = {"emu_" + emulate + "*"};
    }
    o.device = device;
    // NOTES: the launch counts go through their keys (the minimum, one message); a negative value
    // is refused, not taken for "not given".
    for (const auto& [key, given] : {std::pair{"warmup", &warmup}, std::pair{"iterations", &iterations}}) {
        if (!*given) continue;
        if (**given > std::numeric_limits<int>::max()) {
            fmt::print(stderr, "spmma: {}: at most {}, not {}\n", problem_key(key).flag, std::numeric_limits<int>::max(), **given);
            return kExitUsage;
        }
        JobDraft checked;
        if (const auto bad = set_key(problem_key(key), checked, KeyValue{**given})) {
            fmt::print(stderr, "spmma: {}: {}\n", problem_key(key).flag, *bad);
            return kExitUsage;
        }
    }
    if (warmup) o.warmup = static_cast<int>(*warmup);
    if (iterations) o.iterations = static_cast<int>(*iterations);
    if (!verify.empty()) {
        JobDraft checked;
        if (const auto bad = set_key(problem_key("verify"), checked, KeyValue{verify})) {
            fmt::print(stderr, "spmma: --verify: {}\n", *bad);
            return kExitUsage;
        }
        o.verify = checked.job.verify;
    }
    // NOTES: more samples than 2^31 is no sample (full verification does that); a larger count
    // once overflowed inside the sampler and checked a single element.
    if (samples < 1 || samples > kMaxSamples) {
        fmt::print(stderr, "spmma: --samples must be from 1 to {} (got {}); --verify full checks every element\n", kMaxSamples, samples);
        return kExitUsage;
    }
    o.verify_options.samples = samples;
    for (const auto& [flag, value, zero_ok] : {std::tuple{"--min-time", min_time, true}, std::tuple{"--max-noise", max_noise, true},
                                               std::tuple{"--max-time", max_time, false}, std::tuple{"--timeout", timeout, true}})
        if (auto bad = seconds_error(flag, value, zero_ok)) {
            fmt::print(stderr, "spmma: {}\n", *bad);
            return kExitUsage;
        }
    if (min_time > 0 || max_noise > 0 || flush_l2 || max_time != TimingPolicy{}.max_time_s)
        o.timing = TimingPolicy{min_time, max_noise / 100.0, max_time, flush_l2};
    o.timeout_s = timeout;
    o.baseline = baseline;
    o.save_operands = save_operands;
    o.save_failures = save_failures;
    if (!plugin_dirs.empty()) o.plugin_dir = plugin_dirs.front();
    return std::nullopt;
}

// The devices of the run, each with its plugins: --device, or --devices (one plugin set each).
std::optional<int> RunOptions::open_slots(const RunnerOptions& o, std::vector<DeviceSlot>& slots) const {
    auto found = open();
    for (const auto& p : found)
        if (!p->identity().usable()) fmt::print(stderr, "spmma: plugin {}: {}\n", p->identity().file.string(), p->identity().error);
    if (!o.baseline.empty() && !find_endpoint(found, o.baseline)) {
        fmt::print(stderr, "spmma: --baseline: no plugin named '{}' is loaded\n", o.baseline);
        return kExitUsage;
    }
    if (!emulate.empty())
        if (auto bad = emulate_error(emulate, found)) {
            fmt::print(stderr, "spmma: {}\n", *bad);
            return kExitUsage;
        }
    if (devices.empty() && device != 0)
        if (auto bad = device_error(device, found, o.plugins)) {
            fmt::print(stderr, "spmma: --device: {}\n", *bad);
            return kExitUsage;
        }
    std::vector<int> ids{device};
    if (!devices.empty()) {
        try {
            ids = parse_devices(devices, found, o.plugins);
        } catch (const std::invalid_argument& e) {
            fmt::print(stderr, "spmma: --devices: {}\n", e.what());
            return kExitUsage;
        }
        if (ids.size() > 1 && in_process) {
            fmt::print(stderr, "spmma: --devices with more than one device runs the plugins in worker processes: drop --in-process\n");
            return kExitUsage;
        }
    }
    std::vector<std::filesystem::path> used;  // what the other devices load: the plugins to run and the baseline
    auto runs = [&](const std::string& name) {
        return o.plugins.empty() || name == o.baseline || std::find(o.plugins.begin(), o.plugins.end(), name) != o.plugins.end();
    };
    // NOTES: every plugin file is loaded (its name and duplicates are known only then); the
    // workers of plugins the run does not use end right away.
    for (const auto& p : found)
        if (p->identity().usable() && runs(p->identity().name)) used.push_back(p->identity().file);
        else p->close_requests();
    for (const auto& p : found)
        if (!p->identity().usable() || !runs(p->identity().name)) p->restart();
    slots = device_slots(ids, std::move(found), [used, eo = endpoint_options()] { return open_plugin_files(used, eo); });
    return std::nullopt;
}

// The run's peak host memory against what the machine has, before anything is allocated.
std::optional<int> RunOptions::check_memory(const std::vector<Job>& jobs, const RunnerOptions& o) const {
    const HostMemory host = host_memory();
    if (host.available <= 0) return std::nullopt;  // cannot tell: the allocation itself reports it
    std::vector<Job> run = jobs;
    if (o.verify)
        for (Job& j : run) j.verify = *o.verify;
    const auto short_of = exceeds_memory(run, o.verify_options, host.available);
    if (!short_of) return std::nullopt;
    const Job& j = run[short_of->job];
    fmt::print(stderr, "spmma: {}: {} needs {} of host memory ({}); this machine has {} available ({})\n",
               j.source == "command line" ? "--m/--n/--k" : j.source, j.problem.label(),
               short_of->needed == INT64_MAX ? "more than 2^63 bytes" : format_bytes(static_cast<double>(short_of->needed)), short_of->what,
               format_bytes(static_cast<double>(host.available)), host.source);
    return kExitUsage;
}

// The outputs: none names an input or another output, an existing record file is kept unless
// --resume or --force says what to do with it, and the --json file has one writer (the lock
// taken here); --resume's records are read once the lock is held.
std::optional<int> RunOptions::claim_outputs(const std::vector<std::string>& inputs, RunnerOptions& o,
                                             std::unique_ptr<RecordFileLock>& lock) const {
    std::vector<NamedPath> in;
    for (const auto& i : inputs) in.push_back({"the workload", i});
    std::optional<std::string> bad = same_file(in, {{"--json", json}, {"--csv", csv}, {"--junit", junit}});
    if (!bad && !resume && !force) bad = would_replace({"--json", json}, "--resume");
    if (bad) {
        fmt::print(stderr, "spmma: {}\n", *bad);
        return kExitUsage;
    }
    try {
        if (!json.empty()) lock = std::make_unique<RecordFileLock>(json, command_line());
        if (!resume) return std::nullopt;
        ResumeScan scan = scan_for_resume(json);
        if (!scan.note.empty()) fmt::print(stderr, "spmma: {}\n", scan.note);
        if (scan.records)
            fmt::print(stderr, "spmma: --resume: {} records in {} are kept (counted and reported as if made now); their runs are skipped\n",
                       scan.records, json);
        o.kept = std::move(scan.kept);
    } catch (const std::exception& e) {
        fmt::print(stderr, "spmma: {}\n", e.what());
        return kExitUsage;
    }
    return std::nullopt;
}

// How the run ended when it ended early: one line, and how to go on.
void RunOptions::say_cut_short(const RunSummary& summary) const {
    const std::string why = summary.cut_short();
    if (why.empty()) return;
    if (!summary.interrupted) {
        fmt::print(stderr, "spmma: {}\n", why);
        return;
    }
    std::string again = command_line();
    if (!resume) again += " --resume";
    fmt::print(stderr, "spmma: {}; {}\n", why.substr(0, why.find(" (rerun")),
               json.empty() || json == "-" ? "no --json file kept its records: give --json FILE to make a run resumable"
                                           : "resume with: " + again);
}

int RunOptions::run(const std::vector<Job>& all_jobs, const std::vector<std::string>& inputs) const {
    std::vector<Job> jobs;
    std::optional<Shard> sh;
    try {
        sh = shard.empty() ? shard_from_slurm() : std::optional<Shard>(parse_shard(shard));
        jobs = number_and_shard(all_jobs, sh);
    } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "spmma: {}{}\n", shard.empty() ? "" : "--shard: ", e.what());
        return kExitUsage;
    }
    RunnerOptions o;
    if (auto rc = runner_options(o)) return *rc;
    if (auto rc = check_memory(jobs, o)) return *rc;
    std::unique_ptr<RecordFileLock> lock;
    if (auto rc = claim_outputs(inputs, o, lock)) return *rc;
    const Interruption interruption;
    o.interrupt = &interruption.signal();
    const auto t_start = std::chrono::steady_clock::now();
    std::vector<DeviceSlot> slots;
    if (auto rc = open_slots(o, slots)) return *rc;

    std::vector<std::unique_ptr<RecordSink>> owned;
    const bool stdout_taken = json == "-" || csv == "-";
    try {
        if (!json.empty()) owned.push_back(std::make_unique<JsonLinesSink>(json, resume));
        if (!junit.empty()) owned.push_back(std::make_unique<JunitSink>(junit));
        if (!csv.empty()) owned.push_back(std::make_unique<CsvSink>(csv));
    } catch (const std::exception& e) {
        fmt::print(stderr, "spmma: {}\n", e.what());
        return kExitUsage;
    }
    FILE* table = stdout_taken ? stderr : stdout;
    if (!quiet) owned.push_back(std::make_unique<TableSink>(table, !o.baseline.empty(), TableStyle{wide, terminal_columns(table), colour_on(table)}));
    std::vector<RecordSink*> sinks;
    for (auto& s : owned) sinks.push_back(s.get());
    std::unique_ptr<TerminalProgress> progress;
    if (!no_progress && isatty(STDERR_FILENO)) progress = std::make_unique<TerminalProgress>(stderr);

    const double startup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_start).count();
    const RunSummary summary = spmma::run_on_devices(jobs, slots, o, sinks, progress.get());
    for (const DeviceSlot& s : slots) close_requests(s.plugins);
    if (!quiet) fmt::print(stdout_taken ? stderr : stdout, "\n{}", summary.phase_table(startup_ms));
    say_cut_short(summary);
    // NOTES: a job array larger than the workload has shards with no jobs; each still leaves its
    // (empty) --json file for merge, and succeeds.
    if (sh && jobs.empty()) {
        fmt::print(stderr, "spmma: shard {} of a workload of {} jobs has no jobs\n", sh->text(), all_jobs.size());
        return 0;
    }
    return summary.exit_code();
}

}  // namespace spmma::app

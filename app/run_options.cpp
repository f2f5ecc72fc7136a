#include "run_options.hpp"

#include "command.hpp"

#include <spmma/core/report.hpp>
#include <spmma/core/runner.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <memory>

namespace spmma::app {

void PluginDirOptions::add_to(CLI::App* cmd) {
    cmd->add_option("--plugin-dir", plugin_dirs, "Also search this folder for plugins (first); SPMMA_PLUGIN_PATH too");
    cmd->add_option("--device", device, "Device index as the plugins count them")->capture_default_str();
}

void RunOptions::add_to(CLI::App* cmd) {
    PluginDirOptions::add_to(cmd);
    cmd->add_option("--plugin,-p", plugins, "Run only these plugins (repeat or comma-separate)")->delimiter(',');
    cmd->add_option("--kernel", kernels, "Run the kernels whose names match these globs (e.g. 'sm90a_*_128x*')")->delimiter(',');
    cmd->add_option("--emulate", emulate,
                    "Run a GPU family's packing and instruction model on the CPU instead (sm80, sm90a, sm100a, "
                    "sm120a): the emu plugin with --kernel 'emu_FAMILY*'");
    cmd->add_option("--warmup", warmup, "Untimed launches before timing (default 5 or the file's)");
    cmd->add_option("--iterations", iterations, "Timed launches (default 20 or the file's)");
    cmd->add_option("--verify", verify, "full, sampled, auto (full below a size) or none");
    cmd->add_option("--samples", samples, "Sampled verification: random elements checked (plus 2 rows, 2 columns)")
        ->capture_default_str();
    cmd->add_option("--baseline", baseline, "Compare every record with this plugin's time (adds a speedup column)");
    cmd->add_option("--json", json, "Write records as JSON lines to this file ('-': standard output)");
    cmd->add_option("--csv", csv, "Write records as CSV to this file ('-': standard output)");
    cmd->add_option("--save-operands", save_operands, "Write A, B, C, D and the reference D of every run as .npy here");
    cmd->add_option("--save-failures", save_failures, "Write the .npy files of failed verifications here");
    cmd->add_flag("--no-progress", no_progress, "No progress line on the terminal");
    cmd->add_flag("-q,--quiet", quiet, "No table (records still go to --json/--csv)");
}

int RunOptions::run(const std::vector<Job>& jobs) const {
    RunnerOptions o;
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
    if (warmup >= 0) o.warmup = warmup;
    if (iterations >= 0) o.iterations = iterations;
    if (!verify.empty()) {
        reference::VerifyMode m;
        if (!reference::parse_verify_mode(verify, m)) {
            fmt::print(stderr, "spmma: --verify: unknown mode '{}' (full, sampled, auto, none)\n", verify);
            return kExitUsage;
        }
        o.verify = m;
    }
    if (samples < 1) {
        fmt::print(stderr, "spmma: --samples must be 1 or more\n");
        return kExitUsage;
    }
    o.verify_options.samples = samples;
    o.baseline = baseline;
    o.save_operands = save_operands;
    o.save_failures = save_failures;
    if (!plugin_dirs.empty()) o.plugin_dir = plugin_dirs.front();

    const auto dirs = plugin_search_path(plugin_dirs);
    const auto found = load_plugins(dirs);
    for (const auto& p : found)
        if (!p.usable() && p.state != PluginState::Shadowed) fmt::print(stderr, "spmma: plugin {}: {}\n", p.file.string(), p.error);
    if (!o.baseline.empty() && !find_plugin(found, o.baseline)) {
        fmt::print(stderr, "spmma: --baseline: no plugin named '{}' is loaded\n", o.baseline);
        return kExitUsage;
    }

    std::vector<std::unique_ptr<RecordSink>> owned;
    const bool stdout_taken = json == "-" || csv == "-";
    try {
        if (!json.empty()) owned.push_back(std::make_unique<JsonLinesSink>(json));
        if (!csv.empty()) owned.push_back(std::make_unique<CsvSink>(csv));
    } catch (const std::exception& e) {
        fmt::print(stderr, "spmma: {}\n", e.what());
        return kExitUsage;
    }
    if (!quiet) owned.push_back(std::make_unique<TableSink>(stdout_taken ? stderr : stdout, !o.baseline.empty()));
    std::vector<RecordSink*> sinks;
    for (auto& s : owned) sinks.push_back(s.get());
    std::unique_ptr<TerminalProgress> progress;
    if (!no_progress && isatty(STDERR_FILENO)) progress = std::make_unique<TerminalProgress>(stderr);

    const RunSummary summary = spmma::run_jobs(jobs, found, o, sinks, progress.get());
    return summary.exit_code();
}

}  // namespace spmma::app

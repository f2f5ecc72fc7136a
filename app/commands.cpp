#include "commands.hpp"

#include <spmma/core/compare.hpp>
#include <spmma/core/inventory.hpp>
#include <spmma/core/report.hpp>
#include <spmma/core/runner.hpp>
#include <spmma/core/workload.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <iostream>
#include <memory>

namespace spmma::app {

Commands::Commands(CLI::App& app) : app_(app) {
    run_ = app.add_subcommand("run", "Run the problems of a workload file (TOML) on every plugin that can");
    run_->add_option("file", workload_, "Workload file (see configs/)")->required()->check(CLI::ExistingFile);
    add_common(run_, run_opts_, true);

    gemm_ = app.add_subcommand("gemm", "Run one-off problems given on the command line");
    auto& g = gemm_spec_;
    gemm_->add_option("--m", g.m, "Rows of A and D: 4096, 1000,2000, 1024:8192:1024 or 256:8192:*2")->required();
    gemm_->add_option("--n", g.n, "Columns of B and D (list or range)")->required();
    gemm_->add_option("--k", g.k, "Inner dimension (list or range)")->required();
    gemm_->add_option("--dtype", g.dtypes, "A and B type, a list runs each: f16,bf16,tf32,e4m3,e5m2,e3m2,e2m3,e2m1,s8,u8,s4,u4")
        ->delimiter(',');
    gemm_->add_option("--a-type", g.a_type, "A type (overrides --dtype for A)");
    gemm_->add_option("--b-type", g.b_type, "B type (overrides --dtype for B)");
    gemm_->add_option("--acc", g.acc, "Accumulator: f32, f16 or s32 (default from the type)");
    gemm_->add_option("--out", g.out, "D (and C) type: f32, f16, bf16 or s32 (default from the type)");
    gemm_->add_option("--pattern", g.pattern, "Sparsity of A: 2:4, 1:2, 4:8 (default from the type)");
    gemm_->add_flag("--satfinite", g.satfinite, "Saturate the s32 accumulation (.satfinite)");
    gemm_->add_option("--alpha", g.alpha, "D = alpha*A*B + beta*C")->capture_default_str();
    gemm_->add_option("--beta", g.beta, "D = alpha*A*B + beta*C (0: C is not read)")->capture_default_str();
    gemm_->add_option("--dist", g.dist, "Operand values: int (small integers, exact), uniform, normal")->capture_default_str();
    gemm_->add_option("--seed", g.seed, "Seed of the operand generator")->capture_default_str();
    gemm_->add_option("--scale-type", g.scale_type, "Block scales: ue8m0 or ue4m3 (none when absent)");
    gemm_->add_option("--scale-block", g.scale_block, "k elements per block scale: 16, 32 or 64 (default 64 for ue8m0, 32 for ue4m3)");
    gemm_->add_option("--scale-gen", g.scale_gen, "Block scales: random (in --scale-min..--scale-max) or amax (from real-valued operands)")
        ->capture_default_str();
    gemm_->add_option("--scale-min", g.scale_min, "Smallest random block scale")->capture_default_str();
    gemm_->add_option("--scale-max", g.scale_max, "Largest random block scale")->capture_default_str();
    add_common(gemm_, gemm_opts_, true);

    plugins_ = app.add_subcommand("plugins", "List every plugin found, its state, and why it cannot run here if it cannot");
    plugins_->add_flag("-v,--verbose", verbose_, "File, ABI version, target, kernels");
    plugins_->add_flag("--json", plugins_json_, "Machine-readable output");
    add_common(plugins_, plugins_opts_, false);

    devices_ = app.add_subcommand("devices", "List the devices the plugins see");
    add_common(devices_, devices_opts_, false);

    compare_ = app.add_subcommand("compare", "Compare two record files (--json output): exit 1 on a regression");
    compare_->add_option("old", compare_old_, "Records of the reference run")->required()->check(CLI::ExistingFile);
    compare_->add_option("new", compare_new_, "Records of the run under test")->required()->check(CLI::ExistingFile);
    compare_->add_option("--max-slowdown", max_slowdown_, "Allowed slowdown of a matched record, in percent")->capture_default_str();
}

void Commands::add_common(CLI::App* cmd, Common& c, bool run_options) {
    cmd->add_option("--plugin-dir", c.plugin_dirs, "Also search this folder for plugins (first); SPMMA_PLUGIN_PATH too");
    cmd->add_option("--device", c.device, "Device index as the plugins count them")->capture_default_str();
    if (!run_options) return;
    cmd->add_option("--plugin,-p", c.plugins, "Run only these plugins (repeat or comma-separate)")->delimiter(',');
    cmd->add_option("--kernel", c.kernels, "Run the kernels whose names match these globs (e.g. 'sm90a_*_128x*')")->delimiter(',');
    cmd->add_option("--emulate", c.emulate,
                    "Run a GPU family's packing and instruction model on the CPU instead (sm80, sm120a): "
                    "the emu plugin with --kernel 'emu_FAMILY*'");
    cmd->add_option("--warmup", c.warmup, "Untimed launches before timing (default 5 or the file's)");
    cmd->add_option("--iterations", c.iterations, "Timed launches (default 20 or the file's)");
    cmd->add_option("--verify", c.verify, "full, sampled, auto (full below a size) or none");
    cmd->add_option("--samples", c.samples, "Sampled verification: random elements checked (plus 2 rows, 2 columns)")
        ->capture_default_str();
    cmd->add_option("--baseline", c.baseline, "Compare every record with this plugin's time (adds a speedup column)");
    cmd->add_option("--json", c.json, "Write records as JSON lines to this file ('-': standard output)");
    cmd->add_option("--csv", c.csv, "Write records as CSV to this file ('-': standard output)");
    cmd->add_option("--save-operands", c.save_operands, "Write A, B, C, D and the reference D of every run as .npy here");
    cmd->add_option("--save-failures", c.save_failures, "Write the .npy files of failed verifications here");
    cmd->add_flag("--no-progress", c.no_progress, "No progress line on the terminal");
    cmd->add_flag("-q,--quiet", c.quiet, "No table (records still go to --json/--csv)");
}

int Commands::execute() {
    if (run_->parsed()) {
        std::vector<Job> jobs;
        try {
            jobs = load_workload(workload_);
        } catch (const WorkloadError& e) {
            fmt::print(stderr, "spmma: {}\n", e.what());
            return kExitUsage;
        }
        return run_jobs_command(jobs, run_opts_);
    }
    if (gemm_->parsed()) {
        GemmSpec spec = gemm_spec_;
        if (gemm_opts_.warmup >= 0) spec.warmup = gemm_opts_.warmup;
        if (gemm_opts_.iterations >= 0) spec.iterations = gemm_opts_.iterations;
        if (!gemm_opts_.verify.empty()) spec.verify = gemm_opts_.verify;
        std::vector<Job> jobs;
        try {
            jobs = jobs_from_spec(spec);
        } catch (const std::invalid_argument& e) {
            fmt::print(stderr, "spmma gemm: {}\n", e.what());
            return kExitUsage;
        }
        return run_jobs_command(jobs, gemm_opts_);
    }
    if (plugins_->parsed()) return plugins_command();
    if (compare_->parsed()) return compare_command();
    return devices_command();
}

int Commands::run_jobs_command(const std::vector<Job>& jobs, const Common& c) {
    RunnerOptions o;
    o.plugins = c.plugins;
    o.kernels = c.kernels;
    if (!c.emulate.empty()) {
        if (!c.plugins.empty() || !c.kernels.empty()) {
            fmt::print(stderr, "spmma: --emulate chooses the plugin and kernels itself: drop --plugin/--kernel\n");
            return kExitUsage;
        }
        o.plugins = {"emu"};
        o.kernels = {"emu_" + c.emulate + "*"};
    }
    o.device = c.device;
    if (c.warmup >= 0) o.warmup = c.warmup;
    if (c.iterations >= 0) o.iterations = c.iterations;
    if (!c.verify.empty()) {
        reference::VerifyMode m;
        if (!reference::parse_verify_mode(c.verify, m)) {
            fmt::print(stderr, "spmma: --verify: unknown mode '{}' (full, sampled, auto, none)\n", c.verify);
            return kExitUsage;
        }
        o.verify = m;
    }
    if (c.samples < 1) {
        fmt::print(stderr, "spmma: --samples must be 1 or more\n");
        return kExitUsage;
    }
    o.verify_options.samples = c.samples;
    o.baseline = c.baseline;
    o.save_operands = c.save_operands;
    o.save_failures = c.save_failures;
    if (!c.plugin_dirs.empty()) o.plugin_dir = c.plugin_dirs.front();

    const auto dirs = plugin_search_path(c.plugin_dirs);
    const auto plugins = load_plugins(dirs);
    for (const auto& p : plugins)
        if (!p.usable() && p.state != PluginState::Shadowed) fmt::print(stderr, "spmma: plugin {}: {}\n", p.file.string(), p.error);
    if (!o.baseline.empty() && !find_plugin(plugins, o.baseline)) {
        fmt::print(stderr, "spmma: --baseline: no plugin named '{}' is loaded\n", o.baseline);
        return kExitUsage;
    }

    std::vector<std::unique_ptr<RecordSink>> owned;
    const bool stdout_taken = c.json == "-" || c.csv == "-";
    try {
        if (!c.json.empty()) owned.push_back(std::make_unique<JsonLinesSink>(c.json));
        if (!c.csv.empty()) owned.push_back(std::make_unique<CsvSink>(c.csv));
    } catch (const std::exception& e) {
        fmt::print(stderr, "spmma: {}\n", e.what());
        return kExitUsage;
    }
    if (!c.quiet) owned.push_back(std::make_unique<TableSink>(stdout_taken ? stderr : stdout, !o.baseline.empty()));
    std::vector<RecordSink*> sinks;
    for (auto& s : owned) sinks.push_back(s.get());
    std::unique_ptr<TerminalProgress> progress;
    if (!c.no_progress && isatty(STDERR_FILENO)) progress = std::make_unique<TerminalProgress>(stderr);

    const RunSummary summary = spmma::run_jobs(jobs, plugins, o, sinks, progress.get());
    return summary.exit_code();
}

int Commands::plugins_command() {
    const auto dirs = plugin_search_path(plugins_opts_.plugin_dirs);
    const auto plugins = load_plugins(dirs);
    if (plugins_json_)
        std::cout << plugins_json(plugins, dirs, plugins_opts_.device).dump(2) << '\n';
    else
        std::cout << describe_plugins(plugins, dirs, plugins_opts_.device, verbose_);
    return plugins.empty() ? 3 : 0;
}

int Commands::compare_command() {
    try {
        const CompareResult r = compare_records(compare_old_, compare_new_, max_slowdown_ / 100.0);
        std::cout << format_compare(r, max_slowdown_ / 100.0);
        if (r.rows.empty()) return 3;
        return r.regressions ? 1 : 0;
    } catch (const std::runtime_error& e) {
        fmt::print(stderr, "spmma compare: {}\n", e.what());
        return kExitUsage;
    }
}

int Commands::devices_command() {
    const auto plugins = load_plugins(plugin_search_path(devices_opts_.plugin_dirs));
    std::cout << describe_devices(plugins);
    return 0;
}

}  // namespace spmma::app

// spmma check-plugin FILE.so: the conformance suite a vendor runs before shipping a plugin.
// Exit codes: 0 nothing failed (skips do not fail), 1 a check failed, 2 bad usage.
#include "command.hpp"

#include <spmma/core/conformance.hpp>
#include <spmma/core/plugins.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

namespace spmma::app {
namespace {

class CheckPluginCommand final : public Command {
public:
    explicit CheckPluginCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("check-plugin", "Run the conformance checks on one plugin file (each in a worker process); exit 0 when none fails");
        cmd_->add_option("file", file_, "The plugin (a shared library)")->required();
        cmd_->add_option("--device", device_, "Device index as the plugin counts them")->capture_default_str();
        cmd_->add_option("--timeout", timeout_, "Seconds one plugin call may take before its worker is stopped and the check fails")
            ->capture_default_str();
        cmd_->add_option("--json", json_, "Write the results as one JSON object to this file ('-': standard output)");
    }
    CLI::App* subcommand() const override { return cmd_; }

    int execute() override {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file_, ec)) {
            fmt::print(stderr, "spmma check-plugin: {}: no such file\n", file_);
            return kExitUsage;
        }
        if (!(timeout_ > 0)) {
            fmt::print(stderr, "spmma check-plugin: --timeout must be positive (got {})\n", timeout_);
            return kExitUsage;
        }
        conformance::SuiteOptions o;
        o.file = std::filesystem::absolute(file_);
        o.device = device_;
        o.timeout_s = timeout_;
        o.worker_exe = executable_dir() / "spmma";
        o.installed_dir = plugin_search_path({}, true).front();
        // NOTES: with --json - the table goes to stderr, so standard output is the JSON alone.
        FILE* table = json_ == "-" ? stderr : stdout;
        fmt::print(table, "checking {} (device {})\n", o.file.string(), device_);
        fmt::print(table, "{}", conformance::format_header());
        std::fflush(table);
        const auto report = conformance::check_plugin(o, [&](const conformance::CheckResult& r) {
            fmt::print(table, "{}", conformance::format_row(r));
            std::fflush(table);
        });
        int counts[3] = {0, 0, 0};
        for (const auto& c : report.checks) ++counts[static_cast<int>(c.result)];
        fmt::print(table, "{} passed, {} failed, {} skipped\n", counts[0], counts[1], counts[2]);
        if (!json_.empty()) {
            const std::string text = report.to_json().dump(2) + "\n";
            if (json_ == "-") {
                fmt::print("{}", text);
            } else if (!(std::ofstream(json_) << text)) {
                fmt::print(stderr, "spmma check-plugin: cannot write {}\n", json_);
                return kExitUsage;
            }
        }
        return report.passed() ? 0 : 1;
    }

private:
    CLI::App* cmd_;
    std::string file_, json_;
    int device_ = 0;
    double timeout_ = 60;
};

}  // namespace

std::unique_ptr<Command> make_check_plugin_command(CLI::App& app) { return std::make_unique<CheckPluginCommand>(app); }

}  // namespace spmma::app

// spmma compare OLD NEW: two record files -> a verdict per matched record and an exit code.
#include "command.hpp"

#include <spmma/core/compare.hpp>

#include <fmt/format.h>

#include <iostream>
#include <stdexcept>

namespace spmma::app {
namespace {

class CompareCommand final : public Command {
public:
    explicit CompareCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("compare", "Compare two record files (--json output): exit 1 on a regression");
        cmd_->add_option("old", old_, "Records of the reference run")->required()->check(CLI::ExistingFile);
        cmd_->add_option("new", new_, "Records of the run under test")->required()->check(CLI::ExistingFile);
        cmd_->add_option("--max-slowdown", max_slowdown_, "Allowed slowdown of a matched record, in percent")->capture_default_str();
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        try {
            const CompareResult r = compare_records(old_, new_, max_slowdown_ / 100.0);
            std::cout << format_compare(r, max_slowdown_ / 100.0);
            if (r.rows.empty()) return 3;
            return r.regressions ? 1 : 0;
        } catch (const std::runtime_error& e) {
            fmt::print(stderr, "spmma compare: {}\n", e.what());
            return kExitUsage;
        }
    }

private:
    CLI::App* cmd_;
    std::string old_, new_;
    double max_slowdown_ = 5.0;
};

}  // namespace

std::unique_ptr<Command> make_compare_command(CLI::App& app) { return std::make_unique<CompareCommand>(app); }

}  // namespace spmma::app

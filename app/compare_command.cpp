// spmma compare OLD NEW: two record files -> a verdict per matched record and an exit code
// (0 nothing regressed, 1 a regression or failure, 2 bad usage or an unreadable file, 3 nothing
// matched). The statistics and the rules are in core (compare.hpp, timing_stats.hpp).
#include "command.hpp"
#include "output_paths.hpp"

#include <spmma/core/compare.hpp>
#include <spmma/core/durable_file.hpp>
#include <spmma/core/terminal.hpp>

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <stdexcept>

namespace spmma::app {
namespace {

class CompareCommand final : public Command {
public:
    explicit CompareCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("compare", "Compare two record files (--json output) of the same workload: exit 1 on a regression");
        cmd_->add_option("old", old_, "Records of the reference run")->required();
        cmd_->add_option("new", new_, "Records of the run under test")->required();
        cmd_->add_option("--confidence", confidence_, "Confidence level of the interval of each ratio new/old (0.5 to 0.999999)")
            ->capture_default_str()
            ->check(CLI::Range(0.5, 0.999999));
        cmd_->add_option("--threshold,--max-slowdown", threshold_,
                         "Smallest change in percent that counts: within it a record is \"same\"")
            ->capture_default_str()
            ->check(CLI::Range(0.0, 1000.0));
        cmd_->add_flag("--per-clock", per_clock_,
                       "Judge work per clock where both records carry their SM clock: a slowdown that is only a lower clock "
                       "(same cycles) is no regression");
        cmd_->add_option("--markdown", markdown_, "Also write the comparison as Markdown to this file");
        cmd_->add_option("--junit", junit_, "Also write JUnit XML (one test case per record) to this file");
        cmd_->footer(
            "Verdicts: slower / faster when the whole interval of new/old lies beyond +-threshold, same when it lies within, too "
            "noisy when it reaches across. Where both records carry their SM clock (GPU records), the work per clock (new/old time x "
            "new/old clock) is judged too and a slowdown that is only a lower clock says so; --per-clock makes that verdict the "
            "gate's. A record that verified and now fails, errs or is skipped is a regression; one that "
            "still fails is a failure, as is a record of the new run without iteration times. Exit codes: 0 no regression, 1 a "
            "regression or failure (or an output that could not be written), 2 bad usage or an unreadable file, 3 nothing matched.");
    }
    CLI::App* subcommand() const override { return cmd_; }

    int execute() override {
        // NOTES: CLI11's Range lets NaN through (no comparison with NaN is true).
        for (const auto& [flag, v] : {std::pair{"--confidence", confidence_}, std::pair{"--threshold", threshold_}})
            if (!std::isfinite(v)) {
                fmt::print(stderr, "spmma compare: {}: must be a finite number (got {})\n", flag, v);
                return kExitUsage;
            }
        if (auto bad = same_file({{"OLD", old_}, {"NEW", new_}}, {{"--markdown", markdown_}, {"--junit", junit_}})) {
            fmt::print(stderr, "spmma compare: {}\n", *bad);
            return kExitUsage;
        }
        CompareResult r;
        try {
            r = compare_files(old_, new_, CompareOptions{confidence_, threshold_ / 100.0, per_clock_});
        } catch (const RecordFileError& e) {
            fmt::print(stderr, "spmma compare: {}\n", e.what());
            return kExitUsage;
        }
        std::cout << format_compare_table(r, colour_on(stdout)) << std::flush;
        try {
            if (!markdown_.empty()) write_file_durably(markdown_, format_compare_markdown(r));
            if (!junit_.empty()) write_junit(junit_, "spmma compare", compare_junit(r));
        } catch (const OutputError& e) {
            fmt::print(stderr, "spmma compare: {}\n", e.what());
            return 1;
        }
        if (r.rows.empty()) fmt::print(stderr, "spmma compare: no record of {} matches one of {}\n", new_, old_);
        return r.exit_code();
    }

private:
    CLI::App* cmd_;
    std::string old_, new_, markdown_, junit_;
    double confidence_ = 0.99;
    double threshold_ = 5.0;
    bool per_clock_ = false;
};

}  // namespace

std::unique_ptr<Command> make_compare_command(CLI::App& app) { return std::make_unique<CompareCommand>(app); }

}  // namespace spmma::app

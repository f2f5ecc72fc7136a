// spmma report FILE -o report.html: one run's records -> one self-contained HTML page (charts of
// throughput and speedup, failures, a summary).
// spmma report OLD NEW -o report.html: two runs -> the page of their comparison (the verdicts of
// spmma compare first, new/old charts, new failures, the clocks of both). Three or more files,
// or two with --pool, are the shards of one run and make the one-run page.
// The pages themselves are made in core (report_html.hpp).
#include "command.hpp"
#include "output_paths.hpp"

#include <spmma/core/durable_file.hpp>
#include <spmma/core/record.hpp>
#include <spmma/core/report_html.hpp>

#include <fmt/format.h>

#include <cmath>


namespace spmma::app {
namespace {

class ReportCommand final : public Command {
public:
    explicit ReportCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("report", "Make one self-contained HTML page of one run's record files (--json output), or of two runs compared: "
                                            "spmma report OLD NEW");
        cmd_->add_option("files", files_, "Record files (JSON lines): one run; or OLD NEW, two runs compared (see --pool)")->required();
        cmd_->add_option("-o,--output", output_, "The HTML file to write")->required();
        cmd_->add_flag("--pool", pool_, "Two files are shards of one run, not OLD and NEW: one page of them all");
        cmd_->add_option("--baseline", baseline_, "Plugin to give speedups over (default: the records' own --baseline, if any; one run only)");
        cmd_->add_option("--confidence", confidence_, "OLD NEW: confidence level of the interval of each ratio new/old, as spmma compare")
            ->capture_default_str()
            ->check(CLI::Range(0.5, 0.999999));
        cmd_->add_option("--threshold,--max-slowdown", threshold_, "OLD NEW: smallest change in percent that counts, as spmma compare")
            ->capture_default_str()
            ->check(CLI::Range(0.0, 1000.0));
        cmd_->add_option("--title", title_, "Title of the page (default: \"spmma report\", or \"spmma report: NEW against OLD\")");
        cmd_->footer(
            "One file, three or more, or --pool: the page of one run. Two files: OLD NEW compared, the page led by the verdicts of spmma "
            "compare (regressions first). Exit codes: 0 written (even with regressions: spmma compare is the gate), 1 the page could not be "
            "written, 2 bad usage or an unreadable file, 3 no records.");
    }
    CLI::App* subcommand() const override { return cmd_; }

    int execute() override {
        for (const auto& [flag, v] : {std::pair{"--confidence", confidence_}, std::pair{"--threshold", threshold_}})
            if (!std::isfinite(v)) {  // NOTES: CLI11's Range lets NaN through
                fmt::print(stderr, "spmma report: {}: must be a finite number (got {})\n", flag, v);
                return kExitUsage;
            }
        std::vector<NamedPath> inputs;
        for (const auto& f : files_) inputs.push_back({"a record file read", f});
        if (auto bad = same_file(inputs, {{"-o", output_}})) {
            fmt::print(stderr, "spmma report: {}\n", *bad);
            return kExitUsage;
        }
        const bool comparing = files_.size() == 2 && !pool_;
        if (comparing && !baseline_.empty()) {
            fmt::print(stderr, "spmma report: --baseline: a page of one run only; OLD NEW compares two runs (--pool makes them one)\n");
            return kExitUsage;
        }
        if (!comparing && (cmd_->count("--confidence") || cmd_->count("--threshold"))) {
            fmt::print(stderr, "spmma report: --confidence and --threshold compare two runs: give OLD NEW (without --pool)\n");
            return kExitUsage;
        }
        if (comparing) return compare_page();
        std::vector<StoredRecord> records;
        ReportOptions opt;
        opt.title = title_.empty() ? "spmma report" : title_;
        opt.baseline = baseline_;
        opt.generated = utc_timestamp();
        try {
            for (const auto& f : files_) {
                auto rs = read_record_file(f);
                opt.files.emplace_back(f, rs.size());
                records.insert(records.end(), std::make_move_iterator(rs.begin()), std::make_move_iterator(rs.end()));
            }
        } catch (const RecordFileError& e) {
            fmt::print(stderr, "spmma report: {}\n", e.what());
            return kExitUsage;
        }
        if (records.empty()) {
            fmt::print(stderr, "spmma report: no records in {}\n", fmt::join(files_, ", "));
            return 3;
        }
        const HtmlReport rep = render_html_report(records, opt);
        try {
            write_file_durably(output_, rep.html);
        } catch (const OutputError& e) {
            fmt::print(stderr, "spmma report: {}\n", e.what());
            return 1;
        }
        fmt::print("{}: {} records, {} charts{}\n", output_, records.size(), rep.charts,
                   rep.baseline.empty() ? "" : ", speedups over " + rep.baseline);
        return 0;
    }

private:
    // OLD NEW: compare_records' verdicts and both runs' records on one page.
    int compare_page() {
        std::vector<StoredRecord> olds, news;
        try {
            olds = read_record_file(files_[0]);
            news = read_record_file(files_[1]);
        } catch (const RecordFileError& e) {
            fmt::print(stderr, "spmma report: {}\n", e.what());
            return kExitUsage;
        }
        if (olds.empty() || news.empty()) {
            fmt::print(stderr, "spmma report: no records in {}\n", olds.empty() ? files_[0] : files_[1]);
            return 3;
        }
        CompareResult r = compare_records(olds, news, CompareOptions{confidence_, threshold_ / 100.0});
        r.old_file = files_[0];
        r.new_file = files_[1];
        ReportOptions opt;
        opt.title = title_.empty() ? fmt::format("spmma report: {} against {}", files_[1], files_[0]) : title_;
        opt.generated = utc_timestamp();
        const HtmlReport rep = render_compare_report(r, olds, news, opt);
        try {
            write_file_durably(output_, rep.html);
        } catch (const OutputError& e) {
            fmt::print(stderr, "spmma report: {}\n", e.what());
            return 1;
        }
        fmt::print("{}: {} against {}: {} matched, {} regression{}, {} failure{}; {} charts\n", output_, files_[1], files_[0], r.rows.size(), r.regressions,
                   r.regressions == 1 ? "" : "s", r.failures, r.failures == 1 ? "" : "s", rep.charts);
        return 0;
    }

    CLI::App* cmd_;
    std::vector<std::string> files_;
    std::string output_, baseline_, title_;
    bool pool_ = false;
    double confidence_ = CompareOptions{}.confidence;
    double threshold_ = 100 * CompareOptions{}.threshold;
};

}  // namespace

std::unique_ptr<Command> make_report_command(CLI::App& app) { return std::make_unique<ReportCommand>(app); }

}  // namespace spmma::app

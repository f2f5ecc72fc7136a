// spmma report FILES... -o report.html: record files -> one self-contained HTML page (charts of
// throughput and speedup, failures, a summary). The page itself is made in core (report_html.hpp).
#include "command.hpp"
#include "output_paths.hpp"

#include <spmma/core/durable_file.hpp>
#include <spmma/core/record.hpp>
#include <spmma/core/report_html.hpp>

#include <fmt/format.h>


namespace spmma::app {
namespace {

class ReportCommand final : public Command {
public:
    explicit ReportCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("report", "Make one self-contained HTML page of record files (--json output)");
        cmd_->add_option("files", files_, "Record files (JSON lines)")->required();
        cmd_->add_option("-o,--output", output_, "The HTML file to write")->required();
        cmd_->add_option("--baseline", baseline_, "Plugin to give speedups over (default: the records' own --baseline, if any)");
        cmd_->add_option("--title", title_, "Title of the page")->capture_default_str();
        cmd_->footer("Exit codes: 0 written, 1 the page could not be written, 2 bad usage or an unreadable file, 3 no records.");
    }
    CLI::App* subcommand() const override { return cmd_; }

    int execute() override {
        std::vector<NamedPath> inputs;
        for (const auto& f : files_) inputs.push_back({"a record file read", f});
        if (auto bad = same_file(inputs, {{"-o", output_}})) {
            fmt::print(stderr, "spmma report: {}\n", *bad);
            return kExitUsage;
        }
        std::vector<StoredRecord> records;
        ReportOptions opt;
        opt.title = title_;
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
    CLI::App* cmd_;
    std::vector<std::string> files_;
    std::string output_, baseline_, title_ = "spmma report";
};

}  // namespace

std::unique_ptr<Command> make_report_command(CLI::App& app) { return std::make_unique<ReportCommand>(app); }

}  // namespace spmma::app

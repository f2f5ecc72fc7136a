// spmma merge FILES... -o OUT: the records of a sharded sweep in one file, checked for completeness.
#include "command.hpp"
#include "output_paths.hpp"

#include <spmma/core/durable_file.hpp>
#include <spmma/core/merge.hpp>
#include <spmma/core/workload.hpp>
#include <spmma/weights/file_operands.hpp>

#include <fmt/format.h>


namespace spmma::app {
namespace {

class MergeCommand final : public Command {
public:
    explicit MergeCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("merge", "Join the --json records of a sweep's shards; exit 1 when a job is missing or a record doubled");
        cmd_->add_option("files", files_, "Record files (JSON lines), one per shard")->required()->check(CLI::ExistingFile);
        cmd_->add_option("-o,--output", out_, "The merged records")->required();
        cmd_->add_option("--workload", workload_, "The workload the shards ran: checks the job count and each job's problem")
            ->check(CLI::ExistingFile);
        cmd_->add_flag("--force", force_, "Replace an existing output file that holds records");
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        std::vector<NamedPath> inputs{{"--workload", workload_}};
        for (const auto& f : files_) inputs.push_back({"an input", f});
        std::optional<std::string> bad = same_file(inputs, {{"-o", out_}});
        if (!bad && !force_) bad = would_replace({"-o", out_}, "");
        if (bad) {
            fmt::print(stderr, "spmma merge: {}\n", *bad);
            return kExitUsage;
        }
        std::optional<std::vector<Job>> jobs;
        MergeResult m;
        try {
            if (!workload_.empty()) jobs = load_workload(workload_, weights::probe_tensor);
            std::vector<std::filesystem::path> files(files_.begin(), files_.end());
            m = merge_records(files, jobs);
        } catch (const std::exception& e) {
            fmt::print(stderr, "spmma merge: {}\n", e.what());
            return kExitUsage;
        }
        std::string text;
        for (const auto& r : m.records) text += r.dump() + '\n';
        try {
            write_file_durably(out_, text);
        } catch (const OutputError& e) {
            fmt::print(stderr, "spmma merge: {}; none of the {} records was written\n", e.what(), m.records.size());
            return 1;
        }
        for (const auto& s : m.missing) fmt::print(stderr, "missing: {}\n", s);
        for (const auto& s : m.duplicates) fmt::print(stderr, "duplicated: {}\n", s);
        for (const auto& s : m.mismatched) fmt::print(stderr, "does not fit: {}\n", s);
        fmt::print("{} records of {} jobs from {} files into {}: {}\n", m.records.size(), m.jobs, files_.size(), out_,
                   m.complete() ? "complete" : "INCOMPLETE");
        return m.complete() ? 0 : 1;
    }

private:
    CLI::App* cmd_;
    std::vector<std::string> files_;
    std::string out_, workload_;
    bool force_ = false;
};

}  // namespace

std::unique_ptr<Command> make_merge_command(CLI::App& app) { return std::make_unique<MergeCommand>(app); }

}  // namespace spmma::app

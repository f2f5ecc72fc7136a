// spmma run FILE: the problems of a workload file (TOML).
#include "command.hpp"
#include "run_options.hpp"

#include <spmma/core/workload.hpp>
#include <spmma/weights/file_operands.hpp>

#include <fmt/format.h>

namespace spmma::app {
namespace {

class RunCommand final : public Command {
public:
    explicit RunCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("run", "Run the problems of a workload file (TOML) on every plugin that can");
        cmd_->add_option("file", workload_, "Workload file (see configs/)")->required()->check(CLI::ExistingFile);
        options_.add_to(cmd_);
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        std::vector<Job> jobs;
        try {
            jobs = load_workload(workload_, weights::probe_tensor);
        } catch (const WorkloadError& e) {
            fmt::print(stderr, "spmma: {}\n", e.what());
            return kExitUsage;
        }
        return options_.run(jobs, {workload_});
    }

private:
    CLI::App* cmd_;
    std::string workload_;
    RunOptions options_;
};

}  // namespace

std::unique_ptr<Command> make_run_command(CLI::App& app) { return std::make_unique<RunCommand>(app); }

}  // namespace spmma::app

// spmma worker --fd N: the process a plugin runs in (started by spmma itself, not by users).
#include "command.hpp"

#include <spmma/core/conformance.hpp>
#include <spmma/core/worker_main.hpp>

namespace spmma::app {
namespace {

class WorkerCommand final : public Command {
public:
    explicit WorkerCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("worker", "How spmma runs a plugin in its own process");
        cmd_->group("");  // no group: hidden from --help
        cmd_->add_option("--fd", fd_, "Socket to the parent")->required();
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        protocol::Handlers handlers;
        conformance::serve_checks(handlers);  // spmma check-plugin's checks
        return run_worker(fd_, std::move(handlers));
    }

private:
    CLI::App* cmd_;
    int fd_ = -1;
};

}  // namespace

std::unique_ptr<Command> make_worker_command(CLI::App& app) { return std::make_unique<WorkerCommand>(app); }

}  // namespace spmma::app

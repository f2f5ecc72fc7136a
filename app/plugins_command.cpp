// spmma plugins / spmma devices: what was found, its state, and why it cannot run here.
#include "command.hpp"
#include "run_options.hpp"

#include <spmma/core/inventory.hpp>

#include <iostream>

namespace spmma::app {
namespace {

class PluginsCommand final : public Command {
public:
    explicit PluginsCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("plugins", "List every plugin found, its state, and why it cannot run here if it cannot");
        cmd_->add_flag("-v,--verbose", verbose_, "File, ABI version, target, kernels");
        cmd_->add_flag("--json", json_, "Machine-readable output");
        options_.add_to(cmd_);
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        const auto dirs = options_.dirs();
        const auto plugins = options_.open();
        if (json_)
            std::cout << plugins_json(plugins, dirs, options_.device).dump(2) << '\n';
        else
            std::cout << describe_plugins(plugins, dirs, options_.device, verbose_);
        return plugins.empty() ? 3 : 0;
    }

private:
    CLI::App* cmd_;
    PluginDirOptions options_;
    bool verbose_ = false, json_ = false;
};

class DevicesCommand final : public Command {
public:
    explicit DevicesCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("devices", "List the devices the plugins see");
        options_.add_to(cmd_);
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        std::cout << describe_devices(options_.open());
        return 0;
    }

private:
    CLI::App* cmd_;
    PluginDirOptions options_;
};

}  // namespace

std::unique_ptr<Command> make_plugins_command(CLI::App& app) { return std::make_unique<PluginsCommand>(app); }
std::unique_ptr<Command> make_devices_command(CLI::App& app) { return std::make_unique<DevicesCommand>(app); }

}  // namespace spmma::app

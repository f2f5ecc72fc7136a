// One subcommand of spmma: its options are declared on its own CLI11 subcommand, what it does
// lives in the core. Each command is one file (run_command.cpp, compare_command.cpp, ...);
// main.cpp parses and runs the one that was given.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <vector>

namespace spmma::app {

constexpr int kExitUsage = 2;

class Command {
public:
    virtual ~Command() = default;
    virtual CLI::App* subcommand() const = 0;
    // The exit code (README: 0 all verified, 1 a failure, 2 bad usage, 3 nothing ran).
    virtual int execute() = 0;
};

// Every command, registered on `app` in the order `spmma --help` lists them.
std::vector<std::unique_ptr<Command>> make_commands(CLI::App& app);

std::unique_ptr<Command> make_run_command(CLI::App& app);       // run: a workload file
std::unique_ptr<Command> make_gemm_command(CLI::App& app);      // gemm: problems on the command line
std::unique_ptr<Command> make_plugins_command(CLI::App& app);   // plugins
std::unique_ptr<Command> make_devices_command(CLI::App& app);   // devices
std::unique_ptr<Command> make_check_plugin_command(CLI::App& app);  // check-plugin FILE.so: the conformance suite
std::unique_ptr<Command> make_compare_command(CLI::App& app);   // compare OLD NEW
std::unique_ptr<Command> make_report_command(CLI::App& app);    // report FILES... -o page.html
std::unique_ptr<Command> make_merge_command(CLI::App& app);     // merge FILES... -o OUT: a sharded sweep joined
std::unique_ptr<Command> make_inspect_command(CLI::App& app);   // inspect FILE|FOLDER: a checkpoint's layers
std::unique_ptr<Command> make_worker_command(CLI::App& app);    // worker --fd N: hosts one plugin (started by spmma)

}  // namespace spmma::app

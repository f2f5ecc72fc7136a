// spmma: the command line. Each subcommand is one file (command.hpp lists them). Exit codes:
// 0 all verified, 1 a verification or run failed (or an output could not be written), 2 bad usage
// or workload, 3 nothing could run, 130/143 interrupted by SIGINT/SIGTERM (README's table).
#include "command.hpp"
#include "output_paths.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <spmma/plugin.h>

#include <exception>
#include <string>

int main(int argc, char** argv) {
    CLI::App app{"spmma: structured-sparse GEMM on tensor cores, verified against a CPU reference"};
    app.set_version_flag("--version", std::string("spmma ") + SPMMA_VERSION + " (plugin ABI " +
                                          std::to_string(SPMMA_ABI_MAJOR) + "." + std::to_string(SPMMA_ABI_MINOR) + ")");
    app.require_subcommand(1);
    app.footer("Exit codes: 0 all verified, 1 a verification or run failed or an output could not be written, 2 bad usage or workload, "
               "3 nothing could run, 130/143 interrupted by SIGINT/SIGTERM.");
    const auto commands = spmma::app::make_commands(app);
    spmma::app::set_command_line(argc, argv);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return spmma::app::kExitUsage;
    }
    try {
        for (const auto& c : commands)
            if (c->subcommand()->parsed()) return c->execute();
        return spmma::app::kExitUsage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "spmma: {}\n", e.what());
        return spmma::app::kExitUsage;
    }
}

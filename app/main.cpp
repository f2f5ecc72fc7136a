// spmma: the command line. Commands: run (workload files), gemm (one-off problems), plugins,
// devices. Exit codes: 0 all verified, 1 a verification or run failed, 2 bad usage or workload,
// 3 nothing could run.
#include "commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    CLI::App app{"spmma: structured-sparse GEMM on tensor cores, verified against a CPU reference"};
    app.set_version_flag("--version", std::string("spmma ") + SPMMA_VERSION + " (plugin ABI " +
                                          std::to_string(SPMMA_ABI_MAJOR) + "." + std::to_string(SPMMA_ABI_MINOR) + ")");
    app.require_subcommand(1);
    app.footer("Exit codes: 0 all verified, 1 a verification or run failed, 2 bad usage or workload, 3 nothing could run.");
    spmma::app::Commands commands(app);
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
        return commands.execute();
    } catch (const std::exception& e) {
        fmt::print(stderr, "spmma: {}\n", e.what());
        return spmma::app::kExitUsage;
    }
}

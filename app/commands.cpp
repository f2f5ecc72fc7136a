#include "command.hpp"

namespace spmma::app {

std::vector<std::unique_ptr<Command>> make_commands(CLI::App& app) {
    std::vector<std::unique_ptr<Command>> c;
    c.push_back(make_run_command(app));
    c.push_back(make_gemm_command(app));
    c.push_back(make_plugins_command(app));
    c.push_back(make_devices_command(app));
    c.push_back(make_check_plugin_command(app));
    c.push_back(make_compare_command(app));
    c.push_back(make_report_command(app));
    c.push_back(make_merge_command(app));
    c.push_back(make_inspect_command(app));
    c.push_back(make_worker_command(app));
    return c;
}

}  // namespace spmma::app

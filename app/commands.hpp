// The command tree: options are declared here; what they do lives in the core.
#pragma once

#include <spmma/core/gemm_spec.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace spmma::app {

constexpr int kExitUsage = 2;

class Commands {
public:
    explicit Commands(CLI::App& app);
    int execute();

private:
    struct Common {
        std::vector<std::string> plugins, kernels, plugin_dirs;
        std::string emulate;
        int device = 0;
        int warmup = -1, iterations = -1;
        std::string verify, json, csv, baseline, save_operands, save_failures;
        long samples = 4096;
        bool no_progress = false, quiet = false;
    };
    void add_common(CLI::App* cmd, Common& c, bool run_options);
    int run_jobs_command(const std::vector<Job>& jobs, const Common& c);
    int plugins_command();
    int devices_command();
    int compare_command();

    CLI::App& app_;
    CLI::App* run_ = nullptr;
    CLI::App* gemm_ = nullptr;
    CLI::App* plugins_ = nullptr;
    CLI::App* devices_ = nullptr;
    CLI::App* compare_ = nullptr;
    std::string compare_old_, compare_new_;
    double max_slowdown_ = 5.0;
    Common run_opts_, gemm_opts_, plugins_opts_, devices_opts_;
    std::string workload_;
    GemmSpec gemm_spec_;
    bool verbose_ = false, plugins_json_ = false;
};

}  // namespace spmma::app

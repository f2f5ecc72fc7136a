// spmma gemm: one-off problems from the command line (size lists and ranges, type lists).
#include "command.hpp"
#include "run_options.hpp"

#include <spmma/core/gemm_spec.hpp>
#include <spmma/core/problem_keys.hpp>
#include <spmma/weights/file_operands.hpp>

#include <fmt/format.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace spmma::app {
namespace {

class GemmCommand final : public Command {
public:
    explicit GemmCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("gemm", "Run one-off problems given on the command line");
        // The problem's keys as problem_keys.hpp declares them (the run keys come with the run
        // options). Help shows the defaults of a scaled problem, so that the scale keys' show too.
        Job shown;
        shown.problem.scale = DType::UE8M0;
        for (const ProblemKey& key : problem_keys()) {
            if (key.part != KeyPart::Problem) continue;
            if (key.kind == KeyKind::Flag) {
                cmd_->add_flag(key.flag, flags_[key.name], key.help);
                continue;
            }
            // --dtype alone takes a list (each type runs; split here, where a stray comma is seen, which
            // CLI11's delimiter drops); sizes take lists and ranges in one text.
            CLI::Option* o = std::string(key.name) == "dtype" ? cmd_->add_option(key.flag, dtypes_, key.help)
                                                              : cmd_->add_option(key.flag, texts_[key.name], key.help);
            if (key.kind == KeyKind::Number || key.kind == KeyKind::Integer) o->type_name(key.kind == KeyKind::Number ? "FLOAT" : "INT");
            const bool shows_default = !key.typed_default && (key.kind == KeyKind::Choice || key.kind == KeyKind::Integer || key.kind == KeyKind::Number);
            if (const auto value = shows_default ? key.get(shown) : std::nullopt) o->default_str(key_text(*value));
        }
        cmd_->add_option("--op", op_,
                         "A named op presetting types and epilogue (the options above refine it): scaled-mm = e4m3 x e4m3 -> bf16 with "
                         "random row and column scales and a bf16 bias per row");
        // Operands from files: not keys (their tensors give the sizes and types left out), so
        // neither a workload's sweep nor the table declares them.
        cmd_->add_option("--a", a_file_,
                         "A from a weight file: FILE.safetensors:TENSOR, FOLDER:TENSOR (shards) or FILE.npy; out x in = m x k, "
                         "pruned to the pattern unless already in it, its type unless --dtype says otherwise");
        cmd_->add_option("--b", b_file_, "B from a file: an n x k tensor (tokens x features), as --a names one");
        cmd_->add_option("--c", c_file_, "C from a file: an m x n tensor, as --a names one (read when --beta is not 0)");
        options_.add_to(cmd_);
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        GemmSpec spec;
        spec.op = op_;
        for (const auto& [name, text] : texts_)
            if (!text.empty()) spec.given[name] = {text};
        for (const std::string& list : dtypes_) {
            for (size_t at = 0;;) {
                const size_t comma = list.find(',', at);
                const std::string type = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
                if (type.empty()) {
                    fmt::print(stderr, "spmma gemm: --dtype: an empty type in '{}' (a stray comma?)\n", list);
                    return kExitUsage;
                }
                spec.given["dtype"].push_back(type);
                if (comma == std::string::npos) break;
                at = comma + 1;
            }
        }
        for (const auto& [name, on] : flags_)
            if (on) spec.given[name] = {"true"};
        if (options_.warmup) spec.given["warmup"] = {std::to_string(*options_.warmup)};
        if (options_.iterations) spec.given["iterations"] = {std::to_string(*options_.iterations)};
        if (!options_.verify.empty()) spec.given["verify"] = {options_.verify};
        spec.a_file = a_file_;
        spec.b_file = b_file_;
        spec.c_file = c_file_;
        std::vector<Job> jobs;
        try {
            jobs = jobs_from_spec(spec, weights::probe_tensor);
        } catch (const std::invalid_argument& e) {
            fmt::print(stderr, "spmma gemm: {}\n", e.what());
            return kExitUsage;
        }
        return options_.run(jobs);
    }

private:
    CLI::App* cmd_;
    std::map<std::string, std::string> texts_;  // by key name
    std::vector<std::string> dtypes_;
    std::map<std::string, bool> flags_;
    std::string op_;  // --op
    std::string a_file_, b_file_, c_file_;
    RunOptions options_;
};

}  // namespace

std::unique_ptr<Command> make_gemm_command(CLI::App& app) { return std::make_unique<GemmCommand>(app); }

}  // namespace spmma::app

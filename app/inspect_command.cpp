// spmma inspect FILE|FOLDER: the 2-D tensors and sparse-24-bitmask layers of a checkpoint, how
// much of each is already 2:4, a `spmma gemm` line per layer, and (--workload) a workload of
// every linear layer at chosen token counts.
#include "command.hpp"

#include <spmma/core/record.hpp>
#include <spmma/core/sizes.hpp>
#include <spmma/weights/inspect.hpp>
#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>

#include <fstream>

namespace spmma::app {
namespace {

// A name from the file as the terminal may show it: as it is when plain, else JSON-quoted.
std::string shown(const std::string& name) {
    for (unsigned char c : name)
        if (c < 0x20 || c == 0x7f || c == '"') return weights::quote_name(name);
    return name;
}

std::string joined_command(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) {
        if (!s.empty()) s += ' ';
        s += shell_quote(a);
    }
    return s;
}

std::string share_text(const weights::LayerInfo& l) {
    if (l.form == "sparse-24-bitmask") return "2:4 (sparse-24-bitmask)";
    if (!l.share_2_4) return "2:4 unknown";
    if (l.is_2_4()) return "2:4";
    return fmt::format("dense, {:.1f} % of groups 2:4", 100 * *l.share_2_4);
}

void print_text(const weights::CheckpointSummary& s, int64_t n) {
    fmt::print("{}: {} file{}, {} layer{}, {} other tensor{}\n", s.path.string(), s.files.size(), s.files.size() == 1 ? "" : "s",
               s.layers.size(), s.layers.size() == 1 ? "" : "s", s.other_tensors, s.other_tensors == 1 ? "" : "s");
    if (!s.config_note.empty()) fmt::print("config.json not read: {}\n", s.config_note);
    for (const auto& l : s.layers) {
        std::string line = fmt::format("{}  [{}, {}]  {}  {}", shown(l.name), l.m, l.k, l.stored_dtype, share_text(l));
        if (l.row_scale) line += ", weight_scale " + *l.row_scale;
        fmt::print("{}\n", line);
        const auto args = l.gemm_args(n, s.path);
        if (args.empty()) fmt::print("    (cannot run: {})\n", l.cannot_run());
        else fmt::print("    {}\n", joined_command(args));
    }
}

class InspectCommand final : public Command {
public:
    explicit InspectCommand(CLI::App& app) {
        cmd_ = app.add_subcommand("inspect", "List the 2-D tensors of a safetensors file, a folder of shards or a .npy file: shape, dtype, "
                                             "2:4, a gemm line each");
        cmd_->add_option("path", path_, "A .safetensors file, a folder with model.safetensors.index.json, or a .npy file")->required();
        cmd_->add_option("--workload", workload_, "Write a workload (TOML) of every linear layer at the --tokens counts");
        cmd_->add_option("--tokens", tokens_, "Token counts (n) of the workload: 1,16,128 or a range 16:4096:*4")->capture_default_str();
        cmd_->add_option("--n", n_, "Tokens (n) of each printed gemm line")->capture_default_str();
        cmd_->add_flag("--json", json_, "Print the listing as JSON");
    }
    CLI::App* subcommand() const override { return cmd_; }
    int execute() override {
        weights::CheckpointSummary s;
        std::vector<int64_t> tokens;
        try {
            tokens = parse_size_list(tokens_);
            if (n_ < 1) throw std::invalid_argument(fmt::format("--n must be 1 or more, not {}", n_));
            s = weights::summarize(weights::Checkpoint(path_));
            if (!workload_.empty()) write_workload(s, tokens);
        } catch (const std::exception& e) {
            fmt::print(stderr, "spmma inspect: {}\n", e.what());
            return kExitUsage;
        }
        if (json_) fmt::print("{}\n", s.to_json(n_).dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
        else print_text(s, n_);
        return 0;
    }

private:
    void write_workload(const weights::CheckpointSummary& s, const std::vector<int64_t>& tokens) const {
        const std::string text = weights::workload_toml(s, tokens, std::filesystem::path(workload_).parent_path());
        std::ofstream out(workload_, std::ios::trunc);
        out << text;
        out.close();
        if (!out) throw std::runtime_error("cannot write " + workload_);
    }

    CLI::App* cmd_;
    std::string path_, workload_, tokens_ = "1,16,128";
    int64_t n_ = 16;
    bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_inspect_command(CLI::App& app) { return std::make_unique<InspectCommand>(app); }

}  // namespace spmma::app

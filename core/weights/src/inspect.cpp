#include <spmma/weights/inspect.hpp>

#include <spmma/core/sparsity.hpp>
#include <spmma/weights/bitmask24.hpp>
#include <spmma/weights/row_scale.hpp>
#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace spmma::weights {
namespace {

bool ends_with(std::string_view s, std::string_view tail) { return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail; }

// Quantization parameters beside a weight (compressed-tensors, FP8 and GPTQ checkpoints).
bool is_quantization_parameter(std::string_view name) {
    return ends_with(name, "_scale") || ends_with(name, "_zero_point") || ends_with(name, ".g_idx");
}

// NOTES: a linear layer is a 2-D `*.weight` that is not an embedding table (a lookup, not a
// GEMM): the names transformers gives them hold "embed" (embed_tokens, embed_positions).
bool is_linear_name(std::string_view name) { return ends_with(name, ".weight") && name.find("embed") == std::string_view::npos; }

// The type whose zeros the census counts: the stored codes' own (f32 before tf32 truncation).
DType census_type(StoredType s, DType int8_view) {
    if ((s == StoredType::I8 || s == StoredType::U8) && int8_view != DType::None) return int8_view;
    return natural_type(s);
}

std::optional<double> share_2_4(const TensorView& t, DType type) {
    if (type == DType::None || t.shape[1] % 4 != 0 || t.elements() == 0) return std::nullopt;
    const PatternCensus c = pattern_census(type, Pattern::P2_4, t.bytes.data(), t.shape[0], t.shape[1]);
    return static_cast<double>(c.conforming) / static_cast<double>(c.groups);
}

std::optional<std::string> scale_note(const Checkpoint& c, const std::string& prefix, int64_t m) {
    const auto s = find_row_scale(c, prefix, m);
    if (!s) return std::nullopt;
    return s->per_tensor ? "per tensor" : "per channel";
}

std::string prefix_of(const std::string& name) { return ends_with(name, ".weight") ? name.substr(0, name.size() - 7) : name; }

}  // namespace

std::string LayerInfo::cannot_run() const {
    if (type == DType::None && (stored == StoredType::Raw8 || stored == StoredType::Raw16 || stored == StoredType::U16))
        return fmt::format("{} does not say which type it holds (ml_dtypes saves bf16 as <V2, FP8 as <V1): the operand type names it", stored_dtype);
    if (type == DType::None) return fmt::format("no spmma operand type reads {}", stored_dtype);
    const int group = group_size(default_pattern(type));
    if (m < 1 || k < 1 || k % group != 0) return fmt::format("k = {} is not a positive multiple of {}", k, group);
    return "";
}

std::string LayerInfo::ref(const std::filesystem::path& checkpoint) const {
    if (checkpoint.extension() == ".npy") return checkpoint.string();
    return checkpoint.string() + ":" + name;
}

std::vector<std::string> LayerInfo::gemm_args(int64_t n, const std::filesystem::path& checkpoint) const {
    if (!cannot_run().empty()) return {};
    return {"spmma", "gemm", "--m", std::to_string(m), "--k", std::to_string(k), "--n", std::to_string(n), "--dtype", spmma::name(type),
            "--a", ref(checkpoint)};
}

CheckpointSummary summarize(const Checkpoint& c) {
    CheckpointSummary s{c.path(), c.files(), {}, 0, c.config_note()};
    std::set<std::string> parts;  // tensors a bitmask layer stands for
    for (const Bitmask24Layer& l : bitmask24_layers(c)) {
        decode_bitmask24(l);  // a bad mask is the file's error, not a silent row
        for (const auto* t : {&l.compressed, &l.bitmask, &l.shape}) parts.insert(t->name);
        LayerInfo info{l.prefix, "sparse-24-bitmask", l.compressed.type, c.stored_dtype(l.compressed), l.m, l.k,
                       run_type(l.compressed.type, c.int8_view()), 1.0, true, scale_note(c, l.prefix, l.m)};
        s.layers.push_back(std::move(info));
    }
    for (const TensorView& t : c.tensors()) {
        if (parts.count(t.name) || !t.is_2d() || is_quantization_parameter(t.name)) {
            ++s.other_tensors;
            continue;
        }
        LayerInfo info{t.name, "dense", t.type, c.stored_dtype(t), t.shape[0], t.shape[1], run_type(t.type, c.int8_view()),
                       share_2_4(t, census_type(t.type, c.int8_view())), is_linear_name(t.name), std::nullopt};
        if (!c.is_npy()) info.row_scale = scale_note(c, prefix_of(t.name), t.shape[0]);
        if (c.is_npy()) info.linear = true;
        s.layers.push_back(std::move(info));
    }
    std::sort(s.layers.begin(), s.layers.end(), [](const LayerInfo& a, const LayerInfo& b) { return a.name < b.name; });
    return s;
}

nlohmann::json CheckpointSummary::to_json(int64_t n) const {
    nlohmann::json layers_json = nlohmann::json::array();
    for (const LayerInfo& l : layers) {
        const auto args = l.gemm_args(n, path);
        nlohmann::json j = {{"name", l.name},
                            {"form", l.form},
                            {"dtype", l.stored_dtype},
                            {"shape", {l.m, l.k}},
                            {"spmma_type", l.type == DType::None ? nlohmann::json() : nlohmann::json(spmma::name(l.type))},
                            {"share_2_4", l.share_2_4 ? nlohmann::json(*l.share_2_4) : nlohmann::json()},
                            {"is_2_4", l.is_2_4()},
                            {"linear", l.linear},
                            {"row_scale", l.row_scale ? nlohmann::json(*l.row_scale) : nlohmann::json()},
                            {"gemm", args.empty() ? nlohmann::json() : nlohmann::json(fmt::format("{}", fmt::join(args, " ")))}};
        if (args.empty()) j["cannot_run"] = l.cannot_run();
        layers_json.push_back(std::move(j));
    }
    nlohmann::json files_json = nlohmann::json::array();
    for (const auto& f : files) files_json.push_back(f.string());
    nlohmann::json j = {{"path", path.string()}, {"files", files_json}, {"layers", layers_json}, {"other_tensors", other_tensors}};
    if (!config_note.empty()) j["config_note"] = config_note;
    return j;
}

std::string workload_toml(const CheckpointSummary& s, const std::vector<int64_t>& tokens, const std::filesystem::path& folder) {
    // Keys in the order the README's workloads use; strings quoted and escaped by toml++.
    const auto str = [](const std::string& v) {
        std::ostringstream os;
        os << toml::value<std::string>(v);
        return os.str();
    };
    // The checkpoint as the workload names it: relative to the workload's folder where it can be.
    const std::filesystem::path absolute = std::filesystem::absolute(s.path).lexically_normal();
    std::filesystem::path from_workload = absolute.lexically_relative(std::filesystem::absolute(folder).lexically_normal());
    if (from_workload.empty()) from_workload = absolute;
    std::string sweeps, skipped;
    for (const LayerInfo& l : s.layers) {
        if (!l.linear) continue;
        if (const std::string why = l.cannot_run(); !why.empty()) {
            skipped += fmt::format("#   {}: {}\n", quote_name(l.name), why);
            continue;
        }
        sweeps += fmt::format("\n[[sweep]]\nname = {}\na = {}\nm = {}\nk = {}\nn = [{}]\ndtype = {}\n", str(l.name), str(l.ref(from_workload)), l.m,
                              l.k, fmt::join(tokens, ", "), str(spmma::name(l.type)));
    }
    if (sweeps.empty()) throw WeightsError(s.path, "no linear layer that spmma can run: no workload to write");
    const std::string source = s.path.filename().empty() ? s.path.parent_path().filename().string() : s.path.filename().string();
    std::string out = fmt::format("# Every linear layer of {}: m = out features, k = in features, n = tokens.\n", quote_name(s.path.string()));
    if (!skipped.empty()) out += "# Not run:\n" + skipped;
    return out + fmt::format("version = 1\nname = {}\ndescription = {}\n", str(source), str("linear layers of " + s.path.string())) + sweeps;
}

}  // namespace spmma::weights

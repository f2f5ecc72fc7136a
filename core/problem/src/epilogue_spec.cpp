#include <spmma/core/epilogue_spec.hpp>

#include <fmt/format.h>

#include <array>
#include <sstream>
#include <vector>

namespace spmma {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, sep);) out.push_back(part);
    if (!s.empty() && s.back() == sep) out.emplace_back();
    return out;
}

std::optional<Invalid> read_vector(const std::string& key, const std::string& text, EpilogueVector& out) {
    if (text.empty()) return std::nullopt;
    const auto v = parse_epilogue_vector(text);
    if (!v) return Invalid{key, fmt::format("'{}' is not 'random', 'none' or a finite number", text)};
    out = *v;
    return std::nullopt;
}

std::optional<Invalid> read_bias(const std::string& text, Problem& p) {
    const auto parts = split(text, ',');
    const auto bad = [&](const std::string& why) { return Invalid{"bias", fmt::format("'{}': {} (row or col, then ,TYPE and ,VALUE if wanted)", text, why)}; };
    if (parts.empty() || parts.size() > 3) return bad("expected AXIS[,TYPE][,VALUE]");
    if (parts[0] == "none" && parts.size() == 1) {
        p.bias = {};
        p.bias_axis = BiasAxis::None;
        p.bias_type = DType::None;
        return std::nullopt;
    }
    const auto axis = parse_bias_axis(parts[0]);
    if (!axis || *axis == BiasAxis::None) return bad(fmt::format("unknown axis '{}'", parts[0]));
    DType type = DType::None;
    EpilogueVector values{EpilogueVector::Source::Drawn, 0};
    for (size_t x = 1; x < parts.size(); ++x) {
        if (const auto t = parse_dtype(parts[x]); t && x == 1) {
            type = *t;
        } else if (const auto v = parse_epilogue_vector(parts[x]); v && v->source == EpilogueVector::Source::Given) {
            values = *v;
        } else {
            return bad(fmt::format("'{}' is neither a type nor a number", parts[x]));
        }
    }
    p.bias = values;
    p.bias_axis = *axis;
    p.bias_type = type;
    return std::nullopt;
}

}  // namespace

std::optional<Invalid> apply_epilogue_spec(const EpilogueSpec& s, Problem& p) {
    if (auto bad = read_vector("row_scale", s.row_scale, p.row_scale)) return bad;
    if (auto bad = read_vector("col_scale", s.col_scale, p.col_scale)) return bad;
    if (!s.bias.empty())
        if (auto bad = read_bias(s.bias, p)) return bad;
    if (!s.activation.empty()) {
        const auto a = parse_activation(s.activation);
        if (!a) return Invalid{"activation", fmt::format("unknown activation '{}' (none, relu, gelu-tanh, silu)", s.activation)};
        p.activation = *a;
    }
    return std::nullopt;
}

EpilogueSpec epilogue_spec_of(const Problem& p) {
    EpilogueSpec s;
    if (p.row_scale.present()) s.row_scale = to_string(p.row_scale);
    if (p.col_scale.present()) s.col_scale = to_string(p.col_scale);
    if (p.bias.present()) {
        s.bias = fmt::format("{},{}", name(p.bias_axis), name(p.bias_type));
        if (p.bias.source == EpilogueVector::Source::Given) s.bias += "," + to_string(p.bias);
    }
    if (p.activation != Activation::None) s.activation = name(p.activation);
    return s;
}

std::span<const OpPreset> op_presets() {
    // NOTES: scaled-mm is the 2:4 FP8 layer of LLM serving (vLLM's cutlass_scaled_sparse_mm):
    // A the e4m3 weight (m output channels) with a scale per channel, B the e4m3 activations (n
    // tokens) with a scale per token, bf16 out, a bias per output channel.
    static const std::array<OpPreset, 1> presets{{
        {"scaled-mm", "e4m3 x e4m3 -> bf16, a scale per row (weight channel) and per column (token), a bf16 bias per row",
         "e4m3", "e4m3", "bf16", {"random", "random", "row", ""}},
    }};
    return presets;
}

const OpPreset* find_op_preset(const std::string& name) {
    for (const auto& o : op_presets())
        if (name == o.name) return &o;
    return nullptr;
}

}  // namespace spmma

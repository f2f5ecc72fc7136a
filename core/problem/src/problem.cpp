#include <spmma/core/problem.hpp>
#include <spmma/core/problem_bytes.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <utility>

namespace spmma {

std::optional<Pattern> parse_pattern(std::string_view s) {
    for (Pattern p : {Pattern::P2_4, Pattern::P1_2, Pattern::P4_8})
        if (s == name(p)) return p;
    return std::nullopt;
}

Pattern default_pattern(DType a) {
    if (a == DType::TF32) return Pattern::P1_2;
    if (a == DType::S4 || a == DType::U4) return Pattern::P4_8;
    return Pattern::P2_4;
}

const char* name(Distribution d) {
    switch (d) {
        case Distribution::Int: return "int";
        case Distribution::Uniform: return "uniform";
        case Distribution::Normal: return "normal";
    }
    return "?";
}

std::optional<Distribution> parse_distribution(std::string_view s) {
    for (Distribution d : {Distribution::Int, Distribution::Uniform, Distribution::Normal})
        if (s == name(d)) return d;
    return std::nullopt;
}

const char* name(ScaleGen g) { return g == ScaleGen::Amax ? "amax" : "random"; }

std::optional<ScaleGen> parse_scale_gen(std::string_view s) {
    for (ScaleGen g : {ScaleGen::Random, ScaleGen::Amax})
        if (s == name(g)) return g;
    return std::nullopt;
}

std::optional<Activation> parse_activation(std::string_view s) {
    for (Activation a : {Activation::None, Activation::Relu, Activation::GeluTanh, Activation::Silu})
        if (s == name(a)) return a;
    return std::nullopt;
}

std::optional<BiasAxis> parse_bias_axis(std::string_view s) {
    for (BiasAxis b : {BiasAxis::None, BiasAxis::Row, BiasAxis::Col})
        if (s == name(b)) return b;
    return std::nullopt;
}

std::string to_string(const EpilogueVector& v) {
    switch (v.source) {
        case EpilogueVector::Source::None: return "none";
        case EpilogueVector::Source::Drawn: return "random";
        case EpilogueVector::Source::Given: return fmt::format("{}", v.value);
    }
    return "?";
}

std::optional<EpilogueVector> parse_epilogue_vector(std::string_view s) {
    if (s == "random") return EpilogueVector{EpilogueVector::Source::Drawn, 0};
    if (s == "none") return EpilogueVector{};
    const std::string text(s);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return EpilogueVector{EpilogueVector::Source::Given, v};
}

std::string epilogue_label(const spmma_problem& p) {
    char buf[64];
    return spmma_epilogue_label(&p, buf, sizeof buf);
}

spmma_problem Problem::to_abi() const {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a_type = static_cast<spmma_dtype>(a);
    p.b_type = static_cast<spmma_dtype>(b);
    p.c_type = static_cast<spmma_dtype>(c);
    p.d_type = static_cast<spmma_dtype>(d);
    p.acc_type = static_cast<spmma_dtype>(acc);
    p.pattern = static_cast<spmma_pattern>(pattern);
    p.saturate = saturate ? 1 : 0;
    p.scale_type = static_cast<spmma_dtype>(scale);
    p.scale_block = scale == DType::None ? 0 : scale_block;
    p.alpha = alpha;
    p.beta = beta;
    p.row_scale = row_scale.present() ? 1 : 0;
    p.col_scale = col_scale.present() ? 1 : 0;
    p.bias = bias.present() ? static_cast<int32_t>(bias_axis) : SPMMA_BIAS_NONE;
    p.bias_type = bias.present() ? static_cast<spmma_dtype>(bias_type) : SPMMA_DTYPE_NONE;
    p.activation = static_cast<int32_t>(activation);
    return p;
}

std::string Problem::label() const {
    std::string s = fmt::format("{}x{}x{} {}*{}+{}->{} {}", m, n, k, name(a), name(b), name(acc), name(d), name(pattern));
    if (saturate) s += " sat";
    if (scale != DType::None) s += fmt::format(" {}/{}{}", name(scale), scale_block, scale_gen == ScaleGen::Amax ? " amax" : "");
    const std::string e = epilogue_label(to_abi());
    return e.empty() ? s : s + " " + e;
}

namespace {

bool is_small_float(DType t) {
    return t == DType::E4M3 || t == DType::E5M2 || t == DType::E3M2 || t == DType::E2M3 || t == DType::E2M1;
}
bool is_int8(DType t) { return t == DType::S8 || t == DType::U8; }
bool is_int4(DType t) { return t == DType::S4 || t == DType::U4; }

}  // namespace

void apply_default_types(Problem& p, bool acc_given, bool d_given, bool pattern_given) {
    const bool integer = is_integer(p.a);
    if (!acc_given) p.acc = integer ? DType::S32 : DType::F32;
    if (!d_given) {
        if (integer) p.d = DType::S32;
        else if (p.acc == DType::F16) p.d = DType::F16;
        else if (p.a == DType::F16 || p.a == DType::BF16) p.d = p.a;
        else if (p.a == DType::TF32) p.d = DType::F32;
        else p.d = DType::BF16;
    }
    p.c = p.d;
    // The blocks of the sparse block-scaled instructions: 64 of k with ue8m0 (mxf8f6f4 1X, mxf4 2X),
    // 32 with ue4m3 (mxf4nvf4 4X).
    if (p.scale != DType::None && p.scale_block == 0) p.scale_block = p.scale == DType::UE4M3 ? 32 : 64;
    if (!pattern_given) p.pattern = (p.a == DType::E2M1 && p.scale != DType::None) ? Pattern::P4_8 : default_pattern(p.a);
    if (p.bias.present() && p.bias_type == DType::None) p.bias_type = p.d;
}

std::optional<Invalid> check_finite(const char* key, double value) {
    if (std::isfinite(value)) return std::nullopt;
    return Invalid{key, fmt::format("{} must be a finite number (got {})", key, value)};
}

namespace {

// The epilogue's keys: floating problems only, vectors finite, the bias on an axis and of f32 or
// D's type.
std::optional<Invalid> validate_epilogue(const Problem& p) {
    using I = Invalid;
    if (!p.has_epilogue()) {
        if (p.bias_axis != BiasAxis::None) return I{"bias", "a bias axis without a bias"};
        return std::nullopt;
    }
    if (is_integer(p.a)) {
        const char* key = p.row_scale.present() ? "row_scale" : p.col_scale.present() ? "col_scale" : p.bias.present() ? "bias" : "activation";
        return I{key, "the epilogue (scales, bias, activation) is for floating problems; integer problems write the s32 result"};
    }
    for (const auto& [key, v] : {std::pair{"row_scale", &p.row_scale}, std::pair{"col_scale", &p.col_scale}, std::pair{"bias", &p.bias}})
        if (v->source == EpilogueVector::Source::Given)
            if (auto bad = check_finite(key, v->value)) return bad;
    if (p.bias.present()) {
        if (p.bias_axis != BiasAxis::Row && p.bias_axis != BiasAxis::Col) return I{"bias", "a bias is per row or per column (row or col)"};
        if (p.bias_type != DType::F32 && p.bias_type != p.d)
            return I{"bias_type", fmt::format("the bias is f32 or D's type ({}), not {}", name(p.d), name(p.bias_type))};
    } else if (p.bias_axis != BiasAxis::None || p.bias_type != DType::None) {
        return I{"bias", "a bias axis or type without a bias"};
    }
    return std::nullopt;
}

}  // namespace

std::optional<Invalid> validate(const Problem& p) {
    using I = Invalid;
    if (p.m <= 0) return I{"m", fmt::format("m must be positive (got {})", p.m)};
    if (p.n <= 0) return I{"n", fmt::format("n must be positive (got {})", p.n)};
    if (p.k <= 0) return I{"k", fmt::format("k must be positive (got {})", p.k)};
    if (!problem_bytes(p, 0)) {
        const char* key = p.m >= p.n && p.m >= p.k ? "m" : p.n >= p.k ? "n" : "k";
        return I{key, fmt::format("{} x {} x {} is too large: its operands' bytes overflow a 64-bit count", p.m, p.n, p.k)};
    }
    if (auto bad = check_finite("alpha", p.alpha)) return bad;
    if (auto bad = check_finite("beta", p.beta)) return bad;
    const auto operand_ok = [](DType t) {
        return t != DType::None && t != DType::S32 && info(t).cls != TypeClass::Scale && t != DType::F32;
    };
    if (!operand_ok(p.a)) return I{"a_type", fmt::format("{} cannot be an A operand type", name(p.a))};
    if (!operand_ok(p.b)) return I{"b_type", fmt::format("{} cannot be a B operand type", name(p.b))};
    const bool same_required = p.a == DType::F16 || p.a == DType::BF16 || p.a == DType::TF32 ||
                               p.b == DType::F16 || p.b == DType::BF16 || p.b == DType::TF32;
    if (same_required && p.a != p.b) return I{"b_type", fmt::format("A and B must have the same type for {} (got {} and {})", name(p.a), name(p.a), name(p.b))};
    if (is_small_float(p.a) != is_small_float(p.b) || is_int8(p.a) != is_int8(p.b) || is_int4(p.a) != is_int4(p.b))
        return I{"b_type", fmt::format("A type {} and B type {} cannot be multiplied together", name(p.a), name(p.b))};
    const bool integer = is_integer(p.a);
    if (integer) {
        if (p.acc != DType::S32) return I{"acc", fmt::format("integer types accumulate in s32, not {}", name(p.acc))};
        if (p.d != DType::S32) return I{"out", fmt::format("integer problems write s32, not {}", name(p.d))};
        if (p.alpha != std::floor(p.alpha) || p.beta != std::floor(p.beta))
            return I{p.alpha != std::floor(p.alpha) ? "alpha" : "beta", fmt::format("integer problems need integral alpha and beta (got {} and {})", p.alpha, p.beta)};
    } else {
        if (p.acc != DType::F32 && p.acc != DType::F16) return I{"acc", fmt::format("floating types accumulate in f32 or f16, not {}", name(p.acc))};
        if (p.acc == DType::F16 && !(p.a == DType::F16 || is_small_float(p.a)))
            return I{"acc", fmt::format("f16 accumulation is only for f16 and 8/6/4-bit float inputs, not {}", name(p.a))};
        if (p.d != DType::F32 && p.d != DType::F16 && p.d != DType::BF16) return I{"out", fmt::format("floating problems write f32, f16 or bf16, not {}", name(p.d))};
        if (p.acc == DType::F16 && p.d != DType::F16) return I{"out", fmt::format("f16 accumulation writes f16, not {}", name(p.d))};
        if (p.saturate) return I{"satfinite", "saturation (satfinite) is for integer accumulation only"};
    }
    if (p.c != p.d) return I{"out", fmt::format("C must have D's type ({}), not {}", name(p.d), name(p.c))};
    const Pattern want = default_pattern(p.a);
    if (p.a == DType::E2M1) {
        if (p.pattern != Pattern::P2_4 && p.pattern != Pattern::P4_8) return I{"pattern", "e2m1 A takes the 2:4 or the pairwise 4:8 pattern"};
    } else if (p.pattern != want) {
        return I{"pattern", fmt::format("A of type {} takes the {} pattern, not {}", name(p.a), name(want), name(p.pattern))};
    }
    const int g = group_size(p.pattern);
    if (p.k % g != 0) return I{"k", fmt::format("k must be a multiple of {} for the {} pattern (k = {})", g, name(p.pattern), p.k)};
    if (p.scale != DType::None) {
        if (p.scale != DType::UE8M0 && p.scale != DType::UE4M3) return I{"scale_type", fmt::format("block scales are ue8m0 or ue4m3, not {}", name(p.scale))};
        if (!is_small_float(p.a)) return I{"scale_type", fmt::format("block scaling is for 8/6/4-bit float types, not {}", name(p.a))};
        // NOTES: the sparse block-scaled instructions cover 64 or 128 logical k with 1, 2 or 4
        // scales, so their blocks are 32 or 64 elements of k (16 and 32 for the dense forms).
        if (p.scale_block != 16 && p.scale_block != 32 && p.scale_block != 64)
            return I{"scale_block", fmt::format("the scale block is 16, 32 or 64 elements of k, not {}", p.scale_block)};
        if (p.scale_block == 16 && p.a != DType::E2M1) return I{"scale_block", "16-element scale blocks are for e2m1 (nvf4) only"};
        if (p.scale == DType::UE4M3 && (p.a != DType::E2M1 || p.b != DType::E2M1)) return I{"scale_type", "ue4m3 scales are for e2m1 A and B (nvf4) only"};
        if (p.acc != DType::F32) return I{"acc", "block-scaled problems accumulate in f32"};
        if (p.k % p.scale_block != 0) return I{"k", fmt::format("k must be a multiple of the scale block {} (k = {})", p.scale_block, p.k)};
        if (p.scale_gen == ScaleGen::Random) {
            const double lo = p.scale == DType::UE8M0 ? 0x1p-127 : 0x1p-9, hi = info(p.scale).max_finite;
            if (!(p.scale_min > 0) || p.scale_min < lo) return I{"scale_min", fmt::format("{} scales start at {}, not {}", name(p.scale), lo, p.scale_min)};
            if (!(p.scale_max >= p.scale_min) || p.scale_max > hi)
                return I{"scale_max", fmt::format("the scale range must be {}..{} and increasing (got {}..{})", lo, hi, p.scale_min, p.scale_max)};
        }
    } else if (p.pattern == Pattern::P4_8 && p.a == DType::E2M1) {
        return I{"scale_type", "pairwise 4:8 e2m1 (kind::mxf4) is block-scaled: give a scale type"};
    }
    return validate_epilogue(p);
}

}  // namespace spmma

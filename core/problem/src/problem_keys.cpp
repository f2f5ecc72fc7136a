#include <spmma/core/problem_keys.hpp>

#include <spmma/core/epilogue_spec.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace spmma {
namespace {

using Reason = std::optional<std::string>;
using Got = std::optional<KeyValue>;

int64_t whole(const KeyValue& v) { return std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : static_cast<int64_t>(std::get<uint64_t>(v)); }
uint64_t whole_unsigned(const KeyValue& v) { return std::holds_alternative<uint64_t>(v) ? std::get<uint64_t>(v) : static_cast<uint64_t>(std::get<int64_t>(v)); }
const std::string& text(const KeyValue& v) { return std::get<std::string>(v); }

Reason type_of(const KeyValue& v, DType& out) {
    if (const auto t = parse_dtype(text(v))) {
        out = *t;
        return std::nullopt;
    }
    return fmt::format("unknown type '{}'", text(v));
}

// Parses a choice with `parse`; "unknown WHAT 'x' (CHOICES)" when it is none of them.
template <class T, class Parse>
Reason choice_of(const KeyValue& v, T& out, Parse parse, const char* what, const char* choices) {
    if (const auto c = parse(text(v))) {
        out = *c;
        return std::nullopt;
    }
    return fmt::format("unknown {} '{}' ({})", what, text(v), choices);
}

std::optional<reference::VerifyMode> verify_mode(const std::string& s) {
    reference::VerifyMode m;
    if (!reference::parse_verify_mode(s, m)) return std::nullopt;
    return m;
}

bool scaled(const Job& j) { return j.problem.scale != DType::None; }
bool random_scales(const Job& j) { return scaled(j) && j.problem.scale_gen == ScaleGen::Random; }
KeyValue abi_int(int64_t v) { return KeyValue{v}; }

// One part of the epilogue read by the one parser of epilogue_spec.hpp (the same text --op's
// presets and the records use); its reason when refused.
Reason epilogue_part(JobDraft& d, std::string EpilogueSpec::*part, const KeyValue& v) {
    EpilogueSpec spec;
    spec.*part = text(v);
    if (const auto bad = apply_epilogue_spec(spec, d.job.problem)) return bad->message;
    return std::nullopt;
}
// The part as records write it; nullopt when the problem lacks it (a plain record reads as before).
Got epilogue_text(const Job& j, std::string EpilogueSpec::*part) {
    std::string s = epilogue_spec_of(j.problem).*part;
    return s.empty() ? Got{} : Got{std::move(s)};
}

// NOTES: the rows are in the records' order (CSV columns, the rerun command's options); the
// sweep rank (the number after the part) keeps the order in which version 1 of the workload
// format has always multiplied a sweep's lists, so that a sweep's jobs keep their indices (shards,
// merge and --resume rest on them). A new key takes the next rank: it varies fastest.
// clang-format off
const std::vector<ProblemKey> kKeys = {
    {"m", "--m", KeyKind::Size, KeyPart::Problem, 0, "Rows of A and D: 4096, 1000,2000, 1024:8192:1024 or 256:8192:*2 (default: --a's out features)", 1, false, true, nullptr, "m",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.m = whole(v); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{j.problem.m}; },
     [](const spmma_problem& p) { return abi_int(p.m); }, [](spmma_problem& p, const KeyValue& v) { p.m = whole(v); }},
    {"n", "--n", KeyKind::Size, KeyPart::Problem, 1, "Columns of B and D (list or range; default: --b's rows)", 1, false, true, nullptr, "n",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.n = whole(v); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{j.problem.n}; },
     [](const spmma_problem& p) { return abi_int(p.n); }, [](spmma_problem& p, const KeyValue& v) { p.n = whole(v); }},
    {"k", "--k", KeyKind::Size, KeyPart::Problem, 2, "Inner dimension (list or range; default: --a's in features)", 1, false, true, nullptr, "k",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.k = whole(v); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{j.problem.k}; },
     [](const spmma_problem& p) { return abi_int(p.k); }, [](spmma_problem& p, const KeyValue& v) { p.k = whole(v); }},
    {"dtype", "--dtype", KeyKind::Type, KeyPart::Problem, 3,
     "A and B type, a list runs each: f16,bf16,tf32,e4m3,e5m2,e3m2,e2m3,e2m1,s8,u8,s4,u4", 0, false, false, nullptr, nullptr,
     [](JobDraft& d, const KeyValue& v) -> Reason {
         auto bad = type_of(v, d.job.problem.a);
         d.job.problem.b = d.job.problem.a;
         return bad;
     },
     nullptr, nullptr, nullptr},
    {"a_type", "--a-type", KeyKind::Type, KeyPart::Problem, 4, "A type (overrides --dtype for A)", 0, false, true, nullptr, "a_type",
     [](JobDraft& d, const KeyValue& v) { return type_of(v, d.job.problem.a); },
     [](const Job& j) -> Got { return KeyValue{std::string(name(j.problem.a))}; },
     [](const spmma_problem& p) { return abi_int(p.a_type); },
     [](spmma_problem& p, const KeyValue& v) { p.a_type = static_cast<spmma_dtype>(whole(v)); }},
    {"b_type", "--b-type", KeyKind::Type, KeyPart::Problem, 5, "B type (overrides --dtype for B)", 0, false, true, nullptr, "b_type",
     [](JobDraft& d, const KeyValue& v) { return type_of(v, d.job.problem.b); },
     [](const Job& j) -> Got { return KeyValue{std::string(name(j.problem.b))}; },
     [](const spmma_problem& p) { return abi_int(p.b_type); },
     [](spmma_problem& p, const KeyValue& v) { p.b_type = static_cast<spmma_dtype>(whole(v)); }},
    {"acc", "--acc", KeyKind::Type, KeyPart::Problem, 6, "Accumulator: f32, f16 or s32 (default from the type)", 0, true, true, "acc_type", "acc_type",
     [](JobDraft& d, const KeyValue& v) { d.acc_given = true; return type_of(v, d.job.problem.acc); },
     [](const Job& j) -> Got { return KeyValue{std::string(name(j.problem.acc))}; },
     [](const spmma_problem& p) { return abi_int(p.acc_type); },
     [](spmma_problem& p, const KeyValue& v) { p.acc_type = static_cast<spmma_dtype>(whole(v)); }},
    {"out", "--out", KeyKind::Type, KeyPart::Problem, 7, "D (and C) type: f32, f16, bf16 or s32 (default from the type)", 0, true, true, "d_type", "d_type",
     [](JobDraft& d, const KeyValue& v) { d.out_given = true; return type_of(v, d.job.problem.d); },
     [](const Job& j) -> Got { return KeyValue{std::string(name(j.problem.d))}; },
     [](const spmma_problem& p) { return abi_int(p.d_type); },
     [](spmma_problem& p, const KeyValue& v) { p.d_type = static_cast<spmma_dtype>(whole(v)); }},
    {"pattern", "--pattern", KeyKind::Choice, KeyPart::Problem, 9, "Sparsity of A: 2:4, 1:2, 4:8 (default from the type)", 0, true, true, nullptr, "pattern",
     [](JobDraft& d, const KeyValue& v) {
         d.pattern_given = true;
         return choice_of(v, d.job.problem.pattern, parse_pattern, "pattern", "2:4, 1:2, 4:8");
     },
     [](const Job& j) -> Got { return KeyValue{std::string(name(j.problem.pattern))}; },
     [](const spmma_problem& p) { return abi_int(p.pattern); },
     [](spmma_problem& p, const KeyValue& v) { p.pattern = static_cast<spmma_pattern>(whole(v)); }},
    {"satfinite", "--satfinite", KeyKind::Flag, KeyPart::Problem, 21, "Saturate the s32 accumulation (.satfinite)", 0, false, true, nullptr, "satfinite",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.saturate = std::get<bool>(v); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{j.problem.saturate}; },
     [](const spmma_problem& p) { return abi_int(p.saturate); }, [](spmma_problem& p, const KeyValue& v) { p.saturate = static_cast<int32_t>(whole(v)); }},
    {"scale_type", "--scale-type", KeyKind::Type, KeyPart::Problem, 8, "Block scales: ue8m0 or ue4m3 (none when absent)", 0, false, true, nullptr, "scale",
     [](JobDraft& d, const KeyValue& v) { return type_of(v, d.job.problem.scale); },
     [](const Job& j) -> Got { return scaled(j) ? Got{std::string(name(j.problem.scale))} : std::nullopt; },
     [](const spmma_problem& p) { return abi_int(p.scale_type); },
     [](spmma_problem& p, const KeyValue& v) { p.scale_type = static_cast<spmma_dtype>(whole(v)); }},
    {"scale_block", "--scale-block", KeyKind::Integer, KeyPart::Problem, 18,
     "k elements per block scale: 16, 32 or 64 (default 64 for ue8m0, 32 for ue4m3)", 1, true, true, nullptr, "scale",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.scale_block = static_cast<int>(whole(v)); return std::nullopt; },
     [](const Job& j) -> Got { return scaled(j) ? Got{int64_t{j.problem.scale_block}} : std::nullopt; },
     [](const spmma_problem& p) { return abi_int(p.scale_block); }, [](spmma_problem& p, const KeyValue& v) { p.scale_block = static_cast<int32_t>(whole(v)); }},
    {"scale_gen", "--scale-gen", KeyKind::Choice, KeyPart::Problem, 11,
     "Block scales: random (in --scale-min..--scale-max) or amax (from real-valued operands)", 0, false, true, nullptr, nullptr,
     [](JobDraft& d, const KeyValue& v) { return choice_of(v, d.job.problem.scale_gen, parse_scale_gen, "scale generation", "random, amax"); },
     [](const Job& j) -> Got { return scaled(j) ? Got{std::string(name(j.problem.scale_gen))} : std::nullopt; }, nullptr, nullptr},
    {"scale_min", "--scale-min", KeyKind::Number, KeyPart::Problem, 19, "Smallest random block scale", 0, false, true, "scale_range", nullptr,
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.scale_min = std::get<double>(v); return std::nullopt; },
     [](const Job& j) -> Got { return random_scales(j) ? Got{j.problem.scale_min} : std::nullopt; }, nullptr, nullptr},
    {"scale_max", "--scale-max", KeyKind::Number, KeyPart::Problem, 20, "Largest random block scale", 0, false, true, "scale_range", nullptr,
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.scale_max = std::get<double>(v); return std::nullopt; },
     [](const Job& j) -> Got { return random_scales(j) ? Got{j.problem.scale_max} : std::nullopt; }, nullptr, nullptr},
    {"alpha", "--alpha", KeyKind::Number, KeyPart::Problem, 13, "D = alpha*A*B + beta*C", 0, false, true, nullptr, "alpha",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.alpha = std::get<double>(v); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{j.problem.alpha}; },
     [](const spmma_problem& p) { return KeyValue{p.alpha}; }, [](spmma_problem& p, const KeyValue& v) { p.alpha = std::get<double>(v); }},
    {"beta", "--beta", KeyKind::Number, KeyPart::Problem, 14, "D = alpha*A*B + beta*C (0: C is not read)", 0, false, true, nullptr, "beta",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.beta = std::get<double>(v); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{j.problem.beta}; },
     [](const spmma_problem& p) { return KeyValue{p.beta}; }, [](spmma_problem& p, const KeyValue& v) { p.beta = std::get<double>(v); }},
    {"dist", "--dist", KeyKind::Choice, KeyPart::Problem, 10, "Operand values: int (small integers, exact), uniform, normal", 0, false, true, nullptr, "dist",
     [](JobDraft& d, const KeyValue& v) { return choice_of(v, d.job.problem.dist, parse_distribution, "distribution", "int, uniform, normal"); },
     [](const Job& j) -> Got { return KeyValue{std::string(name(j.problem.dist))}; }, nullptr, nullptr},
    {"seed", "--seed", KeyKind::Integer, KeyPart::Problem, 15, "Seed of the operand generator", 0, false, true, nullptr, "seed",
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.problem.seed = whole_unsigned(v); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{j.problem.seed}; }, nullptr, nullptr},
    {"row_scale", "--row-scale", KeyKind::Vector, KeyPart::Problem, 22,
     "Epilogue: an f32 scale per row of D, 'random' (drawn from the seed, in [1/4, 4]) or one value for every row", 0, false, true, nullptr, "row_scale",
     [](JobDraft& d, const KeyValue& v) { return epilogue_part(d, &EpilogueSpec::row_scale, v); },
     [](const Job& j) { return epilogue_text(j, &EpilogueSpec::row_scale); },
     [](const spmma_problem& p) { return abi_int(p.row_scale); }, [](spmma_problem& p, const KeyValue& v) { p.row_scale = static_cast<int32_t>(whole(v)); }},
    {"col_scale", "--col-scale", KeyKind::Vector, KeyPart::Problem, 23, "Epilogue: an f32 scale per column of D, 'random' or one value", 0, false, true, nullptr, "col_scale",
     [](JobDraft& d, const KeyValue& v) { return epilogue_part(d, &EpilogueSpec::col_scale, v); },
     [](const Job& j) { return epilogue_text(j, &EpilogueSpec::col_scale); },
     [](const spmma_problem& p) { return abi_int(p.col_scale); }, [](spmma_problem& p, const KeyValue& v) { p.col_scale = static_cast<int32_t>(whole(v)); }},
    // The wire carries the bias's axis here and its type beside c_type (execution.cpp).
    {"bias", "--bias", KeyKind::Choice, KeyPart::Problem, 24,
     "Epilogue: a bias per row or column, AXIS[,TYPE][,VALUE]: row or col, f32 or D's type (the default), one value (drawn from the seed when absent)",
     0, true, true, nullptr, "bias",
     [](JobDraft& d, const KeyValue& v) { return epilogue_part(d, &EpilogueSpec::bias, v); },
     [](const Job& j) { return epilogue_text(j, &EpilogueSpec::bias); },
     [](const spmma_problem& p) { return abi_int(p.bias); }, [](spmma_problem& p, const KeyValue& v) { p.bias = static_cast<int32_t>(whole(v)); }},
    {"activation", "--activation", KeyKind::Choice, KeyPart::Problem, 25, "Epilogue: none, relu, gelu-tanh or silu, applied last", 0, false, true, nullptr, "activation",
     [](JobDraft& d, const KeyValue& v) { return epilogue_part(d, &EpilogueSpec::activation, v); },
     [](const Job& j) { return epilogue_text(j, &EpilogueSpec::activation); },
     [](const spmma_problem& p) { return abi_int(p.activation); }, [](spmma_problem& p, const KeyValue& v) { p.activation = static_cast<int32_t>(whole(v)); }},
    {"warmup", "--warmup", KeyKind::Integer, KeyPart::Run, 16, "Untimed launches before timing", 0, false, true, nullptr, nullptr,
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.warmup = static_cast<int>(whole(v)); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{int64_t{j.warmup}}; }, nullptr, nullptr},
    {"iterations", "--iterations", KeyKind::Integer, KeyPart::Run, 17, "Timed launches", 1, false, true, nullptr, nullptr,
     [](JobDraft& d, const KeyValue& v) -> Reason { d.job.iterations = static_cast<int>(whole(v)); return std::nullopt; },
     [](const Job& j) -> Got { return KeyValue{int64_t{j.iterations}}; }, nullptr, nullptr},
    {"verify", "--verify", KeyKind::Choice, KeyPart::Run, 12, "full, sampled, auto (full below a size) or none", 0, false, true, nullptr, nullptr,
     [](JobDraft& d, const KeyValue& v) { return choice_of(v, d.job.verify, verify_mode, "mode", "full, sampled, auto, none"); },
     [](const Job& j) -> Got { return KeyValue{std::string(reference::to_string(j.verify))}; }, nullptr, nullptr},
};
// clang-format on

}  // namespace

const std::vector<ProblemKey>& problem_keys() { return kKeys; }

const ProblemKey* find_problem_key(std::string_view name) {
    for (const ProblemKey& k : kKeys)
        if (name == k.name) return &k;
    return nullptr;
}

const ProblemKey& problem_key(std::string_view name) {
    if (const ProblemKey* k = find_problem_key(name)) return *k;
    throw std::logic_error(fmt::format("no problem key '{}'", name));
}

std::vector<const ProblemKey*> keys_in_sweep_order() {
    std::vector<const ProblemKey*> out;
    for (const ProblemKey& k : kKeys) out.push_back(&k);
    std::sort(out.begin(), out.end(), [](const ProblemKey* a, const ProblemKey* b) { return a->sweep < b->sweep; });
    return out;
}

std::variant<KeyValue, std::string> parse_key_text(const ProblemKey& key, const std::string& s) {
    switch (key.kind) {
        case KeyKind::Type:
        case KeyKind::Choice:
        case KeyKind::Vector: return KeyValue{s};
        case KeyKind::Flag:
            if (s == "true" || s == "1") return KeyValue{true};
            if (s == "false" || s == "0") return KeyValue{false};
            return fmt::format("must be true or false, not '{}'", s);
        case KeyKind::Size:
        case KeyKind::Integer: {
            const char* end = s.data() + s.size();
            int64_t v = 0;
            if (auto [p, ec] = std::from_chars(s.data(), end, v); ec == std::errc() && p == end && !s.empty()) return KeyValue{v};
            uint64_t u = 0;  // seeds take the whole unsigned range
            if (auto [p, ec] = std::from_chars(s.data(), end, u); ec == std::errc() && p == end && !s.empty()) return KeyValue{u};
            return fmt::format("must be an integer, not '{}'", s);
        }
        case KeyKind::Number: {
            char* end = nullptr;
            errno = 0;
            const double v = std::strtod(s.c_str(), &end);
            // An overflow (1e400) is refused; an underflow reads as the tiny value strtod gives.
            if (s.empty() || end != s.c_str() + s.size() || (errno == ERANGE && std::abs(v) == HUGE_VAL))
                return fmt::format("must be a number, not '{}'", s);
            return KeyValue{v};
        }
    }
    return fmt::format("cannot read '{}'", s);
}

std::optional<std::string> set_key(const ProblemKey& key, JobDraft& draft, const KeyValue& value) {
    KeyValue v = value;
    switch (key.kind) {
        case KeyKind::Size:
        case KeyKind::Integer:
            if (!std::holds_alternative<int64_t>(v) && !std::holds_alternative<uint64_t>(v)) return std::string("must be an integer");
            if (std::holds_alternative<int64_t>(v) && std::get<int64_t>(v) < key.min)
                return fmt::format("must be {} or more, not {}", key.min, std::get<int64_t>(v));
            break;
        case KeyKind::Number:
            if (std::holds_alternative<int64_t>(v)) v = static_cast<double>(std::get<int64_t>(v));
            if (!std::holds_alternative<double>(v)) return std::string("must be a number");
            break;
        case KeyKind::Flag:
            if (!std::holds_alternative<bool>(v)) return std::string("must be true or false");
            break;
        case KeyKind::Type:
        case KeyKind::Choice:
        case KeyKind::Vector:
            if (!std::holds_alternative<std::string>(v)) return std::string("must be a string");
            break;
    }
    return key.set(draft, v);
}

std::string key_text(const KeyValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>) return v ? "1" : "0";
            else if constexpr (std::is_same_v<T, std::string>) return v;
            else return fmt::format("{}", v);
        },
        value);
}

std::optional<Invalid> finish_draft(JobDraft& draft) {
    apply_default_types(draft.job.problem, draft.acc_given, draft.out_given, draft.pattern_given);
    return validate(draft.job.problem);
}

void for_each_combination(const std::vector<KeyDimension>& dims, const JobDraft& base, const std::function<void(JobDraft&)>& each) {
    size_t total = 1;
    for (const auto& d : dims) total *= d.values.size();
    std::vector<size_t> idx(dims.size(), 0);
    for (size_t count = 0; count < total; ++count) {
        JobDraft x = base;
        for (size_t d = 0; d < dims.size(); ++d) dims[d].key->set(x, dims[d].values[idx[d]]);
        each(x);
        for (size_t d = dims.size(); d-- > 0;) {
            if (++idx[d] < dims[d].values.size()) break;
            idx[d] = 0;
        }
    }
}

}  // namespace spmma

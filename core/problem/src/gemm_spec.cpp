#include <spmma/core/gemm_spec.hpp>

#include <spmma/core/sizes.hpp>

#include <fmt/format.h>

#include <stdexcept>

namespace spmma {
namespace {

// The command-line option for a problem key.
std::string option_for(const std::string& key, const GemmSpec& s) {
    if ((key == "a_type" && s.a_type.empty()) || (key == "b_type" && s.b_type.empty())) return "--dtype";
    if (key == "satfinite") return "--satfinite";
    if (key == "bias_type") return "--bias";
    std::string o = "--" + key;
    for (char& c : o)
        if (c == '_') c = '-';
    return o;
}

DType dtype_or_throw(const std::string& s, const char* option) {
    if (auto t = parse_dtype(s)) return *t;
    throw std::invalid_argument(fmt::format("{}: unknown type '{}'", option, s));
}

std::vector<int64_t> sizes_or_throw(const std::string& s, const char* option) {
    if (s.empty()) throw std::invalid_argument(fmt::format("{} is required", option));
    try {
        return parse_size_list(s);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: {}", option, e.what()));
    }
}


// The spec with a named op's types and epilogue filled in where the options left them empty.
GemmSpec with_op(GemmSpec s) {
    if (s.op.empty()) return s;
    const OpPreset* op = find_op_preset(s.op);
    if (!op) {
        std::string names;
        for (const auto& o : op_presets()) names += (names.empty() ? "" : ", ") + std::string(o.name);
        throw std::invalid_argument(fmt::format("--op: unknown op '{}' (known: {})", s.op, names));
    }
    if (s.dtypes.empty() && s.a_type.empty()) s.a_type = op->a_type;
    if (s.dtypes.empty() && s.b_type.empty()) s.b_type = op->b_type;
    if (s.out.empty()) s.out = op->out;
    EpilogueSpec& e = s.epilogue;
    if (e.row_scale.empty()) e.row_scale = op->epilogue.row_scale;
    if (e.col_scale.empty()) e.col_scale = op->epilogue.col_scale;
    if (e.bias.empty()) e.bias = op->epilogue.bias;
    if (e.activation.empty()) e.activation = op->epilogue.activation;
    return s;
}

}  // namespace

std::vector<Job> jobs_from_spec(const GemmSpec& given) {
    const GemmSpec s = with_op(given);
    const auto ms = sizes_or_throw(s.m, "--m");
    const auto ns = sizes_or_throw(s.n, "--n");
    const auto ks = sizes_or_throw(s.k, "--k");
    std::vector<std::string> dtypes = s.dtypes;
    if (dtypes.empty()) dtypes.push_back(s.a_type.empty() ? "f16" : s.a_type);

    Job base;
    base.source = "command line";
    base.warmup = s.warmup;
    base.iterations = s.iterations;
    if (s.warmup < 0) throw std::invalid_argument("--warmup: must be 0 or more");
    if (s.iterations < 1) throw std::invalid_argument("--iterations: must be 1 or more");
    if (!reference::parse_verify_mode(s.verify, base.verify))
        throw std::invalid_argument(fmt::format("--verify: unknown mode '{}' (full, sampled, auto, none)", s.verify));
    Problem& p = base.problem;
    const auto dist = parse_distribution(s.dist);
    if (!dist) throw std::invalid_argument(fmt::format("--dist: unknown distribution '{}' (int, uniform, normal)", s.dist));
    p.dist = *dist;
    p.seed = s.seed;
    p.alpha = s.alpha;
    p.beta = s.beta;
    p.saturate = s.satfinite;
    if (!s.scale_type.empty()) {
        p.scale = dtype_or_throw(s.scale_type, "--scale-type");
        p.scale_block = s.scale_block;
        const auto g = parse_scale_gen(s.scale_gen);
        if (!g) throw std::invalid_argument(fmt::format("--scale-gen: unknown scale generation '{}' (random, amax)", s.scale_gen));
        p.scale_gen = *g;
        p.scale_min = s.scale_min;
        p.scale_max = s.scale_max;
    }
    if (!s.acc.empty()) p.acc = dtype_or_throw(s.acc, "--acc");
    if (!s.out.empty()) p.d = dtype_or_throw(s.out, "--out");
    if (!s.pattern.empty()) {
        const auto pat = parse_pattern(s.pattern);
        if (!pat) throw std::invalid_argument(fmt::format("--pattern: unknown pattern '{}' (2:4, 1:2, 4:8)", s.pattern));
        p.pattern = *pat;
    }
    if (const auto bad = apply_epilogue_spec(s.epilogue, p)) throw std::invalid_argument(fmt::format("{}: {}", option_for(bad->key, s), bad->message));

    std::vector<Job> jobs;
    for (const auto& dt : dtypes)
        for (int64_t m : ms)
            for (int64_t n : ns)
                for (int64_t k : ks) {
                    Job j = base;
                    j.problem.m = m;
                    j.problem.n = n;
                    j.problem.k = k;
                    j.problem.a = j.problem.b = dtype_or_throw(dt, "--dtype");
                    if (!s.a_type.empty()) j.problem.a = dtype_or_throw(s.a_type, "--a-type");
                    if (!s.b_type.empty()) j.problem.b = dtype_or_throw(s.b_type, "--b-type");
                    apply_default_types(j.problem, !s.acc.empty(), !s.out.empty(), !s.pattern.empty());
                    if (const auto bad = validate(j.problem))
                        throw std::invalid_argument(fmt::format("{}: {} ({})", option_for(bad->key, s), bad->message, j.problem.label()));
                    jobs.push_back(std::move(j));
                }
    return jobs;
}

}  // namespace spmma

#include <spmma/core/gemm_spec.hpp>

#include <spmma/core/sizes.hpp>

#include <fmt/format.h>

#include <optional>
#include <stdexcept>

namespace spmma {
namespace {

// The command-line option for a problem key.
std::string option_for(const std::string& key, const GemmSpec& s) {
    if (key == "a" || key == "b" || key == "c") return "--" + key;
    if ((key == "a_type" && s.a_type.empty()) || (key == "b_type" && s.b_type.empty())) return "--dtype";
    if (key == "satfinite") return "--satfinite";
    std::string o = "--" + key;
    for (char& c : o)
        if (c == '_') c = '-';
    return o;
}

DType dtype_or_throw(const std::string& s, const char* option) {
    if (auto t = parse_dtype(s)) return *t;
    throw std::invalid_argument(fmt::format("{}: unknown type '{}'", option, s));
}

std::vector<int64_t> sizes_or_throw(const std::string& s, const char* option, const char* given_by) {
    if (s.empty()) throw std::invalid_argument(fmt::format("{} is required (or {}, whose tensor gives it)", option, given_by));
    try {
        return parse_size_list(s);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: {}", option, e.what()));
    }
}

std::optional<TensorFacts> probe_file(const TensorProbe& probe, const std::string& ref, const char* option) {
    if (ref.empty()) return std::nullopt;
    if (!probe) throw std::invalid_argument(fmt::format("{}: operands from files are not read here", option));
    try {
        return probe(ref);
    } catch (const std::runtime_error& e) {
        throw std::invalid_argument(fmt::format("{}: {}", option, e.what()));
    }
}

}  // namespace

std::vector<Job> jobs_from_spec(const GemmSpec& s, const TensorProbe& probe) {
    FileFacts files;
    files.a = probe_file(probe, s.a_file, "--a");
    files.b = probe_file(probe, s.b_file, "--b");
    files.c = probe_file(probe, s.c_file, "--c");
    // The tensors give the sizes not given (A: m x k, B: n x k); given ones are checked below.
    const auto size_or_file = [](const std::string& given, const std::optional<TensorFacts>& t, int64_t TensorFacts::*dim) {
        return given.empty() && t ? std::to_string((*t).*dim) : given;
    };
    const auto ms = sizes_or_throw(size_or_file(s.m, files.a, &TensorFacts::rows), "--m", "--a");
    const auto ns = sizes_or_throw(size_or_file(s.n, files.b, &TensorFacts::rows), "--n", "--b");
    const auto ks = sizes_or_throw(size_or_file(s.k, files.a ? files.a : files.b, &TensorFacts::cols), "--k", "--a");
    std::vector<std::string> dtypes = s.dtypes;
    if (dtypes.empty() && s.a_type.empty() && (files.a || files.b)) {
        const TensorFacts& t = files.a ? *files.a : *files.b;
        if (files.natural_type() == DType::None)
            throw std::invalid_argument(fmt::format("{}: {} holds {}, which does not say its type: give --dtype", files.a ? "--a" : "--b",
                                                    t.ref, t.stored));
        dtypes.push_back(name(files.natural_type()));
    }
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
                    if (const auto bad = check_operand_files(j.problem, files)) {
                        // A size not given came from a tensor: the operand whose tensor disagrees is at fault.
                        const std::string& given = bad->key == "m" ? s.m : bad->key == "n" ? s.n : s.k;
                        const bool size = bad->key == "m" || bad->key == "n" || bad->key == "k";
                        throw std::invalid_argument(fmt::format("{}: {}", option_for(size && given.empty() ? bad->operand : bad->key, s), bad->message));
                    }
                    j.files = files.files();
                    jobs.push_back(std::move(j));
                }
    return jobs;
}

}  // namespace spmma

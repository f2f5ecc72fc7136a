#include <spmma/core/workload.hpp>

#include <spmma/core/epilogue_spec.hpp>
#include <spmma/core/sizes.hpp>

#include <fmt/format.h>
#include <toml++/toml.h>

#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

namespace spmma {

WorkloadError::WorkloadError(std::string f, int64_t l, std::string k, const std::string& message)
    : std::runtime_error(k.empty() ? fmt::format("{}:{}: {}", f, l, message) : fmt::format("{}:{}: {}: {}", f, l, k, message)),
      file(std::move(f)), line(l), key(std::move(k)) {}

const std::vector<std::string>& workload_keys() {
    static const std::vector<std::string> keys = {
        "name", "m", "n", "k", "dtype", "a_type", "b_type", "acc", "out", "pattern", "satfinite", "alpha", "beta",
        "scale_type", "scale_block", "scale_gen", "scale_min", "scale_max", "row_scale", "col_scale", "bias", "activation", "dist", "seed",
        "warmup", "iterations", "verify", "plugins", "kernels"};
    return keys;
}

namespace {

int64_t line_of(const toml::node& n) { return static_cast<int64_t>(n.source().begin.line); }

// A job under construction, with what the file said explicitly.
struct Draft {
    Job job;
    bool acc_given = false, out_given = false, pattern_given = false;
};
using Setter = std::function<void(Draft&)>;

class Parser {
public:
    Parser(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void error(const toml::node& at, const std::string& key, const std::string& msg) const {
        throw WorkloadError(file_, line_of(at), key, msg);
    }

    std::vector<Job> parse(std::string_view text) {
        toml::table root;
        try {
            root = toml::parse(text, file_);
        } catch (const toml::parse_error& e) {
            throw WorkloadError(file_, static_cast<int64_t>(e.source().begin.line), "", std::string(e.description()));
        }
        for (auto&& [k, v] : root) {
            const std::string key(k.str());
            if (key != "version" && key != "name" && key != "description" && key != "defaults" && key != "problem" && key != "sweep")
                error(v, key, "unknown key (expected version, name, description, defaults, problem, sweep)");
        }
        const toml::node* version = root.get("version");
        if (!version) throw WorkloadError(file_, 1, "version", "missing: a workload file starts with version = 1");
        if (!version->is_integer()) error(*version, "version", "must be an integer");
        if (version->as_integer()->get() != 1)
            error(*version, "version", fmt::format("this spmma reads version 1, the file says {}", version->as_integer()->get()));
        for (const char* key : {"name", "description"})
            if (const toml::node* n = root.get(key); n && !n->is_string()) error(*n, key, "must be a string");

        if (const toml::node* d = root.get("defaults")) {
            if (!d->is_table()) error(*d, "defaults", "must be a table ([defaults])");
            defaults_ = d->as_table();
            check_keys(*defaults_, "defaults");
        }
        // [[problem]] and [[sweep]] entries in the order the file has them.
        std::vector<std::pair<const toml::table*, bool>> entries;
        for (const char* kind : {"problem", "sweep"}) {
            const toml::node* arr = root.get(kind);
            if (!arr) continue;
            if (!arr->is_array_of_tables())
                error(*arr, kind, fmt::format("must be an array of tables ([[{}]])", kind));
            for (const toml::node& entry : *arr->as_array()) {
                check_keys(*entry.as_table(), kind);
                entries.emplace_back(entry.as_table(), std::string(kind) == "sweep");
            }
        }
        if (entries.empty()) throw WorkloadError(file_, 1, "", "no [[problem]] or [[sweep]] in the file");
        std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return line_of(*a.first) < line_of(*b.first); });
        std::vector<Job> jobs;
        for (const auto& [table, sweep] : entries) expand(*table, sweep, jobs);
        return jobs;
    }

private:
    void check_keys(const toml::table& t, const std::string& where) const {
        const auto& keys = workload_keys();
        for (auto&& [k, v] : t)
            if (std::find(keys.begin(), keys.end(), std::string(k.str())) == keys.end())
                error(v, std::string(k.str()), fmt::format("unknown key in [{}] (known: {})", where, fmt::join(keys, ", ")));
    }

    // The node for a key: the entry's own, else [defaults]'s.
    const toml::node* lookup(const toml::table& t, const std::string& key) const {
        if (const toml::node* n = t.get(key)) return n;
        if (defaults_) return defaults_->get(key);
        return nullptr;
    }

    // The values a key takes: one, or (in a sweep) several from an array.
    std::vector<const toml::node*> values(const toml::node& n, const std::string& key, bool sweep, bool always_list = false) const {
        if (const toml::array* a = n.as_array()) {
            if (!sweep && !always_list) error(n, key, "a [[problem]] takes one value; use [[sweep]] for lists");
            if (a->empty()) error(n, key, "empty list");
            std::vector<const toml::node*> out;
            for (const toml::node& e : *a) out.push_back(&e);
            return out;
        }
        return {&n};
    }

    std::string string_value(const toml::node& n, const std::string& key) const {
        if (!n.is_string()) error(n, key, fmt::format("must be a string, not {}", type_name(n)));
        return n.as_string()->get();
    }

    static std::string type_name(const toml::node& n) {
        std::ostringstream os;
        os << n.type();
        return os.str();
    }

    void expand(const toml::table& t, bool sweep, std::vector<Job>& out) const {
        std::vector<std::vector<Setter>> dims;
        const int64_t line = line_of(t);
        std::string source = fmt::format("{}:{}", file_, line);
        if (const toml::node* n = lookup(t, "name")) source += " (" + string_value(*n, "name") + ")";

        // Sizes: an integer, a list of integers, or (sweeps) a range/list string.
        for (const char* dim : {"m", "n", "k"}) {
            const toml::node* n = lookup(t, dim);
            if (!n) error(t, dim, "missing");
            std::vector<int64_t> sizes;
            for (const toml::node* v : values(*n, dim, sweep)) {
                if (v->is_integer()) {
                    const int64_t x = v->as_integer()->get();
                    if (x < 1) error(*v, dim, fmt::format("must be 1 or more, not {}", x));
                    sizes.push_back(x);
                } else if (v->is_string() && sweep) {
                    try {
                        const auto r = parse_size_list(v->as_string()->get());
                        sizes.insert(sizes.end(), r.begin(), r.end());
                    } catch (const std::invalid_argument& e) {
                        error(*v, dim, e.what());
                    }
                } else {
                    error(*v, dim, sweep ? "must be an integer, a list of integers or a range string \"start:end:step\""
                                         : fmt::format("must be an integer, not {}", type_name(*v)));
                }
            }
            std::vector<Setter> d;
            for (int64_t s : sizes)
                d.push_back([dim = std::string(dim), s](Draft& x) {
                    (dim == "m" ? x.job.problem.m : dim == "n" ? x.job.problem.n : x.job.problem.k) = s;
                });
            dims.push_back(std::move(d));
        }

        auto type_dim = [&](const std::string& key, auto apply) {
            const toml::node* n = lookup(t, key);
            if (!n) return;
            std::vector<Setter> d;
            for (const toml::node* v : values(*n, key, sweep)) {
                const std::string s = string_value(*v, key);
                const auto dt = parse_dtype(s);
                if (!dt) error(*v, key, fmt::format("unknown type '{}'", s));
                d.push_back([apply, dt = *dt](Draft& x) { apply(x, dt); });
            }
            dims.push_back(std::move(d));
        };
        // dtype first: a_type / b_type refine it.
        type_dim("dtype", [](Draft& x, DType t) { x.job.problem.a = x.job.problem.b = t; });
        type_dim("a_type", [](Draft& x, DType t) { x.job.problem.a = t; });
        type_dim("b_type", [](Draft& x, DType t) { x.job.problem.b = t; });
        type_dim("acc", [](Draft& x, DType t) { x.job.problem.acc = t; x.acc_given = true; });
        type_dim("out", [](Draft& x, DType t) { x.job.problem.d = t; x.out_given = true; });
        type_dim("scale_type", [](Draft& x, DType t) { x.job.problem.scale = t; });

        auto string_dim = [&](const std::string& key, auto parse_and_apply) {
            const toml::node* n = lookup(t, key);
            if (!n) return;
            std::vector<Setter> d;
            for (const toml::node* v : values(*n, key, sweep)) d.push_back(parse_and_apply(*v, string_value(*v, key)));
            dims.push_back(std::move(d));
        };
        string_dim("pattern", [&](const toml::node& v, const std::string& s) -> Setter {
            const auto p = parse_pattern(s);
            if (!p) error(v, "pattern", fmt::format("unknown pattern '{}' (2:4, 1:2, 4:8)", s));
            return [p = *p](Draft& x) { x.job.problem.pattern = p; x.pattern_given = true; };
        });
        string_dim("dist", [&](const toml::node& v, const std::string& s) -> Setter {
            const auto d = parse_distribution(s);
            if (!d) error(v, "dist", fmt::format("unknown distribution '{}' (int, uniform, normal)", s));
            return [d = *d](Draft& x) { x.job.problem.dist = d; };
        });
        string_dim("scale_gen", [&](const toml::node& v, const std::string& s) -> Setter {
            const auto g = parse_scale_gen(s);
            if (!g) error(v, "scale_gen", fmt::format("unknown scale generation '{}' (random, amax)", s));
            return [g = *g](Draft& x) { x.job.problem.scale_gen = g; };
        });
        string_dim("verify", [&](const toml::node& v, const std::string& s) -> Setter {
            reference::VerifyMode m;
            if (!reference::parse_verify_mode(s, m)) error(v, "verify", fmt::format("unknown mode '{}' (full, sampled, auto, none)", s));
            return [m](Draft& x) { x.job.verify = m; };
        });

        // The epilogue: each key a string as --row-scale etc. take it (a scale may be a number too),
        // read by the one parser of core/problem/epilogue_spec.hpp.
        for (const char* key : {"row_scale", "col_scale", "bias", "activation"}) {
            const toml::node* n = lookup(t, key);
            if (!n) continue;
            std::vector<Setter> d;
            for (const toml::node* v : values(*n, key, sweep)) {
                const bool scale = std::string(key) != "bias" && std::string(key) != "activation";
                std::string text;
                if (scale && (v->is_integer() || v->is_floating_point())) text = fmt::format("{}", v->value<double>().value_or(0));
                else if (v->is_string()) text = v->as_string()->get();
                else error(*v, key, fmt::format("must be {}, not {}", scale ? "\"random\" or a number" : "a string", type_name(*v)));
                EpilogueSpec spec;
                (std::string(key) == "row_scale" ? spec.row_scale : std::string(key) == "col_scale" ? spec.col_scale
                 : std::string(key) == "bias" ? spec.bias : spec.activation) = text;
                Problem probe;
                if (const auto bad = apply_epilogue_spec(spec, probe)) error(*v, key, bad->message);
                d.push_back([spec](Draft& x) { apply_epilogue_spec(spec, x.job.problem); });
            }
            dims.push_back(std::move(d));
        }

        auto number_dim = [&](const std::string& key, bool integer, double lo, auto apply) {
            const toml::node* n = lookup(t, key);
            if (!n) return;
            std::vector<Setter> d;
            for (const toml::node* v : values(*n, key, sweep)) {
                double x;
                if (v->is_integer()) x = static_cast<double>(v->as_integer()->get());
                else if (v->is_floating_point() && !integer) x = v->as_floating_point()->get();
                else error(*v, key, fmt::format("must be {}, not {}", integer ? "an integer" : "a number", type_name(*v)));
                if (x < lo) error(*v, key, fmt::format("must be {} or more, not {}", lo, x));
                d.push_back([apply, x](Draft& j) { apply(j, x); });
            }
            dims.push_back(std::move(d));
        };
        constexpr double kAny = -1e308;
        number_dim("alpha", false, kAny, [](Draft& x, double v) { x.job.problem.alpha = v; });
        number_dim("beta", false, kAny, [](Draft& x, double v) { x.job.problem.beta = v; });
        number_dim("seed", true, 0, [](Draft& x, double v) { x.job.problem.seed = static_cast<uint64_t>(v); });
        number_dim("warmup", true, 0, [](Draft& x, double v) { x.job.warmup = static_cast<int>(v); });
        number_dim("iterations", true, 1, [](Draft& x, double v) { x.job.iterations = static_cast<int>(v); });
        number_dim("scale_block", true, 1, [](Draft& x, double v) { x.job.problem.scale_block = static_cast<int>(v); });
        number_dim("scale_min", false, kAny, [](Draft& x, double v) { x.job.problem.scale_min = v; });
        number_dim("scale_max", false, kAny, [](Draft& x, double v) { x.job.problem.scale_max = v; });

        if (const toml::node* n = lookup(t, "satfinite")) {
            std::vector<Setter> d;
            for (const toml::node* v : values(*n, "satfinite", sweep)) {
                if (!v->is_boolean()) error(*v, "satfinite", fmt::format("must be true or false, not {}", type_name(*v)));
                d.push_back([b = v->as_boolean()->get()](Draft& x) { x.job.problem.saturate = b; });
            }
            dims.push_back(std::move(d));
        }

        // Filters: a string or a list of strings, not a product dimension.
        std::vector<std::string> plugins, kernels;
        for (auto [key, dst] : {std::pair{"plugins", &plugins}, std::pair{"kernels", &kernels}}) {
            const toml::node* n = lookup(t, key);
            if (!n) continue;
            for (const toml::node* v : values(*n, key, sweep, true)) dst->push_back(string_value(*v, key));
        }

        size_t total = 1;
        for (const auto& d : dims) {
            total *= d.size();
            if (total > 1000000) error(t, "", "this entry expands to more than a million problems");
        }
        std::vector<size_t> idx(dims.size(), 0);
        for (size_t count = 0; count < total; ++count) {
            Draft x;
            x.job.source = source;
            x.job.plugins = plugins;
            x.job.kernels = kernels;
            for (size_t d = 0; d < dims.size(); ++d) dims[d][idx[d]](x);
            Problem& p = x.job.problem;
            apply_default_types(p, x.acc_given, x.out_given, x.pattern_given);
            if (const auto bad = validate(p)) {
                // Blame the key as written (a_type/b_type may have come from dtype).
                std::string key = bad->key;
                if ((key == "a_type" || key == "b_type") && !lookup(t, key)) key = "dtype";
                if (key == "bias_type") key = "bias";
                const toml::node* at = lookup(t, key);
                error(at ? *at : static_cast<const toml::node&>(t), key,
                      sweep ? fmt::format("{} (problem {})", bad->message, p.label()) : bad->message);
            }
            out.push_back(std::move(x.job));
            for (size_t d = dims.size(); d-- > 0;) {
                if (++idx[d] < dims[d].size()) break;
                idx[d] = 0;
            }
        }
    }

    std::string file_;
    const toml::table* defaults_ = nullptr;
};

}  // namespace

std::vector<Job> parse_workload(std::string_view text, const std::string& file_name) {
    return Parser(file_name).parse(text);
}

std::vector<Job> load_workload(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw WorkloadError(file.string(), 0, "", "cannot open the file");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_workload(ss.str(), file.string());
}

}  // namespace spmma

#include <spmma/core/workload.hpp>

#include <spmma/core/problem_keys.hpp>
#include <spmma/core/sizes.hpp>

#include <fmt/format.h>
#include <toml++/toml.h>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace spmma {

WorkloadError::WorkloadError(std::string f, int64_t l, std::string k, const std::string& message)
    : std::runtime_error(k.empty() ? fmt::format("{}:{}: {}", f, l, message) : fmt::format("{}:{}: {}: {}", f, l, k, message)),
      file(std::move(f)), line(l), key(std::move(k)) {}

const std::vector<std::string>& workload_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k = {"name"};
        for (const ProblemKey& key : problem_keys()) k.push_back(key.name);
        k.push_back("plugins");
        k.push_back("kernels");
        // Operand files: not keys of the table (read before it, they give sizes and types).
        for (const char* operand : {"a", "b", "c"}) k.push_back(operand);
        return k;
    }();
    return keys;
}

namespace {

int64_t line_of(const toml::node& n) { return static_cast<int64_t>(n.source().begin.line); }

class Parser {
public:
    Parser(std::string file, TensorProbe probe) : file_(std::move(file)), probe_(std::move(probe)) {}

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

    // The values a TOML node gives a key, each accepted by the key (else the error names its line).
    std::vector<KeyValue> key_values(const ProblemKey& key, const toml::node& n, bool sweep) const {
        std::vector<KeyValue> out;
        for (const toml::node* v : values(n, key.name, sweep)) {
            if (key.kind == KeyKind::Size && v->is_string() && sweep) {
                try {
                    for (int64_t s : parse_size_list(v->as_string()->get())) out.emplace_back(s);
                } catch (const std::invalid_argument& e) {
                    error(*v, key.name, e.what());
                }
                continue;
            }
            KeyValue x = toml_value(key, *v, sweep);
            JobDraft scratch;
            if (const auto bad = set_key(key, scratch, x)) error(*v, key.name, *bad);
            out.push_back(std::move(x));
        }
        return out;
    }

    // One TOML value as the key's kind wants it.
    KeyValue toml_value(const ProblemKey& key, const toml::node& v, bool sweep) const {
        switch (key.kind) {
            case KeyKind::Size:
                if (v.is_integer()) return KeyValue{v.as_integer()->get()};
                error(v, key.name, sweep ? "must be an integer, a list of integers or a range string \"start:end:step\""
                                         : fmt::format("must be an integer, not {}", type_name(v)));
            case KeyKind::Integer:
                if (v.is_integer()) return KeyValue{v.as_integer()->get()};
                error(v, key.name, fmt::format("must be an integer, not {}", type_name(v)));
            case KeyKind::Number:
                if (v.is_integer()) return KeyValue{static_cast<double>(v.as_integer()->get())};
                if (v.is_floating_point()) return KeyValue{v.as_floating_point()->get()};
                error(v, key.name, fmt::format("must be a number, not {}", type_name(v)));
            case KeyKind::Flag:
                if (v.is_boolean()) return KeyValue{v.as_boolean()->get()};
                error(v, key.name, fmt::format("must be true or false, not {}", type_name(v)));
            case KeyKind::Type:
            case KeyKind::Choice: return KeyValue{string_value(v, key.name)};
            case KeyKind::Vector:
                if (v.is_string()) return KeyValue{v.as_string()->get()};
                if (v.is_integer() || v.is_floating_point()) return KeyValue{fmt::format("{}", v.value<double>().value_or(0))};
                error(v, key.name, fmt::format("must be \"random\" or a number, not {}", type_name(v)));
        }
        error(v, key.name, "unreadable value");
    }

    // The tensor a key (a, b, c) names, its path relative to the workload file's folder.
    std::optional<TensorFacts> file_operand(const toml::table& t, const char* key) const {
        const toml::node* n = lookup(t, key);
        if (!n) return std::nullopt;
        if (!n->is_string()) error(*n, key, fmt::format("must be a string (\"FILE.safetensors:TENSOR\" or \"FILE.npy\"), not {}", type_name(*n)));
        if (!probe_) error(*n, key, "operands from files are not read here");
        const std::string text = n->as_string()->get();
        const std::filesystem::path given(text);
        const std::string ref = given.is_absolute() ? text : (std::filesystem::path(file_).parent_path() / given).string();
        try {
            return probe_(ref);
        } catch (const std::runtime_error& e) {
            error(*n, key, e.what());
        }
    }

    void expand(const toml::table& t, bool sweep, std::vector<Job>& out) const {
        std::string source = fmt::format("{}:{}", file_, line_of(t));
        if (const toml::node* n = lookup(t, "name")) source += " (" + string_value(*n, "name") + ")";
        FileFacts files;
        files.a = file_operand(t, "a");
        files.b = file_operand(t, "b");
        files.c = file_operand(t, "c");

        std::vector<KeyDimension> dims;
        for (const ProblemKey* key : keys_in_sweep_order()) {
            const toml::node* n = lookup(t, key->name);
            if (!n && key->kind == KeyKind::Size && !files.size(key->name)) error(t, key->name, "missing");
            if (n) dims.push_back({key, key_values(*key, *n, sweep)});
        }
        // Filters: a string or a list of strings, not a product dimension.
        JobDraft base;
        base.job.source = source;
        for (auto [key, dst] : {std::pair{"plugins", &base.job.plugins}, std::pair{"kernels", &base.job.kernels}}) {
            const toml::node* n = lookup(t, key);
            if (!n) continue;
            for (const toml::node* v : values(*n, key, sweep, true)) dst->push_back(string_value(*v, key));
        }
        // What the tensors give when the entry does not: the sizes, and the types unless a dtype
        // is given (dtype, a_type and b_type, set on top of the base, override them).
        if (const auto m = files.size("m")) base.job.problem.m = *m;
        if (const auto n = files.size("n")) base.job.problem.n = *n;
        if (const auto k = files.size("k")) base.job.problem.k = *k;
        if ((files.a || files.b) && !lookup(t, "dtype")) {
            const DType natural = files.natural_type();
            if (natural == DType::None && !(lookup(t, "a_type") && lookup(t, "b_type"))) {
                const char* key = files.a ? "a" : "b";
                const TensorFacts& f = files.a ? *files.a : *files.b;
                error(*lookup(t, key), key, fmt::format("{} holds {}, which does not say its type: give dtype", f.ref, f.stored));
            }
            if (natural != DType::None) base.job.problem.a = base.job.problem.b = natural;
        }

        size_t total = 1;
        for (const auto& d : dims) {
            total *= d.values.size();
            if (total > 1000000) error(t, "", "this entry expands to more than a million problems");
        }
        for_each_combination(dims, base, [&](JobDraft& x) {
            if (const auto bad = finish_draft(x)) {
                // Blame the key as written (a_type/b_type may have come from dtype).
                std::string key = bad->key;
                if ((key == "a_type" || key == "b_type") && !lookup(t, key)) key = "dtype";
                if (key == "bias_type") key = "bias";
                const toml::node* at = lookup(t, key);
                error(at ? *at : static_cast<const toml::node&>(t), key,
                      sweep ? fmt::format("{} (problem {})", bad->message, x.job.problem.label()) : bad->message);
            }
            if (const auto bad = check_operand_files(x.job.problem, files)) {
                // A key the entry gave is blamed there; one it did not give came from a tensor,
                // and the operand whose tensor disagrees is at fault.
                const std::string& key = lookup(t, bad->key) ? bad->key : bad->operand;
                error(*lookup(t, key), key, bad->message);
            }
            x.job.files = files.files();
            out.push_back(std::move(x.job));
        });
    }

    std::string file_;
    TensorProbe probe_;
    const toml::table* defaults_ = nullptr;
};

}  // namespace

std::vector<Job> parse_workload(std::string_view text, const std::string& file_name, const TensorProbe& probe) {
    return Parser(file_name, probe).parse(text);
}

std::vector<Job> load_workload(const std::filesystem::path& file, const TensorProbe& probe) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw WorkloadError(file.string(), 0, "", "cannot open the file");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_workload(ss.str(), file.string(), probe);
}

}  // namespace spmma

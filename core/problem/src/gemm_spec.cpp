#include <spmma/core/gemm_spec.hpp>

#include <spmma/core/epilogue_spec.hpp>
#include <spmma/core/problem_keys.hpp>
#include <spmma/core/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace spmma {
namespace {

// A size neither given nor read from a tensor.
std::invalid_argument size_required(const ProblemKey& key) {
    return std::invalid_argument(fmt::format("{} is required (or {}, whose tensor gives it)", key.flag, std::string(key.name) == "n" ? "--b" : "--a"));
}

// The values of one key's texts, each accepted by the key; errors name the option.
std::vector<KeyValue> values_of(const ProblemKey& key, const std::vector<std::string>& texts) {
    std::vector<KeyValue> out;
    for (const std::string& text : texts) {
        if (key.kind == KeyKind::Size) {
            if (text.empty()) throw size_required(key);
            try {
                for (int64_t s : parse_size_list(text)) out.emplace_back(s);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(fmt::format("{}: {}", key.flag, e.what()));
            }
            continue;
        }
        auto parsed = parse_key_text(key, text);
        if (const std::string* bad = std::get_if<std::string>(&parsed)) throw std::invalid_argument(fmt::format("{}: {}", key.flag, *bad));
        JobDraft scratch;
        if (const auto bad = set_key(key, scratch, std::get<KeyValue>(parsed)))
            throw std::invalid_argument(fmt::format("{}: {}", key.flag, *bad));
        out.push_back(std::get<KeyValue>(parsed));
    }
    return out;
}


// The texts given, with a named op's types and epilogue filled in where the options left them out
// (the options refine the op).
std::map<std::string, std::vector<std::string>> with_op(const GemmSpec& s) {
    auto given = s.given;
    if (s.op.empty()) return given;
    const OpPreset* op = find_op_preset(s.op);
    if (!op) {
        std::string names;
        for (const auto& o : op_presets()) names += (names.empty() ? "" : ", ") + std::string(o.name);
        throw std::invalid_argument(fmt::format("--op: unknown op '{}' (known: {})", s.op, names));
    }
    const EpilogueSpec& e = op->epilogue;
    const bool typed = given.count("dtype") > 0;
    for (const auto& [key, text] : {std::pair{"a_type", typed ? "" : op->a_type}, std::pair{"b_type", typed ? "" : op->b_type},
                                    std::pair{"out", op->out}, std::pair{"row_scale", e.row_scale.c_str()},
                                    std::pair{"col_scale", e.col_scale.c_str()}, std::pair{"bias", e.bias.c_str()},
                                    std::pair{"activation", e.activation.c_str()}})
        if (*text && !given.count(key)) given[key] = {text};
    return given;
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

// The tensors' facts, and what they give the problem when the options do not: the sizes (A:
// m x k, B: n x k) and the types (A's tensor's, else B's) unless --dtype or --a-type names them.
FileFacts probe_files(const GemmSpec& s, const std::map<std::string, std::vector<std::string>>& given, const TensorProbe& probe,
                      JobDraft& base) {
    FileFacts files;
    files.a = probe_file(probe, s.a_file, "--a");
    files.b = probe_file(probe, s.b_file, "--b");
    files.c = probe_file(probe, s.c_file, "--c");
    // Sizes given on the command line are set over these (and checked against the tensors).
    if (const auto m = files.size("m")) base.job.problem.m = *m;
    if (const auto n = files.size("n")) base.job.problem.n = *n;
    if (const auto k = files.size("k")) base.job.problem.k = *k;
    if ((files.a || files.b) && !given.count("dtype")) {
        const TensorFacts& t = files.a ? *files.a : *files.b;
        if (files.natural_type() == DType::None)
            throw std::invalid_argument(fmt::format("{}: {} holds {}, which does not say its type: give --dtype", files.a ? "--a" : "--b",
                                                    t.ref, t.stored));
        base.job.problem.a = base.job.problem.b = files.natural_type();
    }
    return files;
}

// The option to blame for a problem that cannot read an operand from its tensor: a size not
// given came from a tensor, so the operand whose tensor disagrees is at fault.
std::string conflict_option(const FileConflict& bad, const std::map<std::string, std::vector<std::string>>& given) {
    const bool size = bad.key == "m" || bad.key == "n" || bad.key == "k";
    const std::string& key = size && !given.count(bad.key) ? bad.operand : bad.key;
    if (key == "a" || key == "b" || key == "c") return "--" + key;
    return problem_key(key).flag;
}

}  // namespace

std::vector<Job> jobs_from_spec(const GemmSpec& s, const TensorProbe& probe) {
    auto given = with_op(s);
    // A key given no text is a key not given (its size may then come from a tensor).
    for (auto it = given.begin(); it != given.end();) it = it->second.empty() ? given.erase(it) : std::next(it);
    // --a-type alone names both operands' type (B's own --b-type still overrides it).
    if (!given.count("dtype") && given.count("a_type")) given["dtype"] = given["a_type"];
    JobDraft base;
    base.job.source = "command line";
    const FileFacts files = probe_files(s, given, probe, base);
    std::vector<KeyDimension> dims;
    for (const ProblemKey* key : keys_in_sweep_order()) {
        const auto it = given.find(key->name);
        if (it == given.end() || it->second.empty()) {
            if (key->kind == KeyKind::Size && !files.size(key->name)) throw size_required(*key);
            continue;
        }
        dims.push_back({key, values_of(*key, it->second)});
    }
    // NOTES: spmma gemm runs each --dtype in turn with its sizes inside, unlike a workload's
    // sweep (sizes outermost); the order of its records has always been so.
    std::stable_partition(dims.begin(), dims.end(), [](const KeyDimension& d) { return std::string(d.key->name) == "dtype"; });

    std::vector<Job> jobs;
    for_each_combination(dims, base, [&](JobDraft& x) {
        if (const auto bad = finish_draft(x)) {
            const bool from_dtype = (bad->key == "a_type" && !given.count("a_type")) || (bad->key == "b_type" && !given.count("b_type"));
            // The bias's type is given with --bias (AXIS,TYPE,VALUE).
            const char* flag = from_dtype ? "--dtype" : problem_key(bad->key == "bias_type" ? "bias" : bad->key).flag;
            throw std::invalid_argument(fmt::format("{}: {} ({})", flag, bad->message, x.job.problem.label()));
        }
        if (const auto bad = check_operand_files(x.job.problem, files))
            throw std::invalid_argument(fmt::format("{}: {}", conflict_option(*bad, given), bad->message));
        x.job.files = files.files();
        jobs.push_back(std::move(x.job));
    });
    return jobs;
}

}  // namespace spmma

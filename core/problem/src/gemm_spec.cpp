#include <spmma/core/gemm_spec.hpp>

#include <spmma/core/epilogue_spec.hpp>
#include <spmma/core/problem_keys.hpp>
#include <spmma/core/sizes.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace spmma {
namespace {

// The values of one key's texts, each accepted by the key; errors name the option.
std::vector<KeyValue> values_of(const ProblemKey& key, const std::vector<std::string>& texts) {
    std::vector<KeyValue> out;
    for (const std::string& text : texts) {
        if (key.kind == KeyKind::Size) {
            if (text.empty()) throw std::invalid_argument(fmt::format("{} is required", key.flag));
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

}  // namespace

std::vector<Job> jobs_from_spec(const GemmSpec& s) {
    auto given = with_op(s);
    // --a-type alone names both operands' type (B's own --b-type still overrides it).
    if (!given.count("dtype") && given.count("a_type")) given["dtype"] = given["a_type"];
    std::vector<KeyDimension> dims;
    for (const ProblemKey* key : keys_in_sweep_order()) {
        const auto it = given.find(key->name);
        if (it == given.end() || it->second.empty()) {
            if (key->kind == KeyKind::Size) throw std::invalid_argument(fmt::format("{} is required", key->flag));
            continue;
        }
        dims.push_back({key, values_of(*key, it->second)});
    }
    // NOTES: spmma gemm runs each --dtype in turn with its sizes inside, unlike a workload's
    // sweep (sizes outermost); the order of its records has always been so.
    std::stable_partition(dims.begin(), dims.end(), [](const KeyDimension& d) { return std::string(d.key->name) == "dtype"; });

    JobDraft base;
    base.job.source = "command line";
    std::vector<Job> jobs;
    for_each_combination(dims, base, [&](JobDraft& x) {
        if (const auto bad = finish_draft(x)) {
            const bool from_dtype = (bad->key == "a_type" && !given.count("a_type")) || (bad->key == "b_type" && !given.count("b_type"));
            // The bias's type is given with --bias (AXIS,TYPE,VALUE).
            const char* flag = from_dtype ? "--dtype" : problem_key(bad->key == "bias_type" ? "bias" : bad->key).flag;
            throw std::invalid_argument(fmt::format("{}: {} ({})", flag, bad->message, x.job.problem.label()));
        }
        jobs.push_back(std::move(x.job));
    });
    return jobs;
}

}  // namespace spmma

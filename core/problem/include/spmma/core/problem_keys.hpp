// The keys of a problem and of how it runs, declared once. Each key's row says how a workload
// file, `spmma gemm`, the records (JSON, CSV, the rerun command) and the worker wire spell and
// check it; those readers and writers walk the table instead of naming keys themselves.
// Adding a key: a member of Problem or Job and one row in problem_keys.cpp (core/README.md shows
// the diff).
#pragma once

#include <spmma/core/job.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace spmma {

// A job being built from keys, with what was given explicitly (the types and the pattern left
// out follow from A and B: apply_default_types).
struct JobDraft {
    Job job;
    bool acc_given = false, out_given = false, pattern_given = false;
};

// What a key holds, and so how its values are written and checked.
enum class KeyKind {
    Size,    // a dimension, 1 or more; a sweep or the command line may give a list or a range
    Type,    // an element type's name (f16, e4m3, ue8m0, ...)
    Choice,  // one of a few names (its setter lists them when refusing one)
    Flag,    // true or false; on the command line a flag without a value
    Integer, // a whole number, `min` or more
    Number,  // a number (alpha, beta: validate() insists on finite ones)
    Vector,  // an epilogue vector: "random", "none" or one number for every element (a workload
             // may write the number bare); held as its text
};

// One value of a key: a flag, an integer (seeds may need the unsigned range), a number, or a name.
using KeyValue = std::variant<bool, int64_t, uint64_t, double, std::string>;

// Which object of a record holds the key's field.
enum class KeyPart { Problem, Run };

struct ProblemKey {
    const char* name;      // the workload key, and the field of records and of the worker wire
    const char* flag;      // the command-line option
    KeyKind kind;
    KeyPart part;
    int sweep;             // its place in a sweep's product: lower ranks vary slower
    const char* help;
    int64_t min;           // Integer: the smallest value
    bool typed_default;    // the default follows from the types (acc, out, pattern, scale_block, the bias's type)
    bool written;          // records, CSV and the rerun command carry it (dtype is only input)
    const char* field;     // the record's field when not `name`; keys sharing one make an array
    const char* column;    // the CSV column (keys sharing one are joined by '/'); nullptr: none
    // Sets the value on a draft; the reason when the value is not one ("unknown type 'f17'").
    std::optional<std::string> (*set)(JobDraft&, const KeyValue&);
    // The job's value, or nullopt where a record leaves the key out (scales of an unscaled problem).
    std::optional<KeyValue> (*get)(const Job&);
    // The field of the ABI's spmma_problem, for the wire (nullptr: not in the ABI problem).
    KeyValue (*abi_get)(const spmma_problem&);
    void (*abi_set)(spmma_problem&, const KeyValue&);

    const char* record_field() const { return field ? field : name; }
};

// Every key, in the order of the CSV columns and the rerun command's options.
const std::vector<ProblemKey>& problem_keys();
// The key called `name`, or nullptr.
const ProblemKey* find_problem_key(std::string_view name);
// The key called `name`; throws std::logic_error for a name the table does not have.
const ProblemKey& problem_key(std::string_view name);
// The keys by sweep rank: the order in which a sweep's lists are multiplied (and set on a job:
// dtype before a_type and b_type).
std::vector<const ProblemKey*> keys_in_sweep_order();

// The value a text gives a key (the command line, a workload's string): a KeyValue, or the
// reason it is not one. Size keys take one size here (lists and ranges: parse_size_list).
std::variant<KeyValue, std::string> parse_key_text(const ProblemKey& key, const std::string& text);
// Checks a value against the key's kind and minimum, then sets it: the reason it was refused.
std::optional<std::string> set_key(const ProblemKey& key, JobDraft& draft, const KeyValue& value);
// A value as the CSV and the rerun command write it ("0.5", "f16", "2:4"; flags "1" or "0").
std::string key_text(const KeyValue& value);

// Fills in the types and the pattern left out and checks the problem: why it is impossible, or
// nullopt (the draft's job is then complete).
std::optional<Invalid> finish_draft(JobDraft& draft);

// A key and the values a sweep (or a list on the command line) gives it.
struct KeyDimension {
    const ProblemKey* key;
    std::vector<KeyValue> values;  // each already accepted by set_key
};
// Every combination of the dimensions' values, the last dimension varying fastest, each set on
// a copy of `base` and handed to `each`.
void for_each_combination(const std::vector<KeyDimension>& dims, const JobDraft& base, const std::function<void(JobDraft&)>& each);

}  // namespace spmma

#include <spmma/core/stored_record.hpp>
#include <spmma/core/median.hpp>
#include <spmma/core/problem_keys.hpp>
#include <spmma/core/timing_stats.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>

namespace spmma {
namespace {

using nlohmann::json;

// Reads the fields of one record; every error names the line and the key.
class FieldReader {
public:
    explicit FieldReader(std::string where) : where_(std::move(where)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw RecordFileError(fmt::format("{}: {}: {}", where_, path, what));
    }

    // The member `key` of `obj`, or nullptr when it is absent or null.
    static const json* member(const json& obj, const char* key) {
        const auto it = obj.find(key);
        return it == obj.end() || it->is_null() ? nullptr : &*it;
    }

    const json* object(const json& obj, const char* key, const std::string& path, bool required) const {
        const json* v = member(obj, key);
        if (!v) {
            if (required) fail(path, "missing");
            return nullptr;
        }
        if (!v->is_object()) fail(path, fmt::format("expected an object, found {}", v->type_name()));
        return v;
    }

    std::string text(const json* obj, const char* key, const std::string& path, bool required = false) const {
        const json* v = obj ? member(*obj, key) : nullptr;
        if (!v) {
            if (required) fail(path, "missing");
            return {};
        }
        if (!v->is_string()) fail(path, fmt::format("expected a string, found {}", v->type_name()));
        return v->get<std::string>();
    }

    // A number; the writer spells non-finite values "nan", "inf", "-inf".
    double number(const json& v, const std::string& path) const {
        if (v.is_number()) return v.get<double>();
        if (v.is_string()) {
            const std::string s = v.get<std::string>();
            if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
            if (s == "inf") return std::numeric_limits<double>::infinity();
            if (s == "-inf") return -std::numeric_limits<double>::infinity();
        }
        fail(path, fmt::format("expected a number, found {}", v.dump()));
    }

    double number(const json* obj, const char* key, const std::string& path, double otherwise) const {
        const json* v = obj ? member(*obj, key) : nullptr;
        return v ? number(*v, path) : otherwise;
    }

    int64_t integer(const json* obj, const char* key, const std::string& path, bool required = false) const {
        const json* v = obj ? member(*obj, key) : nullptr;
        if (!v) {
            if (required) fail(path, "missing");
            return 0;
        }
        if (!v->is_number_integer()) fail(path, fmt::format("expected an integer, found {}", v->dump()));
        return v->get<int64_t>();
    }

    // A number or a string, as text (mismatch values).
    std::string value_text(const json* obj, const char* key, const std::string& path) const {
        const json* v = obj ? member(*obj, key) : nullptr;
        if (!v) return {};
        if (v->is_string()) return v->get<std::string>();
        if (v->is_number()) return fmt::format("{}", v->get<double>());
        fail(path, fmt::format("expected a number, found {}", v->type_name()));
    }

private:
    std::string where_;
};

// NOTES: the match key is every problem field this version knows, not the whole object: a later
// version may add fields, and records written before and after must still match. An unknown
// field is ignored here like everywhere else.
const std::vector<std::string>& problem_fields() {
    static const std::vector<std::string> fields = [] {
        std::vector<std::string> f = {"c_type"};  // derived from d_type, written beside the keys
        for (const ProblemKey& key : problem_keys())
            if (key.part == KeyPart::Problem && key.written && std::find(f.begin(), f.end(), key.record_field()) == f.end())
                f.push_back(key.record_field());
        f.push_back("operand_files");  // operands read from files, written beside the keys
        return f;
    }();
    return fields;
}

void read_problem(const FieldReader& f, const json& root, StoredRecord& r) {
    const json* p = f.object(root, "problem", "problem", true);
    for (const std::string& key : problem_fields())
        if (const json* v = FieldReader::member(*p, key.c_str())) r.problem_key += fmt::format("{}={};", key, v->dump());
    r.m = f.integer(p, "m", "problem.m", true);
    r.n = f.integer(p, "n", "problem.n", true);
    r.k = f.integer(p, "k", "problem.k", true);
    r.a_type = f.text(p, "a_type", "problem.a_type");
    r.b_type = f.text(p, "b_type", "problem.b_type");
    r.acc_type = f.text(p, "acc_type", "problem.acc_type");
    r.d_type = f.text(p, "d_type", "problem.d_type");
    r.scale_type = f.text(p, "scale_type", "problem.scale_type");
    r.scale_block = f.integer(p, "scale_block", "problem.scale_block");
    r.label = f.text(p, "label", "problem.label");
    if (r.label.empty()) r.label = fmt::format("{}x{}x{} {}*{}", r.m, r.n, r.k, r.a_type, r.b_type);
}

void read_timing(const FieldReader& f, const json& root, StoredRecord& r) {
    const json* t = f.object(root, "timing", "timing", false);
    if (!t) return;
    if (const json* times = FieldReader::member(*t, "times_ms")) {
        if (!times->is_array()) f.fail("timing.times_ms", fmt::format("expected an array, found {}", times->type_name()));
        for (size_t i = 0; i < times->size(); ++i) {
            const double v = f.number((*times)[i], fmt::format("timing.times_ms[{}]", i));
            if (std::isfinite(v) && v > 0) r.times_ms.push_back(v);
            else ++r.dropped_times;
        }
    }
    if (!r.times_ms.empty()) {
        r.median_ms = median(r.times_ms);
    } else {
        const double median = f.number(t, "median_ms", "timing.median_ms", 0.0);
        if (std::isfinite(median) && median > 0) r.median_ms = median;
    }
}

// The SM clock NVML saw during the timed launches; a record without one (a CPU record, NVML
// absent: clocks holds only "error") keeps 0. NOTES: clocks is NVML's summary, free in form; a
// shape this version does not know is ignored, like any unknown field.
void read_speed_of_light(const FieldReader& f, const json& root, const json* device, StoredRecord& r) {
    if (const json* peaks = device ? f.object(*device, "peaks", "device.peaks", false) : nullptr) {
        r.sm_clock_khz = f.integer(peaks, "sm_clock_khz", "device.peaks.sm_clock_khz");
        r.mem_clock_khz = f.integer(peaks, "mem_clock_khz", "device.peaks.mem_clock_khz");
    }
    const json* sol = f.object(root, "sol", "sol", false);
    if (!sol) return;
    r.sol_bytes = f.integer(sol, "bytes", "sol.bytes");
    r.sol_fraction = f.number(sol, "fraction", "sol.fraction", 0.0);
    r.sol_bound_by = f.text(sol, "bound_by", "sol.bound_by");
}

void read_verification(const FieldReader& f, const json& root, StoredRecord& r) {
    const json* v = f.object(root, "verification", "verification", false);
    if (!v) return;
    r.has_verification = true;
    r.verify_mode = f.text(v, "mode", "verification.mode");
    r.checked = f.integer(v, "checked", "verification.checked");
    r.mismatches = f.integer(v, "mismatches", "verification.mismatches");
    const json* first = FieldReader::member(*v, "first_mismatches");
    if (!first) return;
    if (!first->is_array()) f.fail("verification.first_mismatches", "expected an array");
    for (size_t i = 0; i < first->size(); ++i) {
        const std::string path = fmt::format("verification.first_mismatches[{}]", i);
        const json& e = (*first)[i];
        if (!e.is_object()) f.fail(path, "expected an object");
        StoredMismatch mm;
        mm.i = f.integer(&e, "i", path + ".i");
        mm.j = f.integer(&e, "j", path + ".j");
        mm.got = f.value_text(&e, "got", path + ".got");
        mm.expected = f.value_text(&e, "expected", path + ".expected");
        mm.tolerance = f.value_text(&e, "tolerance", path + ".tolerance");
        r.first_mismatches.push_back(mm);
    }
}

// A {min, median, max} member of the clocks object: its median, with min and max when asked.
double spread_median(const FieldReader& f, const json& c, const char* key, double* min = nullptr, double* max = nullptr) {
    const std::string path = std::string("clocks.") + key;
    const json* s = f.object(c, key, path, false);
    if (!s) return 0;
    if (min) *min = f.number(s, "min", path + ".min", 0.0);
    if (max) *max = f.number(s, "max", path + ".max", 0.0);
    return f.number(s, "median", path + ".median", 0.0);
}

void read_clocks(const FieldReader& f, const json& root, StoredRecord& r) {
    const json* c = f.object(root, "clocks", "clocks", false);
    if (!c) return;
    StoredClocks& k = r.clocks;
    k.error = f.text(c, "error", "clocks.error");
    if (!FieldReader::member(*c, "sm_mhz")) return;
    k.present = true;
    k.sm_mhz = spread_median(f, *c, "sm_mhz", &k.sm_mhz_min, &k.sm_mhz_max);
    if (std::isfinite(k.sm_mhz) && k.sm_mhz > 0) r.sm_mhz = k.sm_mhz;  // what compare judges cycles by
    k.mem_mhz = spread_median(f, *c, "mem_mhz");
    k.power_w = spread_median(f, *c, "power_w", nullptr, &k.power_w_max);
    k.temperature_c = spread_median(f, *c, "temperature_c");
    const json* t = f.object(*c, "throttle", "clocks.throttle", false);
    if (!t) return;
    k.power_cap_fraction = f.number(t, "power_cap_fraction", "clocks.throttle.power_cap_fraction", 0.0);
    if (const json* reasons = FieldReader::member(*t, "reasons")) {
        if (!reasons->is_array()) f.fail("clocks.throttle.reasons", fmt::format("expected an array, found {}", reasons->type_name()));
        for (size_t i = 0; i < reasons->size(); ++i) {
            const json& v = (*reasons)[i];
            if (!v.is_string()) f.fail(fmt::format("clocks.throttle.reasons[{}]", i), "expected a string");
            k.throttle.push_back(v.get<std::string>());
        }
    }
}

}  // namespace

double StoredRecord::total_seconds() const { return std::accumulate(times_ms.begin(), times_ms.end(), 0.0) * 1e-3; }

std::string StoredRecord::mismatch_lines(size_t max) const {
    std::string out;
    for (size_t i = 0; i < first_mismatches.size() && i < max; ++i) {
        const auto& mm = first_mismatches[i];
        out += fmt::format("({}, {}): got {}, expected {}, tolerance {}\n", mm.i, mm.j, mm.got, mm.expected, mm.tolerance);
    }
    if (first_mismatches.size() > max) out += fmt::format("... {} more listed in the record\n", first_mismatches.size() - max);
    return out;
}

std::string StoredRecord::status_line() const {
    std::string s = status;
    if (!stage.empty()) s += " in " + stage;
    if (!reason.empty()) s += ": " + reason;
    return s;
}

StoredRecord parse_record_line(const std::string& line, const std::string& where) {
    json root;
    try {
        root = json::parse(line);
    } catch (const json::exception& e) {  // 1e400 is out_of_range, not a parse_error
        throw RecordFileError(fmt::format("{}: not JSON: {}", where, e.what()));
    }
    const FieldReader f(where);
    if (!root.is_object()) throw RecordFileError(fmt::format("{}: not a record (a JSON object), found {}", where, root.type_name()));
    StoredRecord r;
    read_problem(f, root, r);
    const json* plugin = f.object(root, "plugin", "plugin", true);
    r.plugin = f.text(plugin, "name", "plugin.name", true);
    r.plugin_kind = f.text(plugin, "kind", "plugin.kind");
    r.kernel = f.text(&root, "kernel", "kernel", true);
    const json* device = f.object(root, "device", "device", false);
    r.device = f.text(device, "name", "device.name");
    r.device_arch = f.text(device, "arch", "device.arch");
    if (device && FieldReader::member(*device, "index")) r.device_index = f.integer(device, "index", "device.index");
    r.device_uuid = f.text(device, "uuid", "device.uuid");
    r.status = f.text(&root, "status", "status", true);
    if (r.status.empty()) f.fail("status", "empty");
    r.reason = f.text(&root, "reason", "reason");
    r.stage = f.text(&root, "stage", "stage");
    read_timing(f, root, r);
    read_speed_of_light(f, root, device, r);
    read_verification(f, root, r);
    read_clocks(f, root, r);
    r.baseline_plugin = f.text(f.object(root, "baseline", "baseline", false), "plugin", "baseline.plugin");
    r.spmma_version = f.text(&root, "spmma_version", "spmma_version");
    r.timestamp = f.text(&root, "timestamp", "timestamp");
    r.host = f.text(&root, "host", "host");
    r.command = f.text(&root, "command", "command");
    return r;
}

std::vector<StoredRecord> read_record_file(const std::filesystem::path& file) {
    if (std::filesystem::is_directory(file)) throw RecordFileError(fmt::format("{}: is a directory, not a record file", file.string()));
    std::ifstream in(file);
    if (!in) throw RecordFileError(fmt::format("{}: cannot open", file.string()));
    std::vector<StoredRecord> out;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        StoredRecord r = parse_record_line(line, fmt::format("{}:{}", file.string(), n));
        r.file = file.string();
        r.line = n;
        out.push_back(std::move(r));
    }
    if (in.bad()) throw RecordFileError(fmt::format("{}:{}: read error", file.string(), n + 1));
    return out;
}

}  // namespace spmma

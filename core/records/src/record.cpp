#include <spmma/core/record.hpp>

#include <spmma/core/median.hpp>
#include <spmma/core/problem_keys.hpp>

#include <fmt/format.h>

#include <unistd.h>

extern char** environ;

#include <algorithm>
#include <chrono>
#include <ctime>
#include <numeric>

namespace spmma {

const char* to_string(RecordStatus s) {
    switch (s) {
        case RecordStatus::Verified: return "verified";
        case RecordStatus::Failed: return "failed";
        case RecordStatus::Unverified: return "unverified";
        case RecordStatus::Error: return "error";
        case RecordStatus::Skipped: return "skipped";
    }
    return "?";
}

Timing Timing::from(const std::vector<double>& times, int warmup, double flops) {
    Timing t;
    t.warmup = warmup;
    t.iterations = static_cast<int>(times.size());
    t.times_ms = times;
    if (times.empty()) return t;
    t.median_ms = median(times);
    t.min_ms = *std::min_element(times.begin(), times.end());
    t.mean_ms = std::accumulate(times.begin(), times.end(), 0.0) / static_cast<double>(times.size());
    if (t.median_ms > 0) t.tflops = flops / (t.median_ms * 1e-3) / 1e12;
    if (t.min_ms > 0) t.tflops_best = flops / (t.min_ms * 1e-3) / 1e12;
    return t;
}

Phases& Phases::operator+=(const Phases& o) {
    generate += o.generate;
    prepare += o.prepare;
    upload += o.upload;
    run += o.run;
    download += o.download;
    verify += o.verify;
    other += o.other;
    return *this;
}

nlohmann::json Phases::to_json() const {
    return {{"generate", generate}, {"prepare", prepare}, {"upload", upload}, {"run", run},
            {"download", download}, {"verify", verify},   {"other", other},   {"total", total()}};
}

namespace {

nlohmann::json json_of(const KeyValue& value) {
    return std::visit([](const auto& v) { return nlohmann::json(v); }, value);
}

// The fields of one part of a record, from the keys; keys sharing a field make an array.
nlohmann::json key_fields(const Job& j, KeyPart part) {
    nlohmann::json o = nlohmann::json::object();
    for (const ProblemKey& key : problem_keys()) {
        if (key.part != part || !key.written) continue;
        const auto value = key.get(j);
        if (!value) continue;
        const char* field = key.record_field();
        if (!o.contains(field)) {
            const bool shared = std::count_if(problem_keys().begin(), problem_keys().end(),
                                              [&](const ProblemKey& k) { return std::string(k.record_field()) == field; }) > 1;
            o[field] = shared ? nlohmann::json::array({json_of(*value)}) : json_of(*value);
        } else {
            o[field].push_back(json_of(*value));
        }
    }
    return o;
}

}  // namespace

nlohmann::json problem_json(const Job& j) {
    nlohmann::json o = key_fields(j, KeyPart::Problem);
    // Derived, not keys: C has D's type; the label is for people.
    o["c_type"] = name(j.problem.c);
    o["label"] = j.problem.label();
    // Not keys either: operands read from files are part of the problem (two layers of one
    // shape are two problems).
    if (!j.files.empty()) {
        nlohmann::json files = nlohmann::json::object();
        for (const auto& [key, ref] : {std::pair{"a", &j.files.a}, std::pair{"b", &j.files.b}, std::pair{"c", &j.files.c}})
            if (!ref->empty()) files[key] = *ref;
        o["operand_files"] = files;
    }
    return o;
}

nlohmann::json run_json(const Job& job) {
    nlohmann::json o = key_fields(job, KeyPart::Run);
    o["min_time_s"] = job.timing.min_time_s;
    o["max_noise"] = job.timing.max_noise;
    o["max_time_s"] = job.timing.max_time_s;
    o["flush_l2"] = job.timing.flush_l2;
    return o;
}

std::string resume_key(const nlohmann::json& problem, const nlohmann::json& run, const std::string& plugin, const std::string& kernel_request) {
    nlohmann::json p = problem;
    p.erase("label");  // derived
    return p.dump() + "|" + run.dump() + "|" + plugin + "|" + kernel_request;
}

std::string resume_key(const Job& j, const std::string& plugin, const std::string& kernel_request) {
    return resume_key(problem_json(j), run_json(j), plugin, kernel_request);
}

namespace {

// JSON has no NaN/Inf: such values become strings.
nlohmann::json number(double v) {
    if (std::isfinite(v)) return v;
    return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}

}  // namespace

nlohmann::json Record::to_json() const {
    nlohmann::json o;
    o["spmma_version"] = spmma_version;
    o["timestamp"] = timestamp;
    o["host"] = host;
    o["source"] = source;
    o["command"] = command;
    o["problem"] = problem_json(job);
    o["run"] = run_json(job);
    o["kernel_request"] = kernel_request;
    o["sweep"] = {{"job", job.index}, {"jobs", job.count}, {"plugins", plugins_requested}};
    if (!job.shard.empty()) o["sweep"]["shard"] = job.shard;
    if (generate_ms > 0) o["sweep"]["generate_ms"] = generate_ms;
    o["plugin"] = {{"name", plugin}, {"version", plugin_version}, {"vendor", plugin_vendor}, {"target", plugin_target},
                   {"file", plugin_file}, {"sha256", plugin_sha256}, {"abi", fmt::format("{}.{}", plugin_abi_major, plugin_abi_minor)},
                   {"kind", dense ? "dense" : "sparse"}, {"isolation", isolation}};
    o["kernel"] = kernel;
    o["device"] = {{"index", device_index}, {"name", device}, {"arch", device_arch}, {"driver", driver}, {"uuid", device_uuid},
                   {"pci_bus_id", device_pci_bus_id}};
    if (device_peaks.any()) o["device"]["peaks"] = device_peaks.to_json();
    o["status"] = to_string(status);
    if (!reason.empty()) o["reason"] = reason;
    if (!stage.empty()) o["stage"] = stage;
    if (timing) {
        nlohmann::json times = nlohmann::json::array();
        for (double t : timing->times_ms) times.push_back(number(t));
        o["timing"] = {{"warmup", timing->warmup}, {"iterations", timing->iterations}, {"times_ms", times},
                       {"median_ms", number(timing->median_ms)}, {"min_ms", number(timing->min_ms)},
                       {"mean_ms", number(timing->mean_ms)}, {"tflops", number(timing->tflops)},
                       {"tflops_best", number(timing->tflops_best)}, {"noise", number(timing->noise)},
                       {"flush_l2", timing->flush_l2}, {"l2_flushed", timing->l2_flushed}};
        if (!timing->note.empty()) o["timing"]["note"] = timing->note;
    }
    if (sol) o["sol"] = sol->to_json();
    if (phases) o["phases_ms"] = phases->to_json();
    if (!clocks.is_null()) o["clocks"] = clocks;
    if (!plugin_notes.is_null()) o["plugin_notes"] = plugin_notes;
    if (!operand_sources.is_null()) o["operand_sources"] = operand_sources;
    if (verdict) {
        nlohmann::json first = nlohmann::json::array();
        for (const auto& m : verdict->first)
            first.push_back({{"i", m.i}, {"j", m.j}, {"got", number(m.got)}, {"expected", number(m.expected)}, {"tolerance", number(m.tolerance)}});
        o["verification"] = {{"passed", verdict->passed}, {"mode", verdict->mode}, {"checked", verdict->checked},
                             {"mismatches", verdict->mismatches}, {"nan_count", verdict->nan_count},
                             {"max_abs_error", number(verdict->max_abs_error)}, {"max_rel_error", number(verdict->max_rel_error)},
                             {"max_tolerance_ratio", number(verdict->max_tolerance_ratio)},
                             {"tolerance", verdict->tolerance_rule}, {"first_mismatches", first}, {"d_transfer", d_transfer}};
    }
    if (baseline)
        o["baseline"] = {{"plugin", baseline->plugin}, {"kernel", baseline->kernel}, {"median_ms", number(baseline->median_ms)},
                         {"speedup", number(baseline->speedup)}};
    return o;
}

namespace {

// The CSV columns the keys make, in table order; keys sharing a column are joined by '/'.
std::vector<std::string> key_columns() {
    std::vector<std::string> out;
    for (const ProblemKey& key : problem_keys())
        if (key.column && (out.empty() || out.back() != key.column)) out.push_back(key.column);
    return out;
}

std::vector<std::string> key_cells(const Job& j) {
    std::vector<std::string> out;
    const char* last = nullptr;
    for (const ProblemKey& key : problem_keys()) {
        if (!key.column) continue;
        const auto value = key.get(j);
        const std::string text = value ? key_text(*value) : "";
        if (last && std::string(last) == key.column) {
            if (!text.empty()) out.back() += (out.back().empty() ? "" : "/") + text;
        } else {
            out.push_back(text);
        }
        last = key.column;
    }
    return out;
}

}  // namespace

std::vector<std::string> Record::csv_header() {
    std::vector<std::string> h = {"status"};
    for (auto& c : key_columns()) h.push_back(std::move(c));
    for (const char* c : {"plugin", "plugin_version", "kind", "kernel", "device", "arch", "median_ms", "min_ms", "tflops", "bytes",
                          "bytes_per_s", "sol_bound_ms", "sol_pct", "verify_mode", "checked", "mismatches", "max_abs_error", "max_rel_error",
                          "tolerance_ratio", "baseline", "speedup", "reason", "source", "command", "spmma_version", "timestamp", "times_ms"})
        h.push_back(c);
    return h;
}

std::vector<std::string> Record::csv_row() const {
    auto num = [](double v) { return fmt::format("{}", v); };
    std::string times;
    if (timing)
        for (size_t i = 0; i < timing->times_ms.size(); ++i) {
            if (i) times += ';';
            times += num(timing->times_ms[i]);
        }
    std::vector<std::string> row = {to_string(status)};
    for (auto& c : key_cells(job)) row.push_back(std::move(c));
    for (std::string c : {plugin, plugin_version, std::string(dense ? "dense" : "sparse"), kernel, device, device_arch,
                          timing ? num(timing->median_ms) : "", timing ? num(timing->min_ms) : "", timing ? num(timing->tflops) : "",
                          sol ? std::to_string(sol->bytes.total()) : "", sol ? num(sol->achieved_bytes_per_s) : "",
                          sol && sol->has_bound() ? num(sol->bound_ms) : "", sol && sol->fraction > 0 ? num(100 * sol->fraction) : "",
                          verdict ? verdict->mode : "", verdict ? std::to_string(verdict->checked) : "",
                          verdict ? std::to_string(verdict->mismatches) : "", verdict ? num(verdict->max_abs_error) : "",
                          verdict ? num(verdict->max_rel_error) : "", verdict ? num(verdict->max_tolerance_ratio) : "",
                          baseline ? baseline->plugin : "", baseline ? num(baseline->speedup) : "", reason, source, command, spmma_version,
                          timestamp, times})
        row.push_back(std::move(c));
    return row;
}

std::string csv_escape(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string shell_quote(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/=+@%") == std::string::npos)
        return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string environment_prefix() {
    // NOTES: plugins take their tuning and diagnostic knobs from SPMMA_* variables
    // (SPMMA_SM90A_RASTER, SPMMA_SM90A_SERIAL_WGMMA, ...); a record run under one must say so
    // to be reproducible. The test harness's own variables name paths, not behaviour.
    // SPMMA_CACHE_DIR and SPMMA_PLAN_CACHE say where plans are cached: the record's plugin_notes
    // say how its plan was chosen.
    static constexpr const char* harness[] = {"SPMMA_SOURCE_DIR", "SPMMA_BINARY_DIR", "SPMMA_EXE", "SPMMA_PLUGIN_DIR",
                                              "SPMMA_CUOBJDUMP", "SPMMA_CACHE_DIR", "SPMMA_PLAN_CACHE"};
    std::vector<std::string> set;
    for (char** e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const auto eq = kv.find('=');
        if (kv.rfind("SPMMA_", 0) != 0 || eq == std::string::npos) continue;
        const std::string key = kv.substr(0, eq);
        if (std::find(std::begin(harness), std::end(harness), key) != std::end(harness)) continue;
        set.push_back(key + "=" + shell_quote(kv.substr(eq + 1)) + " ");
    }
    std::sort(set.begin(), set.end());
    return std::accumulate(set.begin(), set.end(), std::string());
}

std::string reproduce_command(const Job& j, const std::string& plugin, const std::string& kernel, const std::string& plugin_dir) {
    std::string c = environment_prefix() + "spmma gemm";
    for (const ProblemKey& key : problem_keys()) {
        const auto value = key.written ? key.get(j) : std::nullopt;
        if (!value) continue;
        if (key.kind == KeyKind::Flag) {
            if (std::get<bool>(*value)) c += fmt::format(" {}", key.flag);
        } else {
            c += fmt::format(" {} {}", key.flag, key_text(*value));
        }
    }
    for (const auto& [option, ref] : {std::pair{"--a", &j.files.a}, std::pair{"--b", &j.files.b}, std::pair{"--c", &j.files.c}})
        if (!ref->empty()) c += fmt::format(" {} {}", option, shell_quote(*ref));
    const TimingPolicy& t = j.timing;
    if (t.min_time_s > 0) c += fmt::format(" --min-time {}", t.min_time_s);
    if (t.max_noise > 0) c += fmt::format(" --max-noise {}", 100 * t.max_noise);
    if ((t.min_time_s > 0 || t.max_noise > 0) && t.max_time_s != TimingPolicy{}.max_time_s) c += fmt::format(" --max-time {}", t.max_time_s);
    if (t.flush_l2) c += " --flush-l2";
    if (!plugin_dir.empty()) c += " --plugin-dir " + shell_quote(plugin_dir);
    if (!plugin.empty()) c += " --plugin " + shell_quote(plugin);
    if (!kernel.empty()) c += " --kernel " + shell_quote(kernel);
    return c;
}

std::string utc_timestamp() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string host_name() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
}

}  // namespace spmma

#include <spmma/core/record_json.hpp>
#include <spmma/core/stored_record.hpp>

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace spmma {
namespace {

using nlohmann::json;

// The writer spells non-finite numbers "nan", "inf", "-inf".
double number(const json& v) {
    if (v.is_number()) return v.get<double>();
    const std::string s = v.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument(fmt::format("'{}' is not a number", s));
}

std::string text(const json& o, const char* key) { return o.contains(key) && !o[key].is_null() ? o[key].get<std::string>() : ""; }
double number(const json& o, const char* key) { return o.contains(key) && !o[key].is_null() ? number(o[key]) : 0.0; }

std::optional<RecordStatus> parse_status(const std::string& s) {
    for (RecordStatus st : {RecordStatus::Verified, RecordStatus::Failed, RecordStatus::Unverified, RecordStatus::Error, RecordStatus::Skipped})
        if (s == to_string(st)) return st;
    return std::nullopt;
}

Timing read_timing(const json& t) {
    Timing x;
    x.warmup = t.value("warmup", 0);
    x.iterations = t.value("iterations", 0);
    if (t.contains("times_ms"))
        for (const auto& v : t.at("times_ms")) x.times_ms.push_back(number(v));
    x.median_ms = number(t, "median_ms");
    x.min_ms = number(t, "min_ms");
    x.mean_ms = number(t, "mean_ms");
    x.tflops = number(t, "tflops");
    x.tflops_best = number(t, "tflops_best");
    x.noise = number(t, "noise");
    x.flush_l2 = t.value("flush_l2", false);
    x.l2_flushed = t.value("l2_flushed", false);
    x.note = text(t, "note");
    return x;
}

reference::Verdict read_verdict(const json& v) {
    reference::Verdict x;
    x.passed = v.value("passed", false);
    x.mode = text(v, "mode");
    x.checked = v.value("checked", int64_t{0});
    x.mismatches = v.value("mismatches", int64_t{0});
    x.nan_count = v.value("nan_count", int64_t{0});
    x.max_abs_error = number(v, "max_abs_error");
    x.max_rel_error = number(v, "max_rel_error");
    x.max_tolerance_ratio = number(v, "max_tolerance_ratio");
    x.tolerance_rule = text(v, "tolerance");
    if (v.contains("first_mismatches"))
        for (const auto& m : v.at("first_mismatches"))
            x.first.push_back({m.at("i").get<int64_t>(), m.at("j").get<int64_t>(), number(m, "got"), number(m, "expected"), number(m, "tolerance")});
    return x;
}

Record read(const json& o) {
    Record r;
    r.spmma_version = text(o, "spmma_version");
    r.timestamp = text(o, "timestamp");
    r.host = text(o, "host");
    r.source = text(o, "source");
    r.command = text(o, "command");
    r.kernel_request = text(o, "kernel_request");
    if (o.contains("sweep")) {
        const json& s = o.at("sweep");
        if (s.contains("plugins")) r.plugins_requested = s.at("plugins").get<std::vector<std::string>>();
        r.generate_ms = number(s, "generate_ms");
    }
    const json& p = o.at("plugin");
    r.plugin = p.at("name").get<std::string>();
    r.plugin_version = text(p, "version");
    r.plugin_vendor = text(p, "vendor");
    r.plugin_target = text(p, "target");
    r.plugin_file = text(p, "file");
    r.plugin_sha256 = text(p, "sha256");
    r.isolation = text(p, "isolation");
    r.dense = text(p, "kind") == "dense";
    if (const std::string abi = text(p, "abi"); !abi.empty() && std::sscanf(abi.c_str(), "%u.%u", &r.plugin_abi_major, &r.plugin_abi_minor) != 2)
        throw std::invalid_argument(fmt::format("plugin.abi: '{}' is not MAJOR.MINOR", abi));
    r.kernel = text(o, "kernel");
    if (o.contains("device")) {
        const json& d = o.at("device");
        r.device_index = d.value("index", 0);
        r.device = text(d, "name");
        r.device_arch = text(d, "arch");
        r.driver = text(d, "driver");
        r.device_uuid = text(d, "uuid");
        r.device_pci_bus_id = text(d, "pci_bus_id");
        if (d.contains("peaks") && !d["peaks"].is_null()) r.device_peaks = DevicePeaks::from_json(d.at("peaks"));
    }
    const auto status = parse_status(o.at("status").get<std::string>());
    if (!status) throw std::invalid_argument(fmt::format("status: '{}' is not a status", o.at("status").get<std::string>()));
    r.status = *status;
    r.reason = text(o, "reason");
    r.stage = text(o, "stage");
    if (o.contains("timing")) r.timing = read_timing(o.at("timing"));
    if (o.contains("sol") && !o["sol"].is_null()) r.sol = SpeedOfLight::from_json(o.at("sol"));
    if (o.contains("phases_ms")) {
        const json& ph = o.at("phases_ms");
        r.phases = Phases{number(ph, "generate"), number(ph, "prepare"), number(ph, "upload"), number(ph, "run"),
                          number(ph, "download"), number(ph, "verify"),   number(ph, "other")};
    }
    if (o.contains("clocks")) r.clocks = o.at("clocks");
    if (o.contains("plugin_notes")) r.plugin_notes = o.at("plugin_notes");
    if (o.contains("verification")) {
        r.verdict = read_verdict(o.at("verification"));
        r.d_transfer = text(o.at("verification"), "d_transfer");
    }
    if (o.contains("baseline")) {
        const json& b = o.at("baseline");
        r.baseline = Baseline{text(b, "plugin"), text(b, "kernel"), number(b, "median_ms"), number(b, "speedup")};
    }
    return r;
}

}  // namespace

Record record_from_json(const json& o, const std::string& where) {
    try {
        return read(o);
    } catch (const std::exception& e) {
        throw RecordFileError(fmt::format("{}: not a record this version can keep: {}", where, e.what()));
    }
}

}  // namespace spmma

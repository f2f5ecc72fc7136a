// Records read back from a --json file (JSON lines, Record::to_json): what compare, report and
// the JUnit output need, read defensively. Fields this version does not know are ignored; a
// line that is not a record, or a known field of the wrong type, is an error naming file, line
// and key.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace spmma {

struct StoredMismatch {
    int64_t i = 0, j = 0;
    std::string got, expected, tolerance;  // as written ("nan" and "inf" included)
};

struct StoredRecord {
    std::string file;  // where it was read: file name and line
    int line = 0;

    // The problem: `problem_key` is every known field of it (sizes, types, pattern, scaling,
    // alpha, beta, distribution, seed) in one canonical string, the label for people.
    std::string problem_key, label;
    int64_t m = 0, n = 0, k = 0;
    std::string a_type, b_type, acc_type, d_type, scale_type;
    int64_t scale_block = 0;

    std::string plugin, plugin_kind, kernel, device, device_arch;
    int64_t device_index = -1;  // device.index; -1 when the record has none
    std::string device_uuid;
    int64_t sm_clock_khz = 0, mem_clock_khz = 0;  // device.peaks (ABI 1.2 plugins); 0 when absent
    std::string status, reason, stage;

    std::vector<double> times_ms;  // every timed iteration (finite, positive ones)
    int dropped_times = 0;         // entries that were not (nan, inf, <= 0)
    double median_ms = 0;          // of times_ms, else the record's timing.median_ms; 0 without timing

    // The record's speed of light ("sol", speed_of_light.hpp); 0 and "" in records without it,
    // the fraction also where the device's peaks were unknown.
    int64_t sol_bytes = 0;
    double sol_fraction = 0;
    std::string sol_bound_by;

    bool has_verification = false;
    std::string verify_mode;
    int64_t checked = 0, mismatches = 0;
    std::vector<StoredMismatch> first_mismatches;

    std::string baseline_plugin;  // the run's --baseline, when it had one
    std::string spmma_version, timestamp, host, command;

    bool ran() const { return status == "verified" || status == "unverified"; }
    bool skipped() const { return status == "skipped"; }
    // failed, error, or a status this version does not know (a crashed or timed-out run).
    bool bad() const { return !ran() && !skipped(); }
    double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
    double tflops() const { return median_ms > 0 ? flops() / (median_ms * 1e-3) / 1e12 : 0; }
    double total_seconds() const;  // sum of the timed iterations
    // "(i, j): got G, expected E, tolerance T", one line each, at most `max` of them.
    std::string mismatch_lines(size_t max = 8) const;
    // "status in stage: reason" (what a failure or an error says).
    std::string status_line() const;
};

// A file that cannot be read, or a line that is not a record: "file:line: key: what is wrong".
class RecordFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Every record of a JSON-lines file, in file order; blank lines are skipped.
std::vector<StoredRecord> read_record_file(const std::filesystem::path& file);
// One line (for tests and for other readers); `where` prefixes error messages.
StoredRecord parse_record_line(const std::string& line, const std::string& where);

}  // namespace spmma

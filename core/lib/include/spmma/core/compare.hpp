// `spmma compare`: two record files (JSON lines) -> a pass/fail verdict for regression sweeps.
// Records are matched by problem, plugin and kernel; a match fails when the new record is not
// verified while the old one was, or is slower than the old by more than the allowed fraction.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace spmma {

struct CompareRow {
    std::string key;             // problem label | plugin | kernel
    std::string old_status, new_status;
    double old_ms = 0, new_ms = 0;
    double change = 0;           // new/old - 1 (time), 0 without timings
    bool regression = false;
    std::string why;
};

struct CompareResult {
    std::vector<CompareRow> rows;
    std::vector<std::string> only_old, only_new;
    int regressions = 0;
};

// Throws std::runtime_error naming file and line for unreadable records.
CompareResult compare_records(const std::filesystem::path& old_file, const std::filesystem::path& new_file, double max_slowdown);
std::string format_compare(const CompareResult& r, double max_slowdown);

}  // namespace spmma

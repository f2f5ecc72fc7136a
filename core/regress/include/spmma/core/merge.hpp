// spmma merge: the record files of a sharded sweep joined into one, and checked for completeness:
// every job of the workload there, each (job, plugin, kernel request) once.
#pragma once

#include <spmma/core/job.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spmma {

struct MergeResult {
    std::vector<nlohmann::json> records;  // in job order, then in the order they were found; duplicates left out
    int64_t jobs = 0;                     // the workload's job count
    std::vector<std::string> missing;     // "job 7 (4096x4096x4096 f16...): no records" / "...: no record of plugin sm90a"
    std::vector<std::string> duplicates;  // "job 3 ... on cpu (kernel ...): in a.jsonl:4 and b.jsonl:2"
    std::vector<std::string> mismatched;  // records that do not fit the workload given
    bool complete() const { return missing.empty() && duplicates.empty() && mismatched.empty(); }
};

// Reads the files (each a --json output of one shard); `workload`, when given, is the job list
// the records must cover (its count and each job's problem). Throws std::runtime_error naming
// file and line for a line that is not a record of a sweep.
MergeResult merge_records(const std::vector<std::filesystem::path>& files, const std::optional<std::vector<Job>>& workload);

}  // namespace spmma

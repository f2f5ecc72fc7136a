// Regression sweeps at scale: a deterministic shard of a workload (--shard I/N, or Slurm's array
// variables), and --resume (the records a --json file already holds, its torn last line dropped).
#pragma once

#include <spmma/core/job.hpp>
#include <spmma/core/record.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spmma {

struct Shard {
    int index = 0, count = 1;  // shard `index` (0-based) of `count`
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "I/N" with 0 <= I < N; throws std::invalid_argument naming what is wrong.
Shard parse_shard(const std::string& s);
// From SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT when a Slurm array
// job sets them; nullopt otherwise. A variable that is not a whole number, or a shard out of
// range, throws std::invalid_argument naming the variable.
std::optional<Shard> shard_from_slurm();

// Numbers the jobs (index of count) and keeps shard I's: jobs I, I+N, I+2N, ... (round robin, so
// each shard gets a share of every part of the workload).
std::vector<Job> number_and_shard(std::vector<Job> jobs, const std::optional<Shard>& shard);

// What a --json file already holds, for --resume.
struct ResumeScan {
    std::map<std::string, Record> kept;  // by resume_key: each run's record (the first, if one was doubled)
    size_t records = 0;
    std::string note;                    // a torn last line that was dropped, said for the user
};
// Reads `file` (missing: empty). A last line cut short (no newline) is cut off the file; a whole
// line that is not a record throws std::runtime_error naming file and line (RecordFileError for
// a field of the wrong type).
ResumeScan scan_for_resume(const std::filesystem::path& file);

}  // namespace spmma

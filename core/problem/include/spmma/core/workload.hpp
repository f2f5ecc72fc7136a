// Workload files (TOML, version = 1): defaults, explicit [[problem]]s and [[sweep]]s (lists and
// ranges -> cartesian product). Every error names the file, the line and the key.
#pragma once

#include <spmma/core/job.hpp>
#include <spmma/core/operand_files.hpp>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace spmma {

class WorkloadError : public std::runtime_error {
public:
    WorkloadError(std::string file, int64_t line, std::string key, const std::string& message);
    std::string file;
    int64_t line;
    std::string key;
};

// Keys a, b, c name operand files (paths relative to the workload file's folder); `probe` reads
// what the problem needs of each (m and k from A's tensor, n from B's, the types when no dtype
// is given). Without a probe a file operand is refused.
std::vector<Job> load_workload(const std::filesystem::path& file, const TensorProbe& probe = {});
std::vector<Job> parse_workload(std::string_view text, const std::string& file_name, const TensorProbe& probe = {});

// The keys a [defaults], [[problem]] or [[sweep]] table may hold, in documentation order.
const std::vector<std::string>& workload_keys();

}  // namespace spmma

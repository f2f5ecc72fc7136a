// What a run will hold in host memory at its peak, checked against what the machine has before
// anything is allocated: the runner keeps two operand arenas (the next job is generated while
// this one runs), one result arena for D, and up to two jobs' references at once.
#pragma once

#include <spmma/core/job.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spmma {

// Bytes of memory this machine has available now: MemAvailable in /proc/meminfo, else
// sysconf's available pages; `source` says which. 0 when neither can be read.
struct HostMemory {
    int64_t available = 0;
    std::string source;
};
HostMemory host_memory();

// The first job whose share of the run does not fit `limit` bytes, with what it needs (the run's
// peak with that job the largest); nullopt when every job fits. `verify` are the run's verify
// options (the number of sampled elements); each job's own mode is used.
struct MemoryShortfall {
    size_t job = 0;        // index into `jobs`
    int64_t needed = 0;    // bytes
    std::string what;      // "2 operand sets of 1.2 GiB, D 512.0 MiB, 2 references of 4.0 GiB"
};
std::optional<MemoryShortfall> exceeds_memory(const std::vector<Job>& jobs, const reference::VerifyOptions& verify, int64_t limit);

}  // namespace spmma

// Fuzz target: workload files (TOML). Any input either gives jobs whose problems are valid and
// whose bytes fit a 64-bit count, or a WorkloadError naming file, line and key; nothing else
// (another exception, a crash, undefined behaviour) may happen.
#include <spmma/core/problem_bytes.hpp>
#include <spmma/core/workload.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        for (const spmma::Job& j : spmma::parse_workload(text, "fuzz.toml"))
            if (spmma::validate(j.problem) || !spmma::problem_bytes(j.problem, 0)) std::abort();  // a job the parser let through
    } catch (const spmma::WorkloadError&) {
    }
    return 0;
}

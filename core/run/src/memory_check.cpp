#include <spmma/core/memory_check.hpp>

#include <spmma/core/problem_bytes.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace spmma {

HostMemory host_memory() {
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string key, unit;
        int64_t kib = 0;
        if (words >> key >> kib >> unit && key == "MemAvailable:" && unit == "kB" && kib > 0 && kib < (int64_t{1} << 53))
            return {kib * 1024, "MemAvailable in /proc/meminfo"};
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && pages < (int64_t{1} << 62) / page) return {static_cast<int64_t>(pages) * page, "sysconf(_SC_AVPHYS_PAGES)"};
    return {};
}

std::optional<MemoryShortfall> exceeds_memory(const std::vector<Job>& jobs, const reference::VerifyOptions& verify, int64_t limit) {
    for (size_t i = 0; i < jobs.size(); ++i) {
        const Problem& p = jobs[i].problem;
        reference::VerifyOptions vo = verify;
        vo.mode = jobs[i].verify;
        int64_t checked = 0;
        switch (reference::resolve_mode(vo, p.m, p.n, p.k)) {
            case reference::VerifyMode::Full: checked = __builtin_mul_overflow(p.m, p.n, &checked) ? INT64_MAX : checked; break;
            case reference::VerifyMode::Sampled: checked = std::max<int64_t>(vo.samples, 4); break;
            default: break;
        }
        const auto b = problem_bytes(p, checked);
        MemoryShortfall s{i, INT64_MAX, "more than a 64-bit count of bytes"};
        if (b) {
            // NOTES: peak = two operand sets + D + two references: the same job twice is the
            // worst a run of it can hold (validate() bounded each part below 2^60 bytes).
            s.needed = 2 * b->operands + b->d + 2 * b->reference;
            s.what = fmt::format("two operand sets of {}, D {}, two references of {}", format_bytes(static_cast<double>(b->operands)),
                                 format_bytes(static_cast<double>(b->d)), format_bytes(static_cast<double>(b->reference)));
        }
        if (s.needed > limit) return s;
    }
    return std::nullopt;
}

}  // namespace spmma

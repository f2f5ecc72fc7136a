#include <spmma/core/table_sink.hpp>

#include <fmt/format.h>

#include <unistd.h>

namespace spmma {

namespace {

std::string verdict_cell(const Record& r) {
    switch (r.status) {
        case RecordStatus::Verified:
            return fmt::format("ok {} (error/tolerance {:.2f})", r.verdict->mode, r.verdict->max_tolerance_ratio);
        case RecordStatus::Failed:
            return fmt::format("FAILED {}: {}", r.verdict ? r.verdict->mode : "", r.reason);
        case RecordStatus::Unverified: return "not verified (--verify none)";
        case RecordStatus::Error: return fmt::format("ERROR in {}: {}", r.stage, r.reason);
        case RecordStatus::Skipped: return "skipped: " + r.reason;
    }
    return "";
}

// The fraction of the roofline bound reached (speed_of_light.hpp), "-" where the device's peaks
// are unknown.
std::string sol_cell(const Record& r) { return r.sol && r.sol->fraction > 0 ? fmt::format("{:.1f}", 100 * r.sol->fraction) : "-"; }

}  // namespace

void TableSink::header() {
    fmt::print(out_, "{:<44} {:<10} {:<40} {:>10} {:>9} {:>5}{} {}\n", "problem", "plugin", "kernel", "median ms", "TFLOP/s",
               "% SOL", show_baseline_ ? fmt::format(" {:>8}", "speedup") : "", "verification");
    header_done_ = true;
}

void TableSink::record(const Record& r) {
    ++counts_[static_cast<int>(r.status)];
    if (r.status == RecordStatus::Skipped) {
        const std::string key = fmt::format("{}: {}", r.plugin.empty() ? "(none)" : r.plugin, r.reason);
        for (auto& [k, n] : skipped_)
            if (k == key) {
                ++n;
                return;
            }
        skipped_.emplace_back(key, 1);
        return;
    }
    if (!header_done_) header();
    if (isatty(fileno(out_))) fmt::print(out_, "\r\033[K");  // over a progress line
    const std::string label = r.job.problem.label() + (r.dense ? " dense" : "");
    const std::string ms = r.timing ? fmt::format("{:.4f}", r.timing->median_ms) : "-";
    const std::string tf = !r.timing ? "-" : r.timing->tflops < 10 ? fmt::format("{:.4f}", r.timing->tflops) : fmt::format("{:.1f}", r.timing->tflops);
    std::string speed;
    if (show_baseline_) speed = r.baseline ? fmt::format(" {:>7.2f}x", r.baseline->speedup) : fmt::format(" {:>8}", "-");
    fmt::print(out_, "{:<44} {:<10} {:<40} {:>10} {:>9} {:>5}{} {}\n", label, r.plugin, r.kernel, ms, tf, sol_cell(r), speed,
               verdict_cell(r));
    std::fflush(out_);
}

void TableSink::finish() {
    if (!skipped_.empty()) {
        fmt::print(out_, "{}skipped:\n", header_done_ ? "\n" : "");
        for (const auto& [k, n] : skipped_) fmt::print(out_, "  {} ({} problem{})\n", k, n, n == 1 ? "" : "s");
    }
    fmt::print(out_, "\n{} verified, {} failed, {} errors, {} not verified, {} skipped\n", counts_[0], counts_[1], counts_[3],
               counts_[2], counts_[4]);
    std::fflush(out_);
}

}  // namespace spmma

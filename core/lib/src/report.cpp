#include <spmma/core/report.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <iostream>
#include <stdexcept>

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

}  // namespace

void TableSink::header() {
    fmt::print(out_, "{:<44} {:<10} {:<40} {:>10} {:>9}{} {}\n", "problem", "plugin", "kernel", "median ms", "TFLOP/s",
               show_baseline_ ? fmt::format(" {:>8}", "speedup") : "", "verification");
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
    fmt::print(out_, "{:<44} {:<10} {:<40} {:>10} {:>9}{} {}\n", label, r.plugin, r.kernel, ms, tf, speed, verdict_cell(r));
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

namespace {

std::ostream* open_output(const std::string& path, std::ofstream& file) {
    if (path == "-") return &std::cout;
    file.open(path, std::ios::out | std::ios::trunc);
    if (!file) throw std::runtime_error(fmt::format("cannot write {}", path));
    return &file;
}

}  // namespace

JsonLinesSink::JsonLinesSink(const std::string& path, bool append) {
    if (path == "-") {
        file_ = stdout;
        return;
    }
    file_ = std::fopen(path.c_str(), append ? "a" : "w");
    if (!file_) throw std::runtime_error(fmt::format("cannot write {}", path));
    owned_ = true;
}

JsonLinesSink::~JsonLinesSink() {
    if (owned_) std::fclose(file_);
}

void JsonLinesSink::record(const Record& r) {
    const std::string line = r.to_json().dump() + "\n";
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fflush(file_);
    if (owned_) fsync(fileno(file_));
}

CsvSink::CsvSink(const std::string& path) : out_(open_output(path, file_)) {
    const auto h = Record::csv_header();
    for (size_t i = 0; i < h.size(); ++i) *out_ << (i ? "," : "") << h[i];
    *out_ << '\n';
}

void CsvSink::record(const Record& r) {
    const auto row = r.csv_row();
    for (size_t i = 0; i < row.size(); ++i) *out_ << (i ? "," : "") << csv_escape(row[i]);
    *out_ << '\n';
    out_->flush();
}

void TerminalProgress::start(size_t total) {
    total_ = total;
    t0_ = std::chrono::steady_clock::now();
}

void TerminalProgress::step(size_t done, const std::string& what) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (elapsed < 2.0 && !shown_) return;
    shown_ = true;
    std::string eta = "?";
    if (done > 0) {
        const auto left = static_cast<long>(elapsed / static_cast<double>(done) * static_cast<double>(total_ - done));
        eta = fmt::format("{}:{:02}", left / 60, left % 60);
    }
    std::string line = fmt::format("[{}/{}] {}  ETA {}", done + 1, total_, what, eta);
    if (line.size() > 118) line = line.substr(0, 115) + "...";
    fmt::print(tty_, "\r\033[K{}", line);
    std::fflush(tty_);
}

void TerminalProgress::finish() {
    if (shown_) fmt::print(tty_, "\r\033[K");
    std::fflush(tty_);
}

}  // namespace spmma

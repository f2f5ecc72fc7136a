#include <spmma/core/table_sink.hpp>

#include <spmma/core/terminal.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <numeric>

namespace spmma {

namespace {

// The verification whole: mode and margin, or the failure's reason.
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

// The verification in a word or two (a row that fits the terminal; a failure's reason follows it).
std::string verdict_word(const Record& r) {
    switch (r.status) {
        case RecordStatus::Verified: return "ok " + r.verdict->mode;
        case RecordStatus::Failed: return "FAILED";
        case RecordStatus::Unverified: return "unverified";
        case RecordStatus::Error: return "ERROR";
        case RecordStatus::Skipped: return "skipped";
    }
    return "";
}

bool failing(const Record& r) { return r.status == RecordStatus::Failed || r.status == RecordStatus::Error; }

std::string label_of(const Record& r) { return r.job.problem.label() + (r.dense ? " dense" : ""); }
std::string plugin_of(const Record& r) { return r.plugin; }
std::string kernel_of(const Record& r) { return r.kernel; }
// Under a problem's heading a dense baseline says so before its kernel.
std::string dense_kernel_of(const Record& r) { return (r.dense ? "dense " : "") + r.kernel; }
std::string median_of(const Record& r) { return r.timing ? fmt::format("{:.4f}", r.timing->median_ms) : "-"; }
std::string tflops_of(const Record& r) {
    if (!r.timing) return "-";
    return r.timing->tflops < 10 ? fmt::format("{:.4f}", r.timing->tflops) : fmt::format("{:.1f}", r.timing->tflops);
}
std::string speedup_of(const Record& r) { return r.baseline ? fmt::format("{:.2f}x", r.baseline->speedup) : "-"; }
// The fraction of the roofline bound reached (speed_of_light.hpp), "-" where the device's peaks
// are unknown.
std::string sol_of(const Record& r) { return r.sol && r.sol->fraction > 0 ? fmt::format("{:.1f}", 100 * r.sol->fraction) : "-"; }

constexpr size_t kIndent = 2;       // rows under a problem's heading
constexpr size_t kLeastKernel = 8;  // the kernel column never narrower

}  // namespace

TableSink::TableSink(std::FILE* out, bool show_baseline, TableStyle style) : out_(out), style_(style) {
    // NOTES: one list of columns for both layouts; a column added here appears in both, and the
    // kernel column (not wide) takes what the others leave of the width.
    if (style_.wide)
        columns_ = {{"problem", 44, false, label_of}, {"plugin", 10, false, plugin_of}, {"kernel", 40, false, kernel_of},
                    {"median ms", 10, true, median_of}, {"TFLOP/s", 9, true, tflops_of}, {"% SOL", 5, true, sol_of}};
    else
        columns_ = {{"plugin", 10, false, plugin_of}, {"kernel", 0, false, dense_kernel_of}, {"median ms", 9, true, median_of},
                    {"TFLOP/s", 8, true, tflops_of}, {"% SOL", 5, true, sol_of}};
    if (show_baseline) columns_.push_back({"speedup", 8, true, speedup_of});
    columns_.push_back(style_.wide ? Column{"verification", 0, false, verdict_cell} : Column{"result", 10, false, verdict_word});
    if (style_.wide) return;
    const size_t taken = std::accumulate(columns_.begin(), columns_.end(), kIndent + columns_.size() - 1,
                                         [](size_t n, const Column& c) { return n + c.width; });
    columns_[1].width = std::max(kLeastKernel, style_.width > taken ? style_.width - taken : 0);
}

// The cells joined: padded to their columns (cut to them, not wide); the last one unpadded and
// painted when `alarm`.
std::string TableSink::line(const std::vector<std::string>& cells, bool alarm) const {
    std::string s(style_.wide ? 0 : kIndent, ' ');
    for (size_t i = 0; i + 1 < cells.size(); ++i) {
        const Column& c = columns_[i];
        const std::string t = style_.wide ? cells[i] : fit(cells[i], c.width);
        const std::string fill(c.width > display_width(t) ? c.width - display_width(t) : 0, ' ');
        s += (c.right ? fill + t : t + fill) + " ";
    }
    const std::string last = style_.wide ? cells.back() : fit(cells.back(), columns_.back().width);
    return s + paint(last, Colour::Red, alarm && style_.colour);
}

void TableSink::header() {
    std::vector<std::string> heads;
    for (const auto& c : columns_) heads.push_back(c.head);
    fmt::print(out_, "{}\n", line(heads, false));
    header_done_ = true;
}

void TableSink::record(const Record& r) {
    ++counts_[static_cast<int>(r.status)];
    if (r.status == RecordStatus::Skipped) {
        const std::string plugin = r.plugin.empty() ? "(none)" : r.plugin;
        auto count = [](std::vector<std::pair<std::string, int>>& list, const std::string& key) {
            for (auto& [k, n] : list)
                if (k == key) return void(++n);
            list.emplace_back(key, 1);
        };
        count(skipped_, fmt::format("{}: {}", plugin, r.reason));
        count(skipped_plugins_, plugin);
        return;
    }
    const std::lock_guard lock(terminal_lock());
    std::string out = isatty(fileno(out_)) ? "\r\033[K" : "";  // over a progress line
    if (!header_done_) {
        std::fputs(out.c_str(), out_);
        out.clear();
        header();
    }
    if (!style_.wide && r.job.problem.label() != last_problem_) {
        last_problem_ = r.job.problem.label();
        out += fit(last_problem_, style_.width) + "\n";
    }
    std::vector<std::string> cells;
    for (const auto& c : columns_) cells.push_back(c.text(r));
    out += line(cells, failing(r)) + "\n";
    if (!style_.wide && failing(r))
        for (const auto& l : wrap(verdict_cell(r), style_.width, 2 * kIndent)) out += l + "\n";
    std::fputs(out.c_str(), out_);
    std::fflush(out_);
}

// "skipped: 154 runs (sm80 40, sm90a 40, +3 more); why: spmma plugins --verbose", within the width.
std::string TableSink::skipped_line() const {
    int total = 0;
    for (const auto& [p, n] : skipped_plugins_) total += n;
    const std::string head = fmt::format("skipped: {} run{} (", total, total == 1 ? "" : "s");
    const std::string tail = "); why: spmma plugins --verbose, or --wide";
    std::string list;
    size_t shown = 0;
    for (const auto& [p, n] : skipped_plugins_) {
        const std::string item = fmt::format("{}{} {}", list.empty() ? "" : ", ", p, n);
        const size_t left = skipped_plugins_.size() - shown - 1;
        const std::string more = left ? fmt::format(", +{} more", left) : "";
        if (display_width(head + list + item + more + tail) > style_.width) break;
        list += item;
        ++shown;
    }
    if (shown < skipped_plugins_.size()) list += fmt::format("{}+{} more", list.empty() ? "" : ", ", skipped_plugins_.size() - shown);
    return fit(head + list + tail, style_.width);
}

void TableSink::finish() {
    if (!skipped_.empty() && style_.wide) {
        fmt::print(out_, "{}skipped:\n", header_done_ ? "\n" : "");
        for (const auto& [k, n] : skipped_) fmt::print(out_, "  {} ({} problem{})\n", k, n, n == 1 ? "" : "s");
    } else if (skipped_.size() == 1) {
        // NOTES: one reason for every skip (a kernel glob that matched nothing, a plugin without
        // a GPU) is the answer the user needs: it is shown whole, wrapped to the width.
        const auto& [why, n] = *skipped_.begin();
        fmt::print(out_, "{}", header_done_ ? "\n" : "");
        for (const auto& l : wrap(fmt::format("skipped ({} problem{}): {}", n, n == 1 ? "" : "s", why), style_.width, kIndent))
            fmt::print(out_, "{}\n", l);
    } else if (!skipped_.empty()) {
        fmt::print(out_, "{}{}\n", header_done_ ? "\n" : "", skipped_line());
    }
    fmt::print(out_, "\n{} verified, {} failed, {} errors, {} not verified, {} skipped\n", counts_[0], counts_[1], counts_[3],
               counts_[2], counts_[4]);
    std::fflush(out_);
}

}  // namespace spmma

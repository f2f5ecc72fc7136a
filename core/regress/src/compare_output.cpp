// The outputs of a comparison: the terminal table, Markdown, JUnit suites.
#include <spmma/core/compare.hpp>

#include <spmma/core/terminal.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace spmma {
namespace {

std::string ms(const PooledRecord& p) { return p.record.median_ms > 0 ? fmt::format("{:.4f}", p.record.median_ms) : "-"; }

std::string change(const CompareRow& row) {
    return row.interval.n_old > 0 && row.interval.n_new > 0 ? fmt::format("{:+.1f}%", 100 * (row.interval.estimate - 1)) : "-";
}

std::string pooled_note(const CompareRow& row) {
    std::string s;
    if (row.old_side.count > 1) s += fmt::format("; old: {} records pooled", row.old_side.count);
    if (row.new_side.count > 1) s += fmt::format("; new: {} records pooled", row.new_side.count);
    return s;
}

std::string unmatched_line(const PooledRecord& p) {
    const StoredRecord& r = p.record;
    std::string s = fmt::format("{} | {} | {}", r.label, r.plugin, r.kernel);
    if (!r.device.empty()) s += " | " + r.device;
    return s + fmt::format(" ({})", r.bad() ? "FAILING: " + r.status_line() : r.status);
}

bool several_devices(const CompareResult& r) {
    std::set<std::string> d;
    for (const auto& row : r.rows) d.insert(row.new_side.record.device.empty() ? row.old_side.record.device : row.new_side.record.device);
    return d.size() > 1;
}

std::string device_of(const CompareRow& row) {
    return row.new_side.record.device.empty() ? row.old_side.record.device : row.new_side.record.device;
}

std::string totals(const CompareResult& r) {
    // NOTES: with --per-clock a row slower only by its clock counts as "same" (the gate's verdict).
    const std::string clock =
        r.clock_only == 0 ? "" : fmt::format(" ({} slower in time only by a lower clock: same cycles{})", r.clock_only, r.options.per_clock ? ", counted as same" : "");
    return fmt::format("{} matched: {} slower{}, {} faster, {} same, {} too noisy; {} regression{}, {} failure{}; {} only in the old "
                       "file, {} only in the new -> exit {}",
                       r.rows.size(), r.slower, clock, r.faster, r.same, r.too_noisy,
                       r.regressions, r.regressions == 1 ? "" : "s", r.failures,
                       r.failures == 1 ? "" : "s", r.only_old.size(), r.only_new.size(), r.exit_code());
}

// Markdown table cells: no line breaks, and nothing that GitHub or GitLab would read as markup.
std::string md(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '\n': case '\r': out += ' '; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '|': case '*': case '_': case '`': case '[': case ']': case '\\': case '#': case '~':
                out += '\\';
                out += c;
                break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace

// The verdict padded to its column, then painted: red what fails the gate, yellow a slowdown
// the cycles call "same".
std::string verdict_cell(const CompareRow& row, bool colour) {
    const std::string padded = fmt::format("{:<10}", row.verdict);
    if (row.fails) return paint(padded, Colour::Red, colour);
    return row.by_time == TimingVerdict::Slower ? paint(padded, Colour::Yellow, colour) : padded;
}

std::string format_compare_table(const CompareResult& r, bool colour) {
    const bool devices = several_devices(r);
    size_t wl = 7, wp = 6, wk = 6, wd = 6;
    for (const auto& row : r.rows) {
        const StoredRecord& n = row.new_side.record;
        wl = std::max(wl, n.label.size());
        wp = std::max(wp, n.plugin.size());
        wk = std::max(wk, n.kernel.size());
        wd = std::max(wd, device_of(row).size());
    }
    std::string out = fmt::format("old: {} ({} records)\nnew: {} ({} records)\n{}\n\n", r.old_file, r.old_records, r.new_file,
                                  r.new_records, r.method());
    if (!r.rows.empty()) {
        const std::string dev_head = devices ? fmt::format(" {:<{}}", "device", wd) : "";
        out += fmt::format("{:<{}} {:<{}} {:<{}}{} {:>10} {:>10} {:>8}  {:<10}  {}\n", "problem", wl, "plugin", wp, "kernel", wk, dev_head,
                           "old ms", "new ms", "change", "verdict", "");
    }
    for (const auto& row : r.rows) {
        const StoredRecord& n = row.new_side.record;
        const std::string dev = devices ? fmt::format(" {:<{}}", device_of(row), wd) : "";
        out += fmt::format("{:<{}} {:<{}} {:<{}}{} {:>10} {:>10} {:>8}  {}  {}{}\n", n.label, wl, n.plugin, wp, n.kernel, wk, dev,
                           ms(row.old_side), ms(row.new_side), change(row), verdict_cell(row, colour), row.detail, pooled_note(row));
    }
    if (!r.only_old.empty()) {
        out += fmt::format("\nonly in the old file ({}):\n", r.only_old.size());
        for (const auto& p : r.only_old) out += "  " + unmatched_line(p) + "\n";
    }
    if (!r.only_new.empty()) {
        out += fmt::format("\nonly in the new file ({}):\n", r.only_new.size());
        for (const auto& p : r.only_new) out += "  " + unmatched_line(p) + "\n";
    }
    std::string failing;
    for (const auto& row : r.rows)
        if (row.fails)
            failing += fmt::format("  {} | {} | {}: {}: {}\n", row.new_side.record.label, row.new_side.record.plugin, row.new_side.record.kernel,
                                   row.verdict, row.detail);
    if (!failing.empty()) out += "\nregressions and failures:\n" + failing;
    if (r.too_noisy > 0)
        out += fmt::format("\n{} too noisy to judge at {:g}% / {:g}%: more iterations (--iterations) or a quieter machine narrow "
                           "the interval\n",
                           r.too_noisy, 100 * r.options.confidence, 100 * r.options.threshold);
    return out + "\n" + totals(r) + "\n";
}

std::string format_compare_markdown(const CompareResult& r) {
    std::string out = "# spmma compare\n\n";
    out += fmt::format("- old: `{}` ({} records)\n- new: `{}` ({} records)\n- {}\n\n", r.old_file, r.old_records, r.new_file,
                       r.new_records, md(totals(r)));
    out += fmt::format("Method: {}.\n\n", md(r.method()));
    if (!r.rows.empty()) {
        out += "| problem | plugin | kernel | device | old ms | new ms | change | verdict | detail |\n";
        out += "| --- | --- | --- | --- | ---: | ---: | ---: | --- | --- |\n";
        for (const auto& row : r.rows) {
            const StoredRecord& n = row.new_side.record;
            const std::string verdict = row.fails ? "**" + md(row.verdict) + "**" : md(row.verdict);
            out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", md(n.label), md(n.plugin), md(n.kernel), md(device_of(row)),
                               ms(row.old_side), ms(row.new_side), md(change(row)), verdict, md(row.detail + pooled_note(row)));
        }
    }
    for (const auto* list : {&r.only_old, &r.only_new}) {
        if (list->empty()) continue;
        out += fmt::format("\n## Only in the {} file\n\n", list == &r.only_old ? "old" : "new");
        for (const auto& p : *list) out += "- " + md(unmatched_line(p)) + "\n";
    }
    return out;
}

// NOTES: a too-noisy comparison is a <skipped> test case: no verdict was reached, so it neither
// passes nor fails; Jenkins and GitLab count and list skipped cases, so the inconclusive ones
// stay visible without failing the build (the exit code does not fail on them either). Records
// found in one file only are skipped cases too, except a failing record found only in the new
// file, which is a failure as it is in the exit code.
std::vector<JunitSuite> compare_junit(const CompareResult& r) {
    JunitSuite s;
    s.name = "spmma compare";
    s.properties = {{"old", r.old_file}, {"new", r.new_file}, {"confidence", fmt::format("{:g}", r.options.confidence)},
                    {"threshold_percent", fmt::format("{:g}", 100 * r.options.threshold)}, {"method", r.method()}};
    for (const auto& row : r.rows) {
        const StoredRecord &o = row.old_side.record, &n = row.new_side.record;
        JunitCase c;
        c.classname = junit_classname(n.plugin, n.kernel);
        c.name = n.label;
        c.time_s = n.total_seconds();
        c.message = row.verdict + ": " + row.detail + pooled_note(row);
        c.system_out = fmt::format("old: {} median {} ms, {} iterations ({}:{})\nnew: {} median {} ms, {} iterations ({}:{})\n", o.status,
                                   ms(row.old_side), o.times_ms.size(), o.file, o.line, n.status, ms(row.new_side), n.times_ms.size(), n.file,
                                   n.line);
        if (!device_of(row).empty()) c.system_out += "device: " + device_of(row) + "\n";
        if (!n.command.empty()) c.system_out += "rerun: " + n.command + "\n";
        if (row.fails) {
            c.outcome = JunitOutcome::Failure;
            c.type = row.timing == TimingVerdict::Slower ? "slower" : row.verdict == "REGRESSION" ? "regression" : "failing";
            c.detail = c.message + "\n" + n.mismatch_lines();
        } else if (row.timing == TimingVerdict::TooNoisy || row.status == StatusChange::BothSkipped ||
                   row.status == StatusChange::NoLongerBad) {
            c.outcome = JunitOutcome::Skipped;
        }
        s.cases.push_back(std::move(c));
    }
    for (const auto* list : {&r.only_old, &r.only_new}) {
        const bool old_list = list == &r.only_old;
        for (const auto& p : *list) {
            const StoredRecord& rec = p.record;
            JunitCase c;
            c.classname = junit_classname(rec.plugin, rec.kernel);
            c.name = rec.label;
            c.time_s = old_list ? 0 : rec.total_seconds();
            if (!old_list && rec.bad()) {
                c.outcome = JunitOutcome::Failure;
                c.type = "failing";
                c.message = "FAILING (only in the new file): " + rec.status_line();
                c.detail = c.message + "\n" + rec.mismatch_lines();
            } else {
                c.outcome = JunitOutcome::Skipped;
                c.message = fmt::format("only in the {} file ({})", old_list ? "old" : "new", rec.status);
            }
            c.system_out = fmt::format("{}:{}\n", rec.file, rec.line);
            s.cases.push_back(std::move(c));
        }
    }
    return {s};
}

}  // namespace spmma

// The page of `spmma report OLD NEW`: the verdicts of compare_records first, then the charts of
// new/old, what broke, what is in one file only, and the two runs' clocks side by side.
#include "report_parts.hpp"

#include <spmma/core/median.hpp>
#include <spmma/core/report_html.hpp>
#include <spmma/core/svg_chart.hpp>
#include <spmma/core/timing_stats.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace spmma {
namespace {

using namespace report_parts;
using Records = std::vector<StoredRecord>;

const StoredRecord& shown(const CompareRow& row) { return row.new_side.record; }

std::string device_of(const CompareRow& row) {
    return row.new_side.record.device.empty() ? row.old_side.record.device : row.new_side.record.device;
}

// Where a row stands in the verdict table: what fails the gate first (a record that broke, one
// slower beyond the threshold, other failures), then what changed, then what did not.
int rank(const CompareRow& row) {
    if (row.fails) return row.status == StatusChange::Broke || row.status == StatusChange::Lost ? 0 : row.timing == TimingVerdict::Slower ? 1 : 2;
    switch (row.timing) {
        case TimingVerdict::Slower: return 3;
        case TimingVerdict::TooNoisy: return 4;
        case TimingVerdict::Faster: return 5;
        case TimingVerdict::Same: return 7;
        case TimingVerdict::NotCompared: break;
    }
    return row.status == StatusChange::BothSkipped ? 7 : 6;
}

bool folded(const CompareRow& row) { return rank(row) == 7; }

std::string ratio_cell(const CompareRow& row) {
    const RatioInterval& ci = row.interval;
    if (!ci.defined) return "<td class=\"num\">&#8211;</td><td class=\"num\">&#8211;</td>";
    return fmt::format("<td class=\"num\">{:.3f} ({:+.1f}%)</td><td class=\"num\">{:.3f} to {:.3f}</td>", ci.estimate, 100 * (ci.estimate - 1), ci.lower,
                       ci.upper);
}

std::string ms_cell(const PooledRecord& p) {
    return p.record.median_ms > 0 ? fmt::format("<td class=\"num\">{:.4g}</td>", p.record.median_ms) : "<td class=\"num\">&#8211;</td>";
}

std::string verdict_rows(const std::vector<const CompareRow*>& rows, bool devices) {
    std::string out = "<table class=\"verdicts\"><tr><th>verdict</th><th>problem</th><th>plugin</th><th>kernel</th>";
    if (devices) out += "<th>device</th>";
    out += "<th>old ms</th><th>new ms</th><th>new/old</th><th>interval</th><th>why</th></tr>\n";
    for (const auto* row : rows) {
        const StoredRecord& n = shown(*row);
        const int r = rank(*row);
        out += fmt::format("<tr class=\"{}\"><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td>", r <= 1 ? "regression" : r == 2 ? "failure" : "",
                           row->fails ? "bad" : "", escape(row->verdict), escape(n.label), escape(n.plugin), escape(n.kernel));
        if (devices) out += fmt::format("<td>{}</td>", escape(device_of(*row)));
        out += ms_cell(row->old_side) + ms_cell(row->new_side) + ratio_cell(*row) + fmt::format("<td>{}</td></tr>\n", escape(row->detail));
    }
    return out + "</table>\n";
}

// Per operand type: how many regressions, and the median of their new/old.
std::string regressions_by_type(const std::vector<const CompareRow*>& sorted) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> ratios;
    std::map<std::string, int> broke;
    for (const auto* row : sorted) {
        if (rank(*row) > 1) continue;
        const std::string g = type_group(shown(*row));
        if (std::find(order.begin(), order.end(), g) == order.end()) order.push_back(g);
        if (row->interval.defined) ratios[g].push_back(row->interval.estimate);
        else ++broke[g];
    }
    if (order.empty()) return "";
    std::string out = "<ul class=\"by-type\">\n";
    for (const auto& g : order) {
        const auto& v = ratios[g];
        std::string parts;
        if (!v.empty()) {
            const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
            parts = fmt::format("{} slower, new/old median {:.3f} ({:+.1f}%), {:.3f} to {:.3f}", v.size(), median(v), 100 * (median(v) - 1), *lo, *hi);
        }
        if (broke[g]) parts += fmt::format("{}{} broke (ran, now failing, erring or skipped)", parts.empty() ? "" : "; ", broke[g]);
        out += fmt::format("<li><b>{}</b>: {}</li>\n", escape(g), parts);
    }
    return out + "</ul>\n";
}

std::string verdicts_section(const CompareResult& r, bool devices) {
    std::vector<const CompareRow*> sorted;
    for (const auto& row : r.rows) sorted.push_back(&row);
    std::stable_sort(sorted.begin(), sorted.end(), [](const CompareRow* a, const CompareRow* b) {
        if (rank(*a) != rank(*b)) return rank(*a) < rank(*b);
        return a->interval.defined && b->interval.defined && a->interval.estimate > b->interval.estimate;
    });
    std::string out = "<h2 id=\"verdicts\">Verdicts</h2>\n";
    if (r.regressions + r.failures > 0)
        out += fmt::format("<p class=\"headline\"><b class=\"bad\">{} regression{}, {} failure{}</b>: the new run fails the gate "
                           "(<code>spmma compare</code> exits 1).</p>\n",
                           r.regressions, r.regressions == 1 ? "" : "s", r.failures, r.failures == 1 ? "" : "s");
    else if (r.rows.empty())
        out += "<p class=\"headline\"><b class=\"bad\">No record of the new run matches one of the old</b> (<code>spmma compare</code> exits 3).</p>\n";
    else
        out += "<p class=\"headline\"><b class=\"good\">No regression, no failure</b> (<code>spmma compare</code> exits 0).</p>\n";
    out += regressions_by_type(sorted);
    out += fmt::format("<p>{} matched: {} slower, {} faster, {} same, {} too noisy; {} only in the old file, {} only in the new.</p>\n", r.rows.size(),
                       r.slower, r.faster, r.same, r.too_noisy, r.only_old.size(), r.only_new.size());
    std::vector<const CompareRow*> open, rest;
    for (const auto* row : sorted) (folded(*row) ? rest : open).push_back(row);
    if (!open.empty()) out += verdict_rows(open, devices);
    if (!rest.empty())
        out += fmt::format("<details><summary>{} record{} the same or skipped in both</summary>\n{}</details>\n", rest.size(), rest.size() == 1 ? "" : "s",
                           verdict_rows(rest, devices));
    return out + fmt::format("<p class=\"meta\">{}.</p>\n", escape(r.method()));
}

// A problem's name on the ratio chart's x axis: its sizes, or its label where two problems of a
// chart share sizes.
std::vector<std::string> category_names(const std::vector<const StoredRecord*>& problems) {
    std::vector<std::string> names;
    std::map<std::string, int> seen;
    for (const auto* p : problems) ++seen[fmt::format("{}x{}x{}", p->m, p->n, p->k)];
    for (const auto* p : problems) {
        const std::string sizes = fmt::format("{}x{}x{}", p->m, p->n, p->k);
        names.push_back(seen[sizes] > 1 ? p->label : sizes);
    }
    return names;
}

std::string ratio_section(const CompareResult& r, bool devices, Styles& styles, int& charts) {
    std::string out = "<h2 id=\"ratios\">New / old per problem</h2>\n";
    std::vector<std::string> groups;
    for (const auto& row : r.rows)
        if (row.interval.defined && std::find(groups.begin(), groups.end(), type_group(shown(row))) == groups.end()) groups.push_back(type_group(shown(row)));
    if (groups.empty()) return out + "<p>No matched record has times on both sides.</p>\n";
    const double t = r.options.threshold;
    out += fmt::format("<p>Each point is new/old time of one record (above 1: slower), its whisker the {:g}% interval. In the grey band "
                       "(&#177;{:g}%) a change counts as the same; a whisker wholly above it is a regression.</p>\n",
                       100 * r.options.confidence, 100 * t);
    for (const auto& g : groups) {
        // Problems of the chart, smallest first; a series per plugin (and kernel, where a plugin has several).
        std::vector<const CompareRow*> rows;
        for (const auto& row : r.rows)
            if (row.interval.defined && type_group(shown(row)) == g) rows.push_back(&row);
        std::vector<const StoredRecord*> problems;
        for (const auto* row : rows)
            if (std::none_of(problems.begin(), problems.end(), [&](const StoredRecord* p) { return p->problem_key == shown(*row).problem_key; }))
                problems.push_back(&shown(*row));
        std::stable_sort(problems.begin(), problems.end(), [](const StoredRecord* a, const StoredRecord* b) { return a->flops() < b->flops(); });
        std::map<std::string, std::set<std::string>> kernels;
        for (const auto* row : rows) kernels[shown(*row).plugin].insert(shown(*row).kernel);
        Chart c;
        c.title = "New / old time, " + g;
        c.x = {"problem (m x n x k)", false, false, category_names(problems)};
        c.y = {"new / old time", false, false, {}};
        c.reference_y = 1.0;
        c.reference_label = "= old";
        c.band = std::pair{1 - t, 1 + t};
        c.band_label = fmt::format("same (+-{:g}%)", 100 * t);
        c.y_from_zero = false;  // the changes are the picture, not their distance from 0
        for (const auto* row : rows) {
            const StoredRecord& n = shown(*row);
            const auto at = std::find_if(problems.begin(), problems.end(), [&](const StoredRecord* p) { return p->problem_key == n.problem_key; });
            std::string name = kernels[n.plugin].size() > 1 ? n.plugin + " " + n.kernel : n.plugin;
            if (devices && !device_of(*row).empty()) name += " on " + device_of(*row);
            const RatioInterval& ci = row->interval;
            ChartPoint p{static_cast<double>(at - problems.begin() + 1), ci.estimate,
                         fmt::format("{} | {} {}: {} {:+.1f}%, interval {:.3f} to {:.3f}", n.label, n.plugin, n.kernel, row->verdict,
                                     100 * (ci.estimate - 1), ci.lower, ci.upper),
                         ci.lower, ci.upper, ""};
            add_point(c, styles, name, std::move(p));
        }
        out += "<figure>" + render_chart_svg(c, fmt::format("ratio-{}", ++charts)) + "</figure>\n";
    }
    return out;
}

std::string failure_row(const StoredRecord& n, const std::string& was) {
    std::string mm = escape(n.mismatch_lines(5));
    if (n.has_verification && n.mismatches > 0) mm = fmt::format("{} of {} checked ({})\n", n.mismatches, n.checked, escape(n.verify_mode)) + mm;
    return fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"bad\">{}</td><td><pre>{}</pre></td><td><code>{}</code></td>"
                       "<td>{}:{}</td></tr>\n",
                       escape(n.label), escape(n.plugin), escape(n.kernel), escape(device_at(n)), escape(was), escape(n.status_line()), mm,
                       escape(n.command), escape(n.file), n.line);
}

std::string new_failures_section(const CompareResult& r) {
    std::string out = "<h2 id=\"new-failures\">New failures</h2>\n", rows;
    for (const auto& row : r.rows)
        if (row.status == StatusChange::Broke || row.status == StatusChange::Lost || row.status == StatusChange::NowBad)
            rows += failure_row(shown(row), row.old_side.record.status);
    for (const auto& p : r.only_new)
        if (p.record.bad()) rows += failure_row(p.record, "(not in the old file)");
    int still = 0;
    for (const auto& row : r.rows) still += row.status == StatusChange::StillBad;
    const std::string still_note = still ? fmt::format("<p>{} record{} failed in the old run as well (listed among the verdicts).</p>\n", still, still == 1 ? "" : "s") : "";
    if (rows.empty()) return out + "<p>None: nothing that ran in the old run fails, errs or is skipped in the new.</p>\n" + still_note;
    return out + "<table class=\"failures\"><tr><th>problem</th><th>plugin</th><th>kernel</th><th>device</th><th>was</th><th>now</th>"
                 "<th>first mismatches</th><th>rerun</th><th>record</th></tr>\n" +
           rows + "</table>\n" + still_note;
}

std::string only_list(const std::vector<PooledRecord>& only, const std::string& file, const char* side) {
    if (only.empty()) return fmt::format("<p>Only in the {} file (<code>{}</code>): none.</p>\n", side, escape(file));
    std::string items;
    for (const auto& p : only) {
        const StoredRecord& x = p.record;
        items += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td></tr>\n", escape(x.label), escape(x.plugin),
                             escape(x.kernel), escape(device_at(x)), x.bad() ? "bad" : "", escape(x.ran() ? x.status : x.status_line()));
    }
    return fmt::format("<details{}><summary>Only in the {} file (<code>{}</code>): {} record{}</summary>\n<table><tr><th>problem</th><th>plugin</th>"
                       "<th>kernel</th><th>device</th><th>status</th></tr>\n{}</table></details>\n",
                       only.size() <= 20 ? " open" : "", side, escape(file), only.size(), only.size() == 1 ? "" : "s", items);
}

// One run's clocks, power and temperature over its records that carry them.
struct RunClocks {
    int with = 0, without = 0;
    std::vector<double> sm, mem, power, temperature, cap;
    double sm_min = 0, sm_max = 0, power_max = 0;
    std::set<std::string> throttle;
    std::map<std::string, int> errors;
};

RunClocks run_clocks(const Records& rs) {
    RunClocks c;
    for (const auto& r : rs) {
        if (!r.ran()) continue;
        const StoredClocks& k = r.clocks;
        if (!k.present) {
            ++c.without;
            ++c.errors[k.error.empty() ? "no clocks in the record" : k.error];
            continue;
        }
        c.sm_min = c.with ? std::min(c.sm_min, k.sm_mhz_min) : k.sm_mhz_min;
        c.sm_max = c.with ? std::max(c.sm_max, k.sm_mhz_max) : k.sm_mhz_max;
        c.power_max = std::max(c.power_max, k.power_w_max);
        ++c.with;
        c.sm.push_back(k.sm_mhz);
        c.mem.push_back(k.mem_mhz);
        c.power.push_back(k.power_w);
        c.temperature.push_back(k.temperature_c);
        c.cap.push_back(k.power_cap_fraction);
        c.throttle.insert(k.throttle.begin(), k.throttle.end());
    }
    return c;
}

std::string clocks_section(const CompareResult& r, const Records& olds, const Records& news) {
    const RunClocks a = run_clocks(olds), b = run_clocks(news);
    std::string out = "<h2 id=\"clocks\">The two runs: clocks and power</h2>\n<p>Medians over each run's records that ran (each record's own "
                      "median over its timed launches). A lower SM clock or a power cap in one run slows every kernel of it.</p>\n";
    out += fmt::format("<table class=\"runs\"><tr><th></th><th>old</th><th>new</th></tr>\n<tr><td>file</td><td><code>{}</code></td><td><code>{}</code></td></tr>\n",
                       escape(r.old_file), escape(r.new_file));
    const auto row = [&](const char* what, const std::string& x, const std::string& y) {
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", what, x, y);
    };
    row("records", std::to_string(olds.size()), std::to_string(news.size()));
    row("dates", date_range(olds), date_range(news));
    row("devices", tally(olds, device_identity), tally(news, device_identity));
    row("hosts", tally(olds, [](const StoredRecord& x) { return x.host; }), tally(news, [](const StoredRecord& x) { return x.host; }));
    row("spmma versions", tally(olds, [](const StoredRecord& x) { return x.spmma_version; }), tally(news, [](const StoredRecord& x) { return x.spmma_version; }));
    row("records with clocks", fmt::format("{} of {}", a.with, a.with + a.without), fmt::format("{} of {}", b.with, b.with + b.without));
    const auto stat = [](const RunClocks& c, const std::vector<double>& v, const char* unit, std::string extra) {
        return c.with ? fmt::format("{:.0f} {}{}", median(v), unit, extra) : std::string("&#8211;");
    };
    row("SM clock", stat(a, a.sm, "MHz", fmt::format(" ({:.0f} to {:.0f})", a.sm_min, a.sm_max)),
        stat(b, b.sm, "MHz", fmt::format(" ({:.0f} to {:.0f})", b.sm_min, b.sm_max)));
    if (a.with && b.with)
        row("SM clock new/old", "", fmt::format("{:.3f} ({:+.1f}%)", median(b.sm) / median(a.sm), 100 * (median(b.sm) / median(a.sm) - 1)));
    row("memory clock", stat(a, a.mem, "MHz", ""), stat(b, b.mem, "MHz", ""));
    row("power", stat(a, a.power, "W", fmt::format(" (at most {:.0f} W)", a.power_max)), stat(b, b.power, "W", fmt::format(" (at most {:.0f} W)", b.power_max)));
    row("temperature", stat(a, a.temperature, "&#176;C", ""), stat(b, b.temperature, "&#176;C", ""));
    const auto cap = [](const RunClocks& c) { return c.with ? fmt::format("{:.0f}% of samples", 100 * median(c.cap)) : std::string("&#8211;"); };
    row("at the power cap (median)", cap(a), cap(b));
    const auto reasons = [](const RunClocks& c) {
        std::string s;
        for (const auto& t : c.throttle) s += (s.empty() ? "" : ", ") + escape(t);
        return c.with ? (s.empty() ? std::string("none") : s) : std::string("&#8211;");
    };
    row("throttle reasons seen", reasons(a), reasons(b));
    const auto why = [](const RunClocks& c) {
        std::string s;
        for (const auto& [e, n] : c.errors) s += fmt::format("{}{} ({})", s.empty() ? "" : "; ", escape(e), n);
        return s.empty() ? std::string("&#8211;") : s;
    };
    row("without clocks, why", why(a), why(b));
    return out + "</table>\n";
}

}  // namespace

HtmlReport render_compare_report(const CompareResult& r, const Records& olds, const Records& news, const ReportOptions& opt) {
    HtmlReport rep;
    std::set<std::string> device_names;
    for (const auto& row : r.rows) device_names.insert(device_of(row));
    const bool devices = device_names.size() > 1;
    std::string body = fmt::format("<h1>{}</h1>\n<p class=\"meta\">New <code>{}</code> ({} records) against old <code>{}</code> ({} records); made "
                                   "by spmma {} on {}.</p>\n",
                                   escape(opt.title), escape(r.new_file), r.new_records, escape(r.old_file), r.old_records, escape(SPMMA_VERSION),
                                   escape(opt.generated));
    body += verdicts_section(r, devices);
    Styles styles;
    body += ratio_section(r, devices, styles, rep.charts);
    body += new_failures_section(r);
    body += "<h2 id=\"one-file\">Records in one file only</h2>\n" + only_list(r.only_old, r.old_file, "old") + only_list(r.only_new, r.new_file, "new");
    body += clocks_section(r, olds, news);
    rep.html = page(opt.title, rep.charts, body);
    return rep;
}

}  // namespace spmma

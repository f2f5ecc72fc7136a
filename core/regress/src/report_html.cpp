#include "report_parts.hpp"

#include <spmma/core/report_html.hpp>
#include <spmma/core/svg_chart.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace spmma {
namespace {

using Records = std::vector<StoredRecord>;

using namespace report_parts;

std::string e(const std::string& s) { return escape(s); }

std::string series_name(const StoredRecord& r, bool devices) { return devices && !r.device.empty() ? r.plugin + " on " + r.device : r.plugin; }

// The fastest kernel of each plugin on each problem and device (records that ran, with a time).
std::vector<const StoredRecord*> best_runs(const Records& rs) {
    std::vector<const StoredRecord*> best;
    std::map<std::string, size_t> index;
    for (const auto& r : rs) {
        if (!r.ran() || !(r.median_ms > 0) || !std::isfinite(r.tflops())) continue;
        const auto [it, fresh] = index.emplace(r.problem_key + '\x1f' + r.plugin + '\x1f' + r.device, best.size());
        if (fresh) best.push_back(&r);
        else if (r.tflops() > best[it->second]->tflops()) best[it->second] = &r;
    }
    return best;
}

// A log axis when the values span more than `ratio`.
bool wide(const std::vector<double>& v, double ratio) {
    if (v.empty()) return false;
    const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
    return *mn > 0 && *mx / *mn > ratio;
}

std::vector<std::string> groups_of(const std::vector<const StoredRecord*>& best) {
    std::vector<std::string> g;
    for (const auto* r : best)
        if (std::find(g.begin(), g.end(), type_group(*r)) == g.end()) g.push_back(type_group(*r));
    return g;
}

std::string count_table(const Records& rs) {
    static constexpr const char* kStatuses[] = {"verified", "failed", "error", "unverified", "skipped"};
    std::vector<std::string> plugins;
    std::map<std::string, std::map<std::string, int>> n;
    for (const auto& r : rs) {
        if (std::find(plugins.begin(), plugins.end(), r.plugin) == plugins.end()) plugins.push_back(r.plugin);
        const bool known = std::find(std::begin(kStatuses), std::end(kStatuses), r.status) != std::end(kStatuses);
        ++n[r.plugin][known ? r.status : "other"];
        ++n[""][known ? r.status : "other"];
    }
    std::string out = "<table class=\"counts\"><tr><th>plugin</th>";
    for (const char* s : kStatuses) out += fmt::format("<th>{}</th>", s);
    out += "<th>other</th><th>records</th></tr>\n";
    plugins.push_back("");
    for (const auto& p : plugins) {
        auto& row = n[p];
        out += fmt::format("<tr{}><td>{}</td>", p.empty() ? " class=\"total\"" : "", p.empty() ? "all" : e(p));
        int total = 0;
        for (const char* s : kStatuses) {
            out += fmt::format("<td class=\"{}\">{}</td>", row[s] && (std::string(s) == "failed" || std::string(s) == "error") ? "bad" : "", row[s]);
            total += row[s];
        }
        out += fmt::format("<td class=\"{}\">{}</td><td>{}</td></tr>\n", row["other"] ? "bad" : "", row["other"], total + row["other"]);
    }
    return out + "</table>\n";
}

std::string summary_section(const Records& rs, const ReportOptions& opt) {
    std::string files;
    for (const auto& [f, n] : opt.files) files += fmt::format("{}<code>{}</code> ({})", files.empty() ? "" : "; ", e(f), n);
    std::string out = "<h2 id=\"summary\">Summary</h2>\n" + count_table(rs) + "<dl class=\"facts\">\n";
    out += fmt::format("<dt>devices</dt><dd>{}</dd>\n", tally(rs, device_identity));
    out += fmt::format("<dt>spmma versions</dt><dd>{}</dd>\n", tally(rs, [](const StoredRecord& r) { return r.spmma_version; }));
    out += fmt::format("<dt>dates</dt><dd>{}</dd>\n", date_range(rs));
    out += fmt::format("<dt>hosts</dt><dd>{}</dd>\n", tally(rs, [](const StoredRecord& r) { return r.host; }));
    out += fmt::format("<dt>files</dt><dd>{}</dd>\n</dl>\n", files);
    return out;
}

// Records that ran but have no usable time (every one non-finite): named, since no chart shows them.
std::string untimed_note(const Records& rs) {
    std::string list;
    int n = 0;
    for (const auto& r : rs)
        if (r.ran() && !(r.median_ms > 0 && std::isfinite(r.tflops())))
            list += fmt::format("<li>{} | {} | {} ({}:{})</li>", e(r.label), e(r.plugin), e(r.kernel), e(r.file), r.line), ++n;
    if (n == 0) return "";
    return fmt::format("<p>{} record{} ran without a usable time (no finite, positive iteration time) and {} in no chart:</p>\n<ul>{}</ul>\n", n,
                       n == 1 ? "" : "s", n == 1 ? "is" : "are", list);
}

// The shape family that joins a record's point to others of its series in a throughput chart:
// the two sizes held fixed while the third varies ("m=4096 k=4096, n varies"), or "square"
// for m = n = k; the first of these that another record of the series shares. Empty: none.
std::string shape_family(const StoredRecord& r, const std::vector<const StoredRecord*>& series) {
    struct Family {
        const char* name;
        int64_t StoredRecord::*a;
        int64_t StoredRecord::*b;
        int64_t StoredRecord::*varies;
    };
    static constexpr Family kFamilies[] = {{"n", &StoredRecord::m, &StoredRecord::k, &StoredRecord::n},
                                           {"m", &StoredRecord::n, &StoredRecord::k, &StoredRecord::m},
                                           {"k", &StoredRecord::m, &StoredRecord::n, &StoredRecord::k}};
    static constexpr const char* kFixed[][2] = {{"m", "k"}, {"n", "k"}, {"m", "n"}};
    for (size_t f = 0; f < std::size(kFamilies); ++f) {
        const Family& fam = kFamilies[f];
        for (const auto* o : series)
            if (o->*fam.a == r.*fam.a && o->*fam.b == r.*fam.b && o->*fam.varies != r.*fam.varies)
                return fmt::format("{}={} {}={}, {} varies", kFixed[f][0], r.*fam.a, kFixed[f][1], r.*fam.b, fam.name);
    }
    const auto square = [](const StoredRecord& x) { return x.m == x.n && x.n == x.k; };
    if (square(r))
        for (const auto* o : series)
            if (square(*o) && o->m != r.m) return "square";
    return "";
}

// A throughput point: the median's TFLOP/s, with the slowest and the fastest launch as its error bar.
ChartPoint throughput_point(const StoredRecord& r, std::string family) {
    ChartPoint p{r.flops(), r.tflops(), "", std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), std::move(family)};
    std::string spread;
    if (!r.times_ms.empty()) {
        const auto [fast, slow] = std::minmax_element(r.times_ms.begin(), r.times_ms.end());
        p.y_lo = r.flops() / (*slow * 1e-3) / 1e12;
        p.y_hi = r.flops() / (*fast * 1e-3) / 1e12;
        spread = fmt::format(" (launches {:.4g} to {:.4g})", p.y_lo, p.y_hi);
    }
    const std::string sol = r.sol_fraction > 0 ? fmt::format(", {:.0f}% of speed of light{}", 100 * r.sol_fraction,
                                                             r.sol_bound_by.empty() ? "" : " (" + r.sol_bound_by + " bound)")
                                               : "";
    p.tip = fmt::format("{} | {} {}: {:.4g} TFLOP/s{}, median {:.4g} ms of {} launches{}{}{}{}", r.label, r.plugin, r.kernel, r.tflops(), spread,
                        r.median_ms, r.times_ms.size(), sol, r.status == "unverified" ? " (not verified)" : "",
                        r.device.empty() ? "" : ", " + device_at(r), p.group.empty() ? "" : "; " + p.group);
    return p;
}

std::string throughput_section(const std::vector<const StoredRecord*>& best, const std::string& untimed, bool devices, Styles& styles,
                               int& charts) {
    std::string out = "<h2 id=\"throughput\">Throughput</h2>\n" + untimed;
    if (best.empty()) return out + "<p>No record ran with a time.</p>\n";
    out += "<p>Each point is one plugin's fastest kernel on one problem: dense-equivalent TFLOP/s (2&#183;m&#183;n&#183;k / median "
           "launch time); its error bar spans the slowest to the fastest launch. Lines join a plugin's problems of one shape family: "
           "two sizes fixed while the third varies, or square sizes. Hover a point for the problem, kernel and family.</p>\n";
    for (const auto& g : groups_of(best)) {
        Chart c;
        c.title = "Throughput, " + g;
        c.x = {"problem size, 2·m·n·k (flop)", true, true, {}};
        std::map<std::string, std::vector<const StoredRecord*>> series;
        std::vector<const StoredRecord*> in_chart;
        for (const auto* r : best)
            if (type_group(*r) == g) series[series_name(*r, devices)].push_back(r), in_chart.push_back(r);
        std::vector<double> ys;
        for (const auto* r : in_chart) {
            const auto& mine = series[series_name(*r, devices)];
            ChartPoint p = throughput_point(*r, shape_family(*r, mine));
            ys.insert(ys.end(), {p.y, p.y_lo, p.y_hi});
            add_point(c, styles, series_name(*r, devices), std::move(p));
        }
        ys.erase(std::remove_if(ys.begin(), ys.end(), [](double v) { return !std::isfinite(v); }), ys.end());
        c.y = {"TFLOP/s", wide(ys, 100), false, {}};
        out += "<figure>" + render_chart_svg(c, fmt::format("throughput-{}", ++charts)) + "</figure>\n";
    }
    return out;
}

std::string speedup_table(const std::vector<std::pair<const StoredRecord*, std::map<std::string, const StoredRecord*>>>& rows,
                          const std::vector<std::string>& columns, bool devices) {
    std::string out = "<table class=\"speedup\"><tr><th>problem</th>";
    if (devices) out += "<th>device</th>";
    out += "<th>baseline median ms</th>";
    for (const auto& c : columns) out += fmt::format("<th>{}</th>", e(c));
    out += "</tr>\n";
    for (const auto& [base, others] : rows) {
        out += fmt::format("<tr><td>{}</td>", e(base->label));
        if (devices) out += fmt::format("<td>{}</td>", e(base->device));
        out += fmt::format("<td>{:.4g}</td>", base->median_ms);
        for (const auto& c : columns) {
            const auto it = others.find(c);
            if (it == others.end()) out += "<td>&#8211;</td>";
            else out += fmt::format("<td title=\"{}\">{:.2f}&#215;</td>", e(it->second->kernel), base->median_ms / it->second->median_ms);
        }
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

std::string speedup_section(const std::vector<const StoredRecord*>& best, const std::string& baseline, bool devices, Styles& styles,
                            int& charts) {
    std::string out = "<h2 id=\"speedup\">Speedup over " + e(baseline) + "</h2>\n";
    // Baseline runs by problem and device; each other plugin's best against it.
    std::map<std::string, const StoredRecord*> base;
    for (const auto* r : best)
        if (r->plugin == baseline) base[r->problem_key + '\x1f' + r->device] = r;
    if (base.empty()) return out + "<p>No record of the baseline plugin <code>" + e(baseline) + "</code> ran with a time.</p>\n";
    out += "<p>Speedup = the baseline's median time / the plugin's median time, fastest kernel of each, same problem and device.</p>\n";
    std::vector<std::pair<const StoredRecord*, std::map<std::string, const StoredRecord*>>> rows;
    std::map<const StoredRecord*, size_t> row_of;
    std::vector<std::string> columns;
    for (const auto* r : best) {
        const auto b = base.find(r->problem_key + '\x1f' + r->device);
        if (r->plugin == baseline || b == base.end()) continue;
        const auto [it, fresh] = row_of.emplace(b->second, rows.size());
        if (fresh) rows.push_back({b->second, {}});
        rows[it->second].second[series_name(*r, false)] = r;
        if (std::find(columns.begin(), columns.end(), r->plugin) == columns.end()) columns.push_back(r->plugin);
    }
    if (rows.empty()) return out + "<p>No other plugin ran a problem the baseline ran.</p>\n";
    for (const auto& g : groups_of(best)) {
        Chart c;
        c.title = "Speedup over " + baseline + ", " + g;
        c.x = {"problem size, 2·m·n·k (flop)", true, true, {}};
        c.reference_y = 1.0;
        c.reference_label = "= " + baseline;
        std::vector<double> ys;
        for (const auto& [b, others] : rows) {
            if (type_group(*b) != g) continue;
            for (const auto& [plugin, r] : others) {
                const double s = b->median_ms / r->median_ms;
                ys.push_back(s);
                ChartPoint p;
                p.x = r->flops();
                p.y = s;
                p.tip = fmt::format("{} | {} {}: {:.3g}x {}", r->label, r->plugin, r->kernel, s, baseline);
                add_point(c, styles, series_name(*r, devices), std::move(p));
            }
        }
        if (ys.empty()) continue;
        c.y = {"speedup over " + baseline, wide(ys, 30), false, {}};
        out += "<figure>" + render_chart_svg(c, fmt::format("speedup-{}", ++charts)) + "</figure>\n";
    }
    return out + speedup_table(rows, columns, devices);
}

std::string failures_section(const Records& rs) {
    std::string out = "<h2 id=\"failures\">Failures and errors</h2>\n";
    std::string rows;
    for (const auto& r : rs) {
        if (!r.bad()) continue;
        std::string mm = e(r.mismatch_lines(5));
        if (r.has_verification && r.mismatches > 0) mm = fmt::format("{} of {} checked ({})\n", r.mismatches, r.checked, e(r.verify_mode)) + mm;
        rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"bad\">{}</td><td>{}</td><td><pre>{}</pre></td>"
                            "<td><code>{}</code></td><td>{}:{}</td></tr>\n",
                            e(r.label), e(r.plugin), e(r.kernel), e(device_at(r)), e(r.status), e(r.stage.empty() ? r.reason : r.stage + ": " + r.reason),
                            mm, e(r.command), e(r.file), r.line);
    }
    if (rows.empty()) return out + "<p>None.</p>\n";
    return out + "<table class=\"failures\"><tr><th>problem</th><th>plugin</th><th>kernel</th><th>device</th><th>status</th>"
                 "<th>reason</th><th>first mismatches</th><th>rerun</th><th>record</th></tr>\n" +
           rows + "</table>\n";
}

std::string skipped_section(const Records& rs) {
    std::vector<std::pair<std::string, int>> reasons;
    for (const auto& r : rs) {
        if (!r.skipped()) continue;
        const std::string key = (r.plugin.empty() ? "(no plugin)" : r.plugin) + ": " + r.reason;
        auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& p) { return p.first == key; });
        if (it == reasons.end()) reasons.emplace_back(key, 1);
        else ++it->second;
    }
    if (reasons.empty()) return "";
    std::string out = "<h2 id=\"skipped\">Skipped</h2>\n<ul>\n";
    for (const auto& [k, n] : reasons) out += fmt::format("<li>{} ({} record{})</li>\n", e(k), n, n == 1 ? "" : "s");
    return out + "</ul>\n";
}

// The baseline: the one asked for, else the one every record that names one names.
std::string choose_baseline(const Records& rs, const std::string& asked) {
    if (!asked.empty()) return asked;
    std::set<std::string> named;
    for (const auto& r : rs)
        if (!r.baseline_plugin.empty()) named.insert(r.baseline_plugin);
    return named.size() == 1 ? *named.begin() : "";
}

}  // namespace

HtmlReport render_html_report(const Records& rs, const ReportOptions& opt) {
    HtmlReport rep;
    const bool devices = several_devices(rs);
    const auto best = best_runs(rs);
    std::string body = fmt::format("<h1>{}</h1>\n<p class=\"meta\">{} records; made by spmma {} on {}.</p>\n", e(opt.title), rs.size(),
                                   e(SPMMA_VERSION), e(opt.generated));
    body += summary_section(rs, opt);
    Styles styles;
    body += throughput_section(best, untimed_note(rs), devices, styles, rep.charts);
    rep.baseline = choose_baseline(rs, opt.baseline);
    if (!rep.baseline.empty()) body += speedup_section(best, rep.baseline, devices, styles, rep.charts);
    else body += "<h2 id=\"speedup\">Speedup</h2>\n<p>No baseline plugin: <code>spmma report --baseline PLUGIN</code> adds this section.</p>\n";
    body += failures_section(rs);
    body += skipped_section(rs);
    rep.html = page(opt.title, rep.charts, body);
    return rep;
}

}  // namespace spmma

#include <spmma/core/markup.hpp>
#include <spmma/core/report_html.hpp>
#include <spmma/core/svg_chart.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace spmma {
namespace {

using Records = std::vector<StoredRecord>;

std::string e(const std::string& s) { return markup_escape(s); }

// The chart a record belongs to: its operand types (and block scales).
std::string type_group(const StoredRecord& r) {
    std::string g = r.a_type == r.b_type ? r.a_type : r.a_type + "*" + r.b_type;
    if (!r.scale_type.empty()) g += fmt::format(" {}/{}", r.scale_type, r.scale_block);
    return g.empty() ? "unknown types" : g;
}

bool several_devices(const Records& rs) {
    std::set<std::string> d;
    for (const auto& r : rs) d.insert(r.device);
    return d.size() > 1;
}

// Where a record ran, for a table cell or a tooltip: "NVIDIA H100 80GB HBM3 (device 1)".
std::string device_at(const StoredRecord& r) {
    return r.device_index < 0 ? r.device : fmt::format("{} (device {})", r.device, r.device_index);
}

// One device in the summary: "NVIDIA H100 80GB HBM3 (sm_90), device 1, GPU-8c1f...", each part
// the record has. Two GPUs of one name on a host differ by index and UUID.
std::string device_identity(const StoredRecord& r) {
    std::string s = r.device_arch.empty() ? r.device : r.device + " (" + r.device_arch + ")";
    if (r.device_index >= 0) s += fmt::format(", device {}", r.device_index);
    if (!r.device_uuid.empty()) s += ", " + r.device_uuid;
    return s;
}

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

// Series names in first-seen order over the whole page: a series keeps its colour and marker
// in every chart.
class Styles {
public:
    int operator()(const std::string& name) {
        const auto it = std::find(names_.begin(), names_.end(), name);
        if (it != names_.end()) return static_cast<int>(it - names_.begin());
        names_.push_back(name);
        return static_cast<int>(names_.size() - 1);
    }

private:
    std::vector<std::string> names_;
};

// Adds point `p` to the series named `name`, made when first seen.
void add_point(Chart& c, Styles& styles, const std::string& name, ChartPoint p) {
    auto it = std::find_if(c.series.begin(), c.series.end(), [&](const ChartSeries& s) { return s.name == name; });
    if (it == c.series.end()) it = c.series.insert(c.series.end(), ChartSeries{name, {}, styles(name)});
    it->points.push_back(std::move(p));
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

// "value (count)" for each distinct value of `field`, most frequent first.
template <class F>
std::string tally(const Records& rs, F field) {
    std::map<std::string, int> n;
    for (const auto& r : rs) ++n[field(r)];
    std::vector<std::pair<std::string, int>> v(n.begin(), n.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [k, c] : v) out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", e(k.empty() ? "(none)" : k), c);
    return out;
}

std::string summary_section(const Records& rs, const ReportOptions& opt) {
    std::string first, last;
    for (const auto& r : rs) {
        if (r.timestamp.empty()) continue;
        if (first.empty() || r.timestamp < first) first = r.timestamp;
        if (last.empty() || r.timestamp > last) last = r.timestamp;
    }
    std::string files;
    for (const auto& [f, n] : opt.files) files += fmt::format("{}<code>{}</code> ({})", files.empty() ? "" : "; ", e(f), n);
    std::string out = "<h2 id=\"summary\">Summary</h2>\n" + count_table(rs) + "<dl class=\"facts\">\n";
    out += fmt::format("<dt>devices</dt><dd>{}</dd>\n", tally(rs, device_identity));
    out += fmt::format("<dt>spmma versions</dt><dd>{}</dd>\n", tally(rs, [](const StoredRecord& r) { return r.spmma_version; }));
    out += fmt::format("<dt>dates</dt><dd>{}</dd>\n", first.empty() ? "(none recorded)" : e(first == last ? first : first + " to " + last));
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

std::string throughput_section(const std::vector<const StoredRecord*>& best, const std::string& untimed, bool devices, Styles& styles,
                               int& charts) {
    std::string out = "<h2 id=\"throughput\">Throughput</h2>\n" + untimed;
    if (best.empty()) return out + "<p>No record ran with a time.</p>\n";
    out += "<p>Each point is one plugin's fastest kernel on one problem: dense-equivalent TFLOP/s (2&#183;m&#183;n&#183;k / median "
           "time). Hover a point for the problem and kernel.</p>\n";
    for (const auto& g : groups_of(best)) {
        Chart c;
        c.title = "Throughput, " + g;
        c.x = {"problem size, 2·m·n·k (flop)", true, true};
        std::vector<double> ys;
        for (const auto* r : best) {
            if (type_group(*r) != g) continue;
            ys.push_back(r->tflops());
            add_point(c, styles, series_name(*r, devices),
                      {r->flops(), r->tflops(),
                       fmt::format("{} | {} {}: {:.4g} TFLOP/s, median {:.4g} ms{}{}", r->label, r->plugin, r->kernel, r->tflops(), r->median_ms,
                                   r->status == "unverified" ? " (not verified)" : "", r->device.empty() ? "" : ", " + device_at(*r))});
        }
        c.y = {"TFLOP/s", wide(ys, 100), false};
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
        c.x = {"problem size, 2·m·n·k (flop)", true, true};
        c.reference_y = 1.0;
        c.reference_label = "= " + baseline;
        std::vector<double> ys;
        for (const auto& [b, others] : rows) {
            if (type_group(*b) != g) continue;
            for (const auto& [plugin, r] : others) {
                const double s = b->median_ms / r->median_ms;
                ys.push_back(s);
                add_point(c, styles, series_name(*r, devices), {r->flops(), s, fmt::format("{} | {} {}: {:.3g}x {}", r->label, r->plugin, r->kernel, s, baseline)});
            }
        }
        if (ys.empty()) continue;
        c.y = {"speedup over " + baseline, wide(ys, 30), false};
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

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:13px;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f2f2f2}tr.total td{font-weight:bold}td.bad{color:#b00020;font-weight:bold}
pre{margin:0;font-size:12px;white-space:pre-wrap}code{font-size:12px;word-break:break-all}
dl.facts dt{font-weight:bold;float:left;clear:left;width:140px}dl.facts dd{margin-left:150px}
figure{margin:12px 0}.meta{color:#555;font-size:13px})";

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
    rep.html = fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"generator\" content=\"spmma {}\">\n"
                           "<meta name=\"spmma-charts\" content=\"{}\">\n<title>{}</title>\n<style>\n{}\n</style>\n</head>\n<body>\n{}</body>\n</html>\n",
                           e(SPMMA_VERSION), rep.charts, e(opt.title), kStyle, body);
    return rep;
}

}  // namespace spmma

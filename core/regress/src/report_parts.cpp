#include "report_parts.hpp"

#include <spmma/core/markup.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace spmma::report_parts {

std::string escape(const std::string& s) { return markup_escape(s); }

std::string type_group(const StoredRecord& r) {
    std::string g = r.a_type == r.b_type ? r.a_type : r.a_type + "*" + r.b_type;
    if (!r.scale_type.empty()) g += fmt::format(" {}/{}", r.scale_type, r.scale_block);
    return g.empty() ? "unknown types" : g;
}

std::string device_at(const StoredRecord& r) {
    return r.device_index < 0 ? r.device : fmt::format("{} (device {})", r.device, r.device_index);
}

std::string device_identity(const StoredRecord& r) {
    std::string s = r.device_arch.empty() ? r.device : r.device + " (" + r.device_arch + ")";
    if (r.device_index >= 0) s += fmt::format(", device {}", r.device_index);
    if (!r.device_uuid.empty()) s += ", " + r.device_uuid;
    return s;
}

bool several_devices(const std::vector<StoredRecord>& rs) {
    std::set<std::string> d;
    for (const auto& r : rs) d.insert(r.device);
    return d.size() > 1;
}

std::string tally(const std::vector<StoredRecord>& rs, std::string (*field)(const StoredRecord&)) {
    std::map<std::string, int> n;
    for (const auto& r : rs) ++n[field(r)];
    std::vector<std::pair<std::string, int>> v(n.begin(), n.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [k, c] : v) out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", escape(k.empty() ? "(none)" : k), c);
    return out;
}

std::string date_range(const std::vector<StoredRecord>& rs) {
    std::string first, last;
    for (const auto& r : rs) {
        if (r.timestamp.empty()) continue;
        if (first.empty() || r.timestamp < first) first = r.timestamp;
        if (last.empty() || r.timestamp > last) last = r.timestamp;
    }
    return first.empty() ? "(none recorded)" : escape(first == last ? first : first + " to " + last);
}

int Styles::operator()(const std::string& name) {
    const auto it = std::find(names_.begin(), names_.end(), name);
    if (it != names_.end()) return static_cast<int>(it - names_.begin());
    names_.push_back(name);
    return static_cast<int>(names_.size() - 1);
}

void add_point(Chart& c, Styles& styles, const std::string& name, ChartPoint p) {
    auto it = std::find_if(c.series.begin(), c.series.end(), [&](const ChartSeries& s) { return s.name == name; });
    if (it == c.series.end()) it = c.series.insert(c.series.end(), ChartSeries{name, {}, styles(name)});
    it->points.push_back(std::move(p));
}

namespace {

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:13px;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f2f2f2}tr.total td{font-weight:bold}td.bad{color:#b00020;font-weight:bold}
tr.regression td{background:#fdecea}tr.failure td{background:#fff4e0}td.num{text-align:right;white-space:nowrap}
p.headline{font-size:16px}p.headline b.bad{color:#b00020}p.headline b.good{color:#1b7f3b}
pre{margin:0;font-size:12px;white-space:pre-wrap}code{font-size:12px;word-break:break-all}
dl.facts dt{font-weight:bold;float:left;clear:left;width:140px}dl.facts dd{margin-left:150px}
figure{margin:12px 0}.meta{color:#555;font-size:13px}summary{cursor:pointer;margin:6px 0})";

}  // namespace

std::string page(const std::string& title, int charts, const std::string& body) {
    return fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"generator\" content=\"spmma {}\">\n"
                       "<meta name=\"spmma-charts\" content=\"{}\">\n<title>{}</title>\n<style>\n{}\n</style>\n</head>\n<body>\n{}</body>\n</html>\n",
                       escape(SPMMA_VERSION), charts, escape(title), kStyle, body);
}

}  // namespace spmma::report_parts

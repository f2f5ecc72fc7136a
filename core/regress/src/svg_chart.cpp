#include <spmma/core/markup.hpp>
#include <spmma/core/svg_chart.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace spmma {
namespace {

// The frame: a plot area with room for the title above, tick labels and the axis label below and
// left, the legend right.
constexpr double kWidth = 760, kLeft = 76, kPlotWidth = 470, kTop = 40, kPlotHeight = 300, kLegendX = kLeft + kPlotWidth + 24;

// Colours (Okabe and Ito's set, told apart with most colour vision) and marker shapes.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"};
constexpr int kShapes = 4;

struct Scale {
    double lo, hi;
    bool log;
    double pixel_lo, pixel_hi;  // where lo and hi land
    double t(double v) const { return log ? std::log10(v) : v; }
    double operator()(double v) const { return pixel_lo + (t(v) - t(lo)) / (t(hi) - t(lo)) * (pixel_hi - pixel_lo); }
};

double nice_step(double span) {
    const double e = std::pow(10.0, std::floor(std::log10(span)));
    const double f = span / e;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * e;
}

// The axis' ends: whole decades on a log axis, whole 1-2-5 steps on a linear one (from 0 when
// every value is positive and `from_zero`).
std::pair<double, double> axis_range(const std::vector<double>& v, bool log, bool from_zero = true) {
    double mn = *std::min_element(v.begin(), v.end()), mx = *std::max_element(v.begin(), v.end());
    if (log) {
        double lo = std::pow(10.0, std::floor(std::log10(mn))), hi = std::pow(10.0, std::ceil(std::log10(mx)));
        if (hi <= lo) hi = lo * 10;
        return {lo, hi};
    }
    if (mn > 0 && from_zero) mn = 0;
    if (mx <= mn) mx = mn + 1;
    const double room = (mx - mn) * 0.04;  // room above the highest marker (and below the lowest)
    mx += room;
    if (!from_zero) mn -= room;
    const double step = nice_step((mx - mn) / 5);
    return {std::floor(mn / step) * step, std::ceil(mx / step) * step};
}

// A marker of `shape` centred at (x, y), as a path.
std::string marker_path(int shape, double x, double y, double r) {
    switch (shape % kShapes) {
        case 0: return fmt::format("M{:.1f},{:.1f}a{r},{r} 0 1,0 {d},0a{r},{r} 0 1,0 -{d},0Z", x - r, y, fmt::arg("r", r), fmt::arg("d", 2 * r));
        case 1: return fmt::format("M{:.1f},{:.1f}h{d}v{d}h-{d}Z", x - r, y - r, fmt::arg("d", 2 * r));
        case 2: return fmt::format("M{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}Z", x, y - 1.2 * r, x + 1.2 * r, y + r, x - 1.2 * r, y + r);
        default: return fmt::format("M{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}Z", x, y - 1.3 * r, x + 1.3 * r, y, x, y + 1.3 * r, x - 1.3 * r, y);
    }
}

// Pixels a label of `text` takes at the chart's 12 px font (a generous average glyph width, so
// that what is laid out by it is never cut).
double text_width(const std::string& text) {
    size_t glyphs = 0;
    for (unsigned char ch : text) glyphs += (ch & 0xC0) != 0x80;  // UTF-8 lead bytes
    return 7.2 * static_cast<double>(glyphs);
}

// The room below the plot that the x axis' tick labels take.
double x_tick_room(const ChartAxis& axis) {
    if (axis.categories.empty()) return 22;
    double widest = 0;
    for (const auto& c : axis.categories) widest = std::max(widest, text_width(c));
    return widest + 12;
}

// Category ticks: every one up to 40, else every k-th.
std::vector<double> category_ticks(size_t n) {
    const size_t step = (n + 39) / 40;
    std::vector<double> t;
    for (size_t i = 1; i <= n; i += step) t.push_back(static_cast<double>(i));
    return t;
}

std::string tick_svg(double p, const std::string& label, bool horizontal, bool upright, double a, double b) {
    const std::string l = markup_escape(label);
    if (!horizontal)
        return fmt::format("<g class=\"tick\"><line x1=\"{a:.1f}\" y1=\"{p:.1f}\" x2=\"{b:.1f}\" y2=\"{p:.1f}\" stroke=\"#eee\"/>"
                           "<line x1=\"{a:.1f}\" y1=\"{p:.1f}\" x2=\"{c:.1f}\" y2=\"{p:.1f}\" stroke=\"#333\"/>"
                           "<text x=\"{t:.1f}\" y=\"{q:.1f}\" text-anchor=\"end\">{l}</text></g>",
                           fmt::arg("p", p), fmt::arg("a", a), fmt::arg("b", b), fmt::arg("c", a - 5), fmt::arg("t", a - 8),
                           fmt::arg("q", p + 4), fmt::arg("l", l));
    const std::string text = upright ? fmt::format("<text transform=\"translate({:.1f},{:.1f}) rotate(-90)\" text-anchor=\"end\">{}</text>", p + 4, a + 8, l)
                                     : fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", p, a + 18, l);
    return fmt::format("<g class=\"tick\"><line x1=\"{p:.1f}\" y1=\"{a:.1f}\" x2=\"{p:.1f}\" y2=\"{b:.1f}\" stroke=\"#eee\"/>"
                       "<line x1=\"{p:.1f}\" y1=\"{a:.1f}\" x2=\"{p:.1f}\" y2=\"{c:.1f}\" stroke=\"#333\"/>{t}</g>",
                       fmt::arg("p", p), fmt::arg("a", a), fmt::arg("b", b), fmt::arg("c", a + 5), fmt::arg("t", text));
}

std::string axis_svg(const Scale& s, bool horizontal, const ChartAxis& axis, double other_lo, double other_hi) {
    std::string out = fmt::format("<g class=\"axis {}-axis\">", horizontal ? "x" : "y");
    if (horizontal) out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>", s.pixel_lo, other_lo, s.pixel_hi, other_lo);
    else out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>", other_lo, s.pixel_lo, other_lo, s.pixel_hi);
    const bool named = horizontal && !axis.categories.empty();
    for (double v : named ? category_ticks(axis.categories.size()) : chart_ticks(s.lo, s.hi, s.log))
        out += tick_svg(s(v), named ? axis.categories[static_cast<size_t>(v) - 1] : tick_label(v, axis.si), horizontal, named, other_lo, other_hi);
    const std::string label = markup_escape(axis.label + (axis.log ? " (log scale)" : ""));
    if (horizontal)
        out += fmt::format("<text class=\"axis-label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", (s.pixel_lo + s.pixel_hi) / 2,
                           other_lo + x_tick_room(axis) + 18, label);
    else
        out += fmt::format("<text class=\"axis-label\" transform=\"translate({:.1f},{:.1f}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
                           other_lo - 58, (s.pixel_lo + s.pixel_hi) / 2, label);
    return out + "</g>";
}

}  // namespace

bool has_whisker(const Chart& c, const ChartPoint& p) {
    if (!std::isfinite(p.y_lo) || !std::isfinite(p.y_hi)) return false;
    return !(c.y.log && (p.y_lo <= 0 || p.y_hi <= 0));
}

bool drawable(const Chart& c, const ChartPoint& p) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
    return !(c.x.log && p.x <= 0) && !(c.y.log && p.y <= 0);
}

std::vector<double> chart_ticks(double lo, double hi, bool log) {
    std::vector<double> t;
    if (log) {
        const int a = static_cast<int>(std::floor(std::log10(lo) + 1e-9)), b = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
        const bool between = b - a <= 3;
        for (int e = a; e <= b; ++e)
            for (double f : {1.0, 2.0, 5.0}) {
                if (f != 1.0 && !between) continue;
                const double v = f * std::pow(10.0, e);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
            }
        return t;
    }
    const double step = nice_step((hi - lo) / 5);
    for (double i = std::ceil(lo / step - 1e-9); i * step <= hi + step * 1e-9; ++i) t.push_back(std::abs(i * step) < step * 1e-9 ? 0.0 : i * step);
    return t;
}

std::string tick_label(double v, bool si) {
    if (si && std::abs(v) >= 1000) {
        static constexpr const char* prefix[] = {"", "k", "M", "G", "T", "P", "E"};
        const int e3 = std::min(6, static_cast<int>(std::floor(std::log10(std::abs(v)) / 3 + 1e-9)));
        return fmt::format("{:g}{}", v / std::pow(1000.0, e3), prefix[e3]);
    }
    return fmt::format("{:.6g}", v);
}

namespace {

// The error bar of a point: a vertical line with caps.
std::string whisker_svg(double x, double y_lo, double y_hi) {
    return fmt::format("<path class=\"whisker\" d=\"M{x:.1f},{a:.1f}V{b:.1f}M{l:.1f},{a:.1f}H{r:.1f}M{l:.1f},{b:.1f}H{r:.1f}\" fill=\"none\"/>",
                       fmt::arg("x", x), fmt::arg("a", y_lo), fmt::arg("b", y_hi), fmt::arg("l", x - 3), fmt::arg("r", x + 3));
}

// The lines joining each group of a series' points, in x order; `lines` counts them.
std::string group_lines(const Chart& c, const ChartSeries& s, const Scale& sx, const Scale& sy, int& lines) {
    std::vector<std::string> groups;
    for (const auto& p : s.points)
        if (!p.group.empty() && drawable(c, p) && std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
    std::string out;
    for (const auto& g : groups) {
        std::vector<const ChartPoint*> ps;
        for (const auto& p : s.points)
            if (p.group == g && drawable(c, p)) ps.push_back(&p);
        if (ps.size() < 2) continue;
        std::stable_sort(ps.begin(), ps.end(), [](const ChartPoint* a, const ChartPoint* b) { return a->x < b->x; });
        std::string d;
        for (const auto* p : ps) d += fmt::format("{}{:.1f},{:.1f}", d.empty() ? "M" : "L", sx(p->x), sy(p->y));
        out += fmt::format("<path class=\"group-line\" d=\"{}\" fill=\"none\" stroke-width=\"1.5\"><title>{}</title></path>", d, markup_escape(g));
        ++lines;
    }
    return out;
}

}  // namespace

std::string render_chart_svg(const Chart& c, const std::string& id) {
    std::vector<double> xs, ys;
    size_t points = 0;
    for (const auto& s : c.series)
        for (const auto& p : s.points)
            if (drawable(c, p)) {
                xs.push_back(p.x);
                ys.push_back(p.y);
                if (has_whisker(c, p)) ys.insert(ys.end(), {p.y_lo, p.y_hi});
                ++points;
            }
    const size_t data_ys = ys.size();
    if (c.reference_y && std::isfinite(*c.reference_y) && !(c.y.log && *c.reference_y <= 0)) ys.push_back(*c.reference_y);
    const bool reference = ys.size() > data_ys;
    const bool band = c.band && std::isfinite(c.band->first) && std::isfinite(c.band->second) && !(c.y.log && c.band->first <= 0);
    if (band) ys.insert(ys.end(), {c.band->first, c.band->second});
    if (xs.empty()) xs = {c.x.log ? 1.0 : 0.0};
    if (ys.empty()) ys = {c.y.log ? 1.0 : 0.0};
    const bool named = !c.x.categories.empty();
    const double bottom = kTop + kPlotHeight;
    double legend = 0;
    for (const auto& s : c.series) legend = std::max(legend, text_width(s.name));
    if (band && !c.band_label.empty()) legend = std::max(legend, text_width(c.band_label));
    const double width = std::max({kWidth, kLegendX + 12 + legend + 8, kLeft + text_width(c.title) * 15 / 12 + 8});
    const double entries = static_cast<double>(c.series.size()) + (band && !c.band_label.empty());
    const double height = std::max(bottom + x_tick_room(c.x) + 38, kTop + 22.0 * entries + 20);
    const auto [xlo, xhi] = named ? std::pair{0.5, static_cast<double>(c.x.categories.size()) + 0.5} : axis_range(xs, c.x.log);
    const auto [ylo, yhi] = axis_range(ys, c.y.log, c.y_from_zero);
    const Scale sx{xlo, xhi, c.x.log && !named, kLeft, kLeft + kPlotWidth}, sy{ylo, yhi, c.y.log, bottom, kTop};

    std::string body;
    int lines = 0;
    if (band) {
        const double a = sy(c.band->second), b = sy(c.band->first);
        body += fmt::format("<rect class=\"band\" x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\" fill=\"#9e9e9e\" fill-opacity=\"0.18\"><title>{}</title></rect>\n",
                            kLeft, a, kPlotWidth, std::max(b - a, 1.0), markup_escape(c.band_label));
    }
    body += axis_svg(sx, true, c.x, bottom, kTop) + "\n";
    body += axis_svg(sy, false, c.y, kLeft, kLeft + kPlotWidth) + "\n";
    if (reference) {
        const double y = sy(*c.reference_y);
        body += fmt::format("<g class=\"reference\"><line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#555\" stroke-dasharray=\"6,4\"/>"
                            "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"#555\">{}</text></g>\n",
                            kLeft, y, kLeft + kPlotWidth, y, kLeft + kPlotWidth - 4, y - 4, markup_escape(c.reference_label));
    }
    std::string legend_svg = "<g class=\"legend\">";
    for (size_t i = 0; i < c.series.size(); ++i) {
        const auto& s = c.series[i];
        const size_t style = s.style >= 0 ? static_cast<size_t>(s.style) : i;
        const char* colour = kColours[style % std::size(kColours)];
        const int shape = static_cast<int>(style / std::size(kColours) + style) % kShapes;
        body += fmt::format("<g class=\"series\" data-name=\"{}\" fill=\"{}\" stroke=\"{}\" fill-opacity=\"0.85\">", markup_escape(s.name), colour, colour);
        body += group_lines(c, s, sx, sy, lines);
        for (const auto& p : s.points) {
            if (!drawable(c, p)) continue;
            if (has_whisker(c, p)) body += whisker_svg(sx(p.x), sy(p.y_lo), sy(p.y_hi));
            body += fmt::format("<path class=\"point\" d=\"{}\" stroke=\"none\"><title>{}</title></path>", marker_path(shape, sx(p.x), sy(p.y), 4.5),
                                markup_escape(p.tip));
        }
        body += "</g>\n";
        const double ly = kTop + 8 + 22.0 * static_cast<double>(i);
        legend_svg += fmt::format("<g class=\"legend-entry\"><path d=\"{}\" fill=\"{}\"/><text x=\"{}\" y=\"{:.1f}\">{}</text></g>",
                                  marker_path(shape, kLegendX, ly, 5), colour, kLegendX + 12, ly + 4, markup_escape(s.name));
    }
    if (band && !c.band_label.empty()) {
        const double ly = kTop + 8 + 22.0 * static_cast<double>(c.series.size());
        legend_svg += fmt::format("<g class=\"band-key\"><rect x=\"{}\" y=\"{:.1f}\" width=\"10\" height=\"10\" fill=\"#9e9e9e\" fill-opacity=\"0.4\"/>"
                                  "<text x=\"{}\" y=\"{:.1f}\">{}</text></g>",
                                  kLegendX - 5, ly - 5, kLegendX + 12, ly + 4, markup_escape(c.band_label));
    }
    body += legend_svg + "</g>\n";

    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"{}\" width=\"{:g}\" height=\"{:g}\" viewBox=\"0 0 {:g} {:g}\" role=\"img\" "
        "aria-label=\"{}\" data-series=\"{}\" data-points=\"{}\" data-lines=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        markup_escape(id), width, height, width, height, markup_escape(c.title), c.series.size(), points, lines);
    out += fmt::format("<title>{}</title>\n", markup_escape(c.title));
    out += fmt::format("<text class=\"chart-title\" x=\"{}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", kLeft, markup_escape(c.title));
    out += fmt::format("<rect class=\"plot-area\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#999\"/>\n", kLeft, kTop,
                       kPlotWidth, kPlotHeight);
    return out + body + "</svg>\n";
}

}  // namespace spmma

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
// every value is positive).
std::pair<double, double> axis_range(const std::vector<double>& v, bool log) {
    double mn = *std::min_element(v.begin(), v.end()), mx = *std::max_element(v.begin(), v.end());
    if (log) {
        double lo = std::pow(10.0, std::floor(std::log10(mn))), hi = std::pow(10.0, std::ceil(std::log10(mx)));
        if (hi <= lo) hi = lo * 10;
        return {lo, hi};
    }
    if (mn > 0) mn = 0;
    if (mx <= mn) mx = mn + 1;
    mx += (mx - mn) * 0.04;  // room above the highest marker
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

std::string axis_svg(const Scale& s, bool horizontal, const ChartAxis& axis, double other_lo, double other_hi) {
    std::string out = fmt::format("<g class=\"axis {}-axis\">", horizontal ? "x" : "y");
    if (horizontal) out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>", s.pixel_lo, other_lo, s.pixel_hi, other_lo);
    else out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>", other_lo, s.pixel_lo, other_lo, s.pixel_hi);
    for (double v : chart_ticks(s.lo, s.hi, s.log)) {
        const double p = s(v);
        const std::string label = markup_escape(tick_label(v, axis.si));
        if (horizontal)
            out += fmt::format("<g class=\"tick\"><line x1=\"{p:.1f}\" y1=\"{a:.1f}\" x2=\"{p:.1f}\" y2=\"{b:.1f}\" stroke=\"#eee\"/>"
                               "<line x1=\"{p:.1f}\" y1=\"{a:.1f}\" x2=\"{p:.1f}\" y2=\"{c:.1f}\" stroke=\"#333\"/>"
                               "<text x=\"{p:.1f}\" y=\"{t:.1f}\" text-anchor=\"middle\">{l}</text></g>",
                               fmt::arg("p", p), fmt::arg("a", other_lo), fmt::arg("b", other_hi), fmt::arg("c", other_lo + 5),
                               fmt::arg("t", other_lo + 18), fmt::arg("l", label));
        else
            out += fmt::format("<g class=\"tick\"><line x1=\"{a:.1f}\" y1=\"{p:.1f}\" x2=\"{b:.1f}\" y2=\"{p:.1f}\" stroke=\"#eee\"/>"
                               "<line x1=\"{a:.1f}\" y1=\"{p:.1f}\" x2=\"{c:.1f}\" y2=\"{p:.1f}\" stroke=\"#333\"/>"
                               "<text x=\"{t:.1f}\" y=\"{q:.1f}\" text-anchor=\"end\">{l}</text></g>",
                               fmt::arg("p", p), fmt::arg("a", other_lo), fmt::arg("b", other_hi), fmt::arg("c", other_lo - 5),
                               fmt::arg("t", other_lo - 8), fmt::arg("q", p + 4), fmt::arg("l", label));
    }
    const std::string label = markup_escape(axis.label + (axis.log ? " (log scale)" : ""));
    if (horizontal)
        out += fmt::format("<text class=\"axis-label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", (s.pixel_lo + s.pixel_hi) / 2,
                           other_lo + 40, label);
    else
        out += fmt::format("<text class=\"axis-label\" transform=\"translate({:.1f},{:.1f}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
                           other_lo - 58, (s.pixel_lo + s.pixel_hi) / 2, label);
    return out + "</g>";
}

}  // namespace

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

std::string render_chart_svg(const Chart& c, const std::string& id) {
    std::vector<double> xs, ys;
    size_t points = 0;
    for (const auto& s : c.series)
        for (const auto& p : s.points)
            if (drawable(c, p)) {
                xs.push_back(p.x);
                ys.push_back(p.y);
                ++points;
            }
    if (c.reference_y && std::isfinite(*c.reference_y) && !(c.y.log && *c.reference_y <= 0)) ys.push_back(*c.reference_y);
    if (xs.empty()) xs = {c.x.log ? 1.0 : 0.0}, ys = {c.y.log ? 1.0 : 0.0};
    const double height = std::max(kTop + kPlotHeight + 60, kTop + 22.0 * static_cast<double>(c.series.size()) + 20);
    const double bottom = kTop + kPlotHeight;
    const auto [xlo, xhi] = axis_range(xs, c.x.log);
    const auto [ylo, yhi] = axis_range(ys, c.y.log);
    const Scale sx{xlo, xhi, c.x.log, kLeft, kLeft + kPlotWidth}, sy{ylo, yhi, c.y.log, bottom, kTop};

    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
        "aria-label=\"{}\" data-series=\"{}\" data-points=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        markup_escape(id), kWidth, height, kWidth, height, markup_escape(c.title), c.series.size(), points);
    out += fmt::format("<title>{}</title>\n", markup_escape(c.title));
    out += fmt::format("<text class=\"chart-title\" x=\"{}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", kLeft, markup_escape(c.title));
    out += fmt::format("<rect class=\"plot-area\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#999\"/>\n", kLeft, kTop,
                       kPlotWidth, kPlotHeight);
    out += axis_svg(sx, true, c.x, bottom, kTop) + "\n";
    out += axis_svg(sy, false, c.y, kLeft, kLeft + kPlotWidth) + "\n";
    if (c.reference_y && ys.size() > points) {
        const double y = sy(*c.reference_y);
        out += fmt::format("<g class=\"reference\"><line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#555\" stroke-dasharray=\"6,4\"/>"
                           "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"#555\">{}</text></g>\n",
                           kLeft, y, kLeft + kPlotWidth, y, kLeft + kPlotWidth - 4, y - 4, markup_escape(c.reference_label));
    }
    for (size_t i = 0; i < c.series.size(); ++i) {
        const auto& s = c.series[i];
        const size_t style = s.style >= 0 ? static_cast<size_t>(s.style) : i;
        const char* colour = kColours[style % std::size(kColours)];
        const int shape = static_cast<int>(style / std::size(kColours) + style) % kShapes;
        out += fmt::format("<g class=\"series\" data-name=\"{}\" fill=\"{}\" fill-opacity=\"0.85\">", markup_escape(s.name), colour);
        for (const auto& p : s.points) {
            if (!drawable(c, p)) continue;
            out += fmt::format("<path class=\"point\" d=\"{}\"><title>{}</title></path>", marker_path(shape, sx(p.x), sy(p.y), 4.5),
                               markup_escape(p.tip));
        }
        out += "</g>\n";
        const double ly = kTop + 8 + 22.0 * static_cast<double>(i);
        if (i == 0) out += "<g class=\"legend\">";
        out += fmt::format("<g class=\"legend-entry\"><path d=\"{}\" fill=\"{}\"/><text x=\"{}\" y=\"{:.1f}\">{}</text></g>",
                           marker_path(shape, kLegendX, ly, 5), colour, kLegendX + 12, ly + 4, markup_escape(s.name));
        if (i + 1 == c.series.size()) out += "</g>\n";
    }
    return out + "</svg>\n";
}

}  // namespace spmma

// A scatter chart drawn as inline SVG: axes with ticks (linear, log, or named categories on x),
// axis labels, a legend, a marker per point with a tooltip (<title>), error bars, lines joining
// the points of a group, an optional horizontal reference line and band. No script.
//
// The markup carries what a checker needs: <svg class="chart" data-series=S data-points=P
// data-lines=L>, the plot area <rect class="plot-area">, every marker class="point", every error
// bar class="whisker", every joining line class="group-line", the band <rect class="band">, axes
// <g class="axis x-axis"> and "y-axis" with <g class="tick"> each, the legend <g class="legend">
// with one <g class="legend-entry"> per series. The picture is as wide as its longest legend
// entry needs: a legend is never cut.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spmma {

struct ChartPoint {
    double x = 0, y = 0;
    std::string tip;  // the marker's tooltip
    // An error bar from y_lo to y_hi (both finite, and positive on a log axis), else none.
    double y_lo = std::numeric_limits<double>::quiet_NaN(), y_hi = std::numeric_limits<double>::quiet_NaN();
    // Points of one series with the same non-empty group are joined by a line, in x order.
    std::string group;
};

struct ChartSeries {
    std::string name;
    std::vector<ChartPoint> points;
    int style = -1;  // colour and marker; -1: the series' index (a page keeps a plugin's across charts)
};

struct ChartAxis {
    std::string label;
    bool log = false;
    bool si = false;  // tick labels with SI prefixes (1k, 10M, 1G, 1T)
    // x only: named positions 1..N (a point's x is its category's number), labelled upright.
    std::vector<std::string> categories;
};

struct Chart {
    std::string title;
    ChartAxis x, y;
    std::vector<ChartSeries> series;
    std::optional<double> reference_y;  // a dashed line across the plot (speedup 1)
    std::string reference_label;
    std::optional<std::pair<double, double>> band;  // a shaded horizontal band from .first to .second
    std::string band_label;
    bool y_from_zero = true;  // a linear y axis starts at 0 when every value is positive
};

// Whether `p` has an error bar that can be drawn on `c`.
bool has_whisker(const Chart& c, const ChartPoint& p);
// Points that cannot be drawn (a non-finite coordinate, or one <= 0 on a log axis) are left out.
bool drawable(const Chart& c, const ChartPoint& p);
// The chart as one <svg> element; `id` becomes its id attribute.
std::string render_chart_svg(const Chart& c, const std::string& id);

// Tick positions (exposed for tests): a log axis gets its powers of ten (with 2 and 5 between
// them when the range spans three decades or fewer), a linear one 1-2-5 steps; both cover lo..hi.
std::vector<double> chart_ticks(double lo, double hi, bool log);
// A tick's label: "{:g}", or with an SI prefix.
std::string tick_label(double v, bool si);

}  // namespace spmma

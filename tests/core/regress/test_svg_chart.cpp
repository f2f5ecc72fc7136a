// The SVG scatter chart: ticks, labels, what is drawn and what is escaped.
#include <spmma/core/svg_chart.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace spmma;

namespace {

size_t occurrences(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

// A point without an error bar or a group.
ChartPoint pt(double x, double y, const std::string& tip) {
    ChartPoint p;
    p.x = x;
    p.y = y;
    p.tip = tip;
    return p;
}

}  // namespace

TEST_CASE("log axes tick at powers of ten, with 2 and 5 between them over three decades or fewer", "[chart]") {
    CHECK(chart_ticks(1e5, 1e7, true) == std::vector<double>{1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7});
    CHECK(chart_ticks(1e3, 1e10, true) == std::vector<double>{1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10});
    CHECK(chart_ticks(0, 10, false) == std::vector<double>{0, 2, 4, 6, 8, 10});
    CHECK(chart_ticks(0, 3.5, false) == std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5});
    CHECK(chart_ticks(0, 0.06, false).size() >= 4);
    CHECK(tick_label(2e9, true) == "2G");
    CHECK(tick_label(1000, true) == "1k");
    CHECK(tick_label(5e12, true) == "5T");
    CHECK(tick_label(0.05, false) == "0.05");
}

TEST_CASE("a chart draws every drawable point, one legend entry per series, and escapes its text", "[chart]") {
    Chart c;
    c.title = "Throughput <f16> & \"more\"";
    c.x = {"size", true, true, {}};
    c.y = {"TFLOP/s", false, false, {}};
    c.series.push_back({"cpu", {pt(1e6, 0.5, "a<b"), pt(1e7, 0.7, "c"), pt(-1, 0.7, "not on a log axis"), pt(1e8, NAN, "no y")}});
    c.series.push_back({"fast<x>", {pt(1e6, 2.0, "d")}});
    const std::string svg = render_chart_svg(c, "t1");
    CHECK_THAT(svg, Catch::Contains("data-series=\"2\" data-points=\"3\""));
    CHECK(occurrences(svg, "class=\"point\"") == 3);
    CHECK(occurrences(svg, "class=\"legend-entry\"") == 2);
    CHECK(occurrences(svg, "class=\"axis x-axis\"") == 1);
    CHECK(occurrences(svg, "class=\"axis y-axis\"") == 1);
    CHECK(occurrences(svg, "class=\"tick\"") >= 6);
    CHECK_THAT(svg, Catch::Contains("Throughput &lt;f16&gt; &amp; &quot;more&quot;"));
    CHECK_THAT(svg, Catch::Contains("fast&lt;x&gt;"));
    CHECK(svg.find("<x>") == std::string::npos);
    CHECK(svg.find("nan") == std::string::npos);
    CHECK(svg.find("inf") == std::string::npos);
}

TEST_CASE("a chart draws error bars, lines joining a group's points, a band, named categories, and widens for a long legend", "[chart]") {
    Chart c;
    c.title = "New / old";
    c.x = {"problem", false, false, {"64x64x64", "128x64x64", "256x64x64"}};
    c.y = {"new / old", false, false, {}};
    c.band = std::pair{0.95, 1.05};
    c.band_label = "same";
    c.series.push_back({"cpu", {{1, 1.3, "a", 1.28, 1.32, "m varies"}, {2, 1.31, "b", 1.29, 1.33, "m varies"}, {3, 1.0, "c", NAN, NAN, "alone"}}});
    const std::string name(120, 'x');
    c.series.push_back({name, {pt(1, 1.0, "d")}});
    const std::string svg = render_chart_svg(c, "t2");
    CHECK_THAT(svg, Catch::Contains("data-series=\"2\" data-points=\"4\" data-lines=\"1\""));
    CHECK(occurrences(svg, "class=\"whisker\"") == 2);  // the point without an interval has none
    CHECK(occurrences(svg, "class=\"group-line\"") == 1);  // a group of one point is no line
    CHECK(occurrences(svg, "class=\"band\"") == 1);
    for (const char* category : {">64x64x64<", ">128x64x64<", ">256x64x64<"}) CHECK_THAT(svg, Catch::Contains(category));
    // 120 characters of legend at 7.2 px each past the legend's x: wider than the usual 760.
    const auto w = svg.find("width=\"");
    REQUIRE(w != std::string::npos);
    CHECK(std::stod(svg.substr(w + 7)) > 570 + 120 * 7.2);
}

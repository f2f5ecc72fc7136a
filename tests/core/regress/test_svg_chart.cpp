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
    c.x = {"size", true, true};
    c.y = {"TFLOP/s", false, false};
    c.series.push_back({"cpu", {{1e6, 0.5, "a<b"}, {1e7, 0.7, "c"}, {-1, 0.7, "not on a log axis"}, {1e8, NAN, "no y"}}});
    c.series.push_back({"fast<x>", {{1e6, 2.0, "d"}}});
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

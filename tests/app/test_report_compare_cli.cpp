// spmma report OLD NEW end to end: two nights of real cpu-plugin records, the second one 30 %
// slower in f16 (its times edited), made into the comparison page and opened in headless
// chromium: every chart renders, no legend is cut, and the first screen names the regression.
#include "browser_check.hpp"
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace {

// Ten launch times around `centre` ms (within +-0.5 %): the verdicts do not hang on the noise
// of the machine that runs the test.
nlohmann::json steady_times(double centre) {
    nlohmann::json t = nlohmann::json::array();
    for (int i = 0; i < 10; ++i) t.push_back(centre * (1.0 + 0.001 * ((i * 7) % 10 - 4.5)));
    return t;
}

struct Nights {
    std::string last, tonight;
};

// Real records of the cpu plugin (f16 and s8, 2 x 3 shapes each) as last night; tonight the
// same with every f16 time 1.3 times as long. Both nights carry the same SM clock and power, as
// a GPU run's records do: the slowdown is not the clock's.
Nights nights() {
    const std::string real = temp_path("nights_real.jsonl");
    const auto r = spmma_cli("gemm --m 64,128 --n 64:256:*2 --k 64 --dtype f16,s8 --iterations 2 --warmup 1 --plugin cpu --no-progress --force --json " + real);
    INFO(r.out);
    REQUIRE(r.code == 0);
    std::istringstream lines(read_file(real));
    std::string line, last, tonight;
    while (std::getline(lines, line)) {
        auto j = nlohmann::json::parse(line);
        const double ms = 0.01 * static_cast<double>(j["problem"]["m"].get<int>() * j["problem"]["n"].get<int>()) / 64;
        j["clocks"] = {{"samples", 12},
                       {"duration_ms", 120.0},
                       {"sm_mhz", {{"min", 1965.0}, {"median", 1980.0}, {"max", 1980.0}}},
                       {"mem_mhz", {{"min", 2619.0}, {"median", 2619.0}, {"max", 2619.0}}},
                       {"power_w", {{"min", 310.0}, {"median", 455.0}, {"max", 520.0}}},
                       {"temperature_c", {{"min", 48.0}, {"median", 52.0}, {"max", 55.0}}},
                       {"throttle", {{"mask", "0x0"}, {"reasons", nlohmann::json::array()}, {"power_cap_fraction", 0.0}}}};
        j["timing"]["times_ms"] = steady_times(ms);
        last += j.dump() + "\n";
        if (j["problem"]["a_type"] == "f16") j["timing"]["times_ms"] = steady_times(1.3 * ms);
        j["timestamp"] = "2026-11-26T02:00:00Z";
        tonight += j.dump() + "\n";
    }
    return {write_file("last-night.jsonl", last), write_file("tonight.jsonl", tonight)};
}

}  // namespace

TEST_CASE("spmma report OLD NEW names a night 30 % slower in f16 on its first screen, and every chart of it renders", "[cli][report][compare][screenshot]") {
    const Nights n = nights();
    // The gate's own verdict: the six f16 records slower, the six s8 the same.
    const auto gate = spmma_cli("compare " + n.last + " " + n.tonight);
    INFO(gate.out);
    CHECK(gate.code == 1);
    CHECK_THAT(gate.out, Catch::Contains("12 matched: 6 slower, 0 faster, 6 same, 0 too noisy; 6 regressions"));

    const std::string page = temp_path("nights.html");
    const auto r = spmma_cli("report " + n.last + " " + n.tonight + " -o " + page + " --title 'spmma report: tonight against last night'");
    INFO(r.out);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("12 matched, 6 regressions, 0 failures; 2 charts"));
    const std::string html = read_file(page);
    for (const char* absent : {"<script", "<link", "src=", "url("}) {
        INFO(absent);
        CHECK(html.find(absent) == std::string::npos);
    }
    // The sections in the order a reader needs them.
    size_t at = 0;
    for (const char* id : {"id=\"verdicts\"", "id=\"ratios\"", "id=\"new-failures\"", "id=\"one-file\"", "id=\"clocks\""}) {
        INFO(id);
        const size_t p = html.find(id);
        REQUIRE(p != std::string::npos);
        CHECK(p > at);
        at = p;
    }
    CHECK_THAT(html, Catch::Contains("<td>SM clock</td><td>1980 MHz (1965 to 1980)</td><td>1980 MHz (1965 to 1980)</td>"));
    CHECK_THAT(html, Catch::Contains("<td>SM clock new/old</td><td></td><td>1.000 (+0.0%)</td>"));

    const BrowserCheck c = check_in_browser(html, "nights", "1280,800");
    INFO(c.why);
    REQUIRE(c.ran);
    INFO(c.result.dump(1));
    CHECK(c.result["ok"] == true);
    REQUIRE(c.result["charts"].size() == 2);
    for (const auto& chart : c.result["charts"]) {
        CHECK(chart["points"] == 6);
        CHECK(chart["whiskers"] == 6);
    }
    // The first 800 pixels: the verdict, the type that regressed with its ratio, and its rows.
    const std::string first = c.result["first_screen"].get<std::string>();
    CHECK_THAT(first, Catch::Contains("6 regressions, 0 failures: the new run fails the gate"));
    CHECK_THAT(first, Catch::Contains("f16: 6 slower, new/old median 1.300 (+30.0%)"));
    CHECK_THAT(first, Catch::Contains("SLOWER 64x64x64 f16*f16"));
    CHECK(first.find("s8*s8") == std::string::npos);  // the same ones are folded away

    // The screenshot the README shows (SPMMA_SCREENSHOT names where to keep it).
    const char* keep = std::getenv("SPMMA_SCREENSHOT");
    const std::string png = keep && *keep ? keep : temp_path("nights.png");
    const std::string why = screenshot(page, png, "1000,1240");  // the verdicts and the first chart
    INFO(why);
    REQUIRE(why.empty());
    CHECK(read_file(png).substr(0, 8) == "\x89PNG\r\n\x1a\n");
}

TEST_CASE("the browser check fails a comparison chart whose legend is cut or whose whiskers leave the plot", "[cli][report][compare]") {
    const Nights n = nights();
    const std::string page = temp_path("nights_broken.html");
    REQUIRE(spmma_cli("report " + n.last + " " + n.tonight + " -o " + page).code == 0);
    std::string html = read_file(page);
    // The first chart narrowed to 600 pixels: its legend, right of the plot, no longer fits.
    const size_t svg = html.find("<svg "), end = html.find(">", svg);
    std::string head = html.substr(svg, end - svg);
    const std::regex width(R"re(width="[0-9.]+" height="([0-9.]+)" viewBox="0 0 [0-9.]+ )re");
    const std::string narrow = std::regex_replace(head, width, "width=\"600\" height=\"$1\" viewBox=\"0 0 600 ");
    REQUIRE(narrow != head);
    const BrowserCheck cut = check_in_browser(html.substr(0, svg) + narrow + html.substr(end), "nights_cut");
    INFO(cut.why);
    REQUIRE(cut.ran);
    INFO(cut.result.dump(1));
    CHECK(cut.result["ok"] == false);
    CHECK(cut.result["charts"][0]["problems"].dump().find("legend cut") != std::string::npos);
    // A whisker moved far above the plot.
    const size_t w = html.find("<path class=\"whisker\" d=\"M");
    REQUIRE(w != std::string::npos);
    html.insert(w + 5, " transform=\"translate(0,-900)\"");
    const BrowserCheck stray = check_in_browser(html, "nights_stray");
    INFO(stray.why);
    REQUIRE(stray.ran);
    INFO(stray.result.dump(1));
    CHECK(stray.result["ok"] == false);
    CHECK(stray.result["charts"][0]["problems"].dump().find("1 whiskers outside the plot area") != std::string::npos);
}

TEST_CASE("spmma report with two files compares them, --pool makes them one run, compare's options only with two runs", "[cli][report][compare]") {
    const Nights n = nights();
    const std::string page = temp_path("pooled.html");
    const auto pooled = spmma_cli("report " + n.last + " " + n.tonight + " --pool -o " + page);
    INFO(pooled.out);
    REQUIRE(pooled.code == 0);
    CHECK_THAT(pooled.out, Catch::Contains("24 records"));
    CHECK(read_file(page).find("id=\"verdicts\"") == std::string::npos);
    const auto strict = spmma_cli("report " + n.last + " " + n.tonight + " --threshold 50 -o " + temp_path("strict.html"));
    INFO(strict.out);
    CHECK(strict.code == 0);
    CHECK_THAT(strict.out, Catch::Contains("0 regressions"));
    const auto one = spmma_cli("report " + n.last + " --threshold 5 -o " + temp_path("one.html"));
    CHECK(one.code == 2);
    CHECK_THAT(one.out, Catch::Contains("--confidence and --threshold compare two runs"));
    const auto base = spmma_cli("report " + n.last + " " + n.tonight + " --baseline cpu -o " + temp_path("base.html"));
    CHECK(base.code == 2);
    CHECK_THAT(base.out, Catch::Contains("--baseline: a page of one run only"));
}

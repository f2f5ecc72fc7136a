// spmma report end to end: a page from real cpu-plugin records (plus a faster copy as a second
// plugin, a failure, an error, a skip), opened in headless chromium, where report_check.js
// measures every chart; and pages broken on purpose, which that check must fail.
#include "../common/tools.hpp"
#include "browser_check.hpp"
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>


namespace {

// Real records of the cpu plugin (f16 and s8 at four sizes), a copy of them three times as fast
// under a plugin named "fast<x>", and one failed, one errored and one skipped record whose texts
// try to break out of the markup.
std::string report_records() {
    const std::string real = temp_path("report_real.jsonl");
    const auto r = spmma_cli("gemm --m 32:128:*2 --n 64 --k 64,128 --dtype f16,s8 --iterations 5 --warmup 1 --plugin cpu --no-progress --force --json " + real);
    INFO(r.out);
    REQUIRE(r.code == 0);
    std::istringstream lines(read_file(real));
    std::string line, out;
    nlohmann::json first;
    while (std::getline(lines, line)) {
        auto j = nlohmann::json::parse(line);
        if (first.is_null()) first = j;
        out += line + "\n";
        j["plugin"]["name"] = "fast<x>";
        j["kernel"] = "fast_\"k\"&1";
        for (auto& t : j["timing"]["times_ms"]) t = t.get<double>() / 3;
        out += j.dump() + "\n";
    }
    auto failed = first;
    failed["status"] = "failed";
    failed["reason"] = "2 mismatches <script>alert(1)</script>";
    failed["verification"]["mismatches"] = 2;
    failed["verification"]["first_mismatches"] = {{{"i", 1}, {"j", 2}, {"got", 1.5}, {"expected", 1.0}, {"tolerance", 0.01}},
                                                  {{"i", 3}, {"j", 4}, {"got", "nan"}, {"expected", 2.0}, {"tolerance", 0.01}}};
    auto error = first;
    error["status"] = "error";
    error["stage"] = "run";
    error["reason"] = "launch failed & gone";
    error.erase("timing");
    auto skipped = first;
    skipped["plugin"]["name"] = "sm100a";
    skipped["status"] = "skipped";
    skipped["reason"] = "needs sm_100a";
    skipped.erase("timing");
    auto no_times = first;
    no_times["plugin"]["name"] = "nan-plugin";
    no_times["timing"]["times_ms"] = {"nan", "nan"};
    no_times["timing"]["median_ms"] = "nan";
    out += failed.dump() + "\n" + error.dump() + "\n" + skipped.dump() + "\n" + no_times.dump() + "\n";
    return write_file("report.jsonl", out);
}

// The first chart's markup in `html` (from "<svg " to "</svg>").
std::pair<size_t, size_t> first_chart(const std::string& html) {
    const size_t a = html.find("<svg "), b = html.find("</svg>", a);
    REQUIRE(a != std::string::npos);
    REQUIRE(b != std::string::npos);
    return {a, b};
}

// `html` with every element opening with `open` (and ending at the next `close`) removed from
// the first chart.
std::string without_in_first_chart(std::string html, const std::string& open, const std::string& close) {
    auto [a, b] = first_chart(html);
    for (size_t p = html.find(open, a); p != std::string::npos && p < b; p = html.find(open, p)) {
        const size_t e = html.find(close, p) + close.size();
        html.erase(p, e - p);
        b -= e - p;
    }
    return html;
}

std::string replaced_in_first_chart(std::string html, const std::string& from, const std::string& to) {
    auto [a, b] = first_chart(html);
    for (size_t p = html.find(from, a); p != std::string::npos && p < b; p = html.find(from, p + to.size())) {
        html.replace(p, from.size(), to);
        b += to.size() - from.size();
    }
    return html;
}

std::string problems_of(const nlohmann::json& result) {
    std::string s;
    for (const auto& c : result["charts"])
        for (const auto& p : c["problems"]) s += c["id"].get<std::string>() + ": " + p.get<std::string>() + "\n";
    for (const auto& p : result["problems"]) s += p.get<std::string>() + "\n";
    return s;
}

}  // namespace

TEST_CASE("spmma report writes one self-contained page whose every chart renders in a headless browser", "[cli][report]") {
    const std::string records = report_records(), out = temp_path("report.html");
    const auto r = spmma_cli("report " + records + " -o " + out + " --baseline cpu --title 'Nightly <f16> & more'");
    INFO(r.out);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("4 charts, speedups over cpu"));
    const std::string html = read_file(out);
    // Nothing to fetch, no script; every text escaped.
    for (const char* absent : {"<script", "<link", "src=", "url(", "<x>", "alert(1)</script>", "& gone"}) {
        INFO(absent);
        CHECK(html.find(absent) == std::string::npos);
    }
    CHECK_THAT(html, Catch::Contains("<title>Nightly &lt;f16&gt; &amp; more</title>"));
    CHECK_THAT(html, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    CHECK_THAT(html, Catch::Contains("(3, 4): got nan, expected 2, tolerance 0.01"));
    CHECK_THAT(html, Catch::Contains("run: launch failed &amp; gone"));
    CHECK_THAT(html, Catch::Contains("sm100a: needs sm_100a (1 record)"));
    CHECK_THAT(html, Catch::Contains("3.00&#215;"));  // fast<x> over cpu
    CHECK_THAT(html, Catch::Contains("1 record ran without a usable time"));
    CHECK_THAT(html, Catch::Contains("| nan-plugin |"));
    const BrowserCheck c = check_in_browser(html, "report");
    INFO(c.why);
    REQUIRE(c.ran);
    INFO(c.result.dump(1));
    CHECK(c.result["ok"] == true);
    REQUIRE(c.result["charts"].size() == 4);
    // 6 problems (m 32, 64, 128 by k 64, 128) per type: two plugins in a throughput chart, one
    // speedup. A throughput point has the range of its launches as an error bar, and each
    // plugin's line per k joins its three m (n and k fixed, m varying).
    for (const auto& chart : c.result["charts"]) {
        const bool throughput = chart["id"].get<std::string>().rfind("throughput", 0) == 0;
        CHECK(chart["points"].get<int>() == (throughput ? 12 : 6));
        CHECK(chart["whiskers"].get<int>() == (throughput ? 12 : 0));
        CHECK(chart["lines"].get<int>() == (throughput ? 4 : 0));
    }
    CHECK_THAT(html, Catch::Contains("<title>n=64 k=128, m varies</title>"));
}

TEST_CASE("the browser check fails a page whose chart is empty or broken", "[cli][report]") {
    const std::string records = report_records(), out = temp_path("broken.html");
    REQUIRE(spmma_cli("report " + records + " -o " + out).code == 0);
    const std::string html = read_file(out);
    const std::vector<std::tuple<std::string, std::string, std::string>> broken = {
        {"no markers", without_in_first_chart(html, "<path class=\"point\"", "</path>"), "throughput-1: no markers"},
        {"markers without coordinates", replaced_in_first_chart(html, "<path class=\"point\" d=\"M", "<path class=\"point\" d=\"MNaN,NaN "),
         "markers without area"},
        {"markers off the plot", replaced_in_first_chart(html, "<g class=\"series\"", "<g transform=\"translate(0,-2000)\" class=\"series\""),
         "markers outside the plot area"},
        {"no ticks", without_in_first_chart(html, "<g class=\"tick\">", "</g>"), "x-axis: 0 labelled ticks"},
        {"no legend", without_in_first_chart(html, "<g class=\"legend-entry\">", "</g>"), "legend entries"},
        {"a chart missing", without_in_first_chart(html, "<svg ", "</svg>"), "charts, 1 found"},
    };
    for (const auto& [what, page, expected] : broken) {
        INFO(what);
        REQUIRE(page != html);
        const BrowserCheck c = check_in_browser(page, "broken");
        INFO(c.why);
        REQUIRE(c.ran);
        INFO(c.result.dump(1));
        CHECK(c.result["ok"] == false);
        CHECK_THAT(problems_of(c.result), Catch::Contains(expected));
    }
}

TEST_CASE("spmma report exits 2 on a malformed record naming file and line, 3 without records", "[cli][report]") {
    const std::string bad = write_file("report_bad.jsonl", "\n{\"problem\": {\"m\": 1}}\n");
    const auto r = spmma_cli("report " + bad + " -o " + temp_path("bad.html"));
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains(bad + ":2: problem.n: missing"));
    const auto empty = spmma_cli("report " + write_file("report_empty.jsonl", "\n") + " -o " + temp_path("empty.html"));
    CHECK(empty.code == 3);
    CHECK(spmma_cli("report " + bad).code == 2);  // no -o
}

TEST_CASE("the report tells two GPUs of one name apart: the summary names each by index and UUID, a failure its device",
          "[cli][report][devices]") {
    // Four real cpu records made into a --devices all run on two GPUs of one name, the last one
    // an error on device 1.
    const std::string real = temp_path("report_two_gpus_real.jsonl");
    const auto r = spmma_cli("gemm --m 32,48,64,80 --n 64 --k 64 --dtype f16 --iterations 2 --warmup 1 --plugin cpu --no-progress --json " + real);
    INFO(r.out);
    REQUIRE(r.code == 0);
    std::istringstream lines(read_file(real));
    std::string line, out;
    for (int i = 0; std::getline(lines, line); ++i) {
        auto j = nlohmann::json::parse(line);
        j["device"] = {{"index", i % 2}, {"name", "NVIDIA H100 80GB HBM3"}, {"arch", "sm_90"}, {"uuid", i % 2 ? "GPU-bbbb" : "GPU-aaaa"}};
        if (i == 3) {
            j["status"] = "error";
            j["stage"] = "run";
            j["reason"] = "crashed: SIGSEGV in run";
            j.erase("timing");
        }
        out += j.dump() + "\n";
    }
    const std::string records = write_file("report_two_gpus.jsonl", out), page = temp_path("report_two_gpus.html");
    const auto rep = spmma_cli("report " + records + " -o " + page);
    INFO(rep.out);
    REQUIRE(rep.code == 0);
    const std::string html = read_file(page);
    CHECK_THAT(html, Catch::Contains("NVIDIA H100 80GB HBM3 (sm_90), device 0, GPU-aaaa (2)"));
    CHECK_THAT(html, Catch::Contains("NVIDIA H100 80GB HBM3 (sm_90), device 1, GPU-bbbb (2)"));
    CHECK_THAT(html, Catch::Contains("<td>NVIDIA H100 80GB HBM3 (device 1)</td><td class=\"bad\">error</td>"));
}

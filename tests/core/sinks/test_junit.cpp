// JUnit XML: escaping, structure and counts, the run-record sink, and validation against our
// schema (tests/schemas/junit.xsd) with xmllint, which must also reject broken files.
#include "../../common/tools.hpp"
#include "../record_lines.hpp"

#include <spmma/core/junit_sink.hpp>
#include <spmma/core/markup.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace spmma;

namespace {

std::string temp_file(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("spmma-test-junit-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

size_t occurrences(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

Record make_record(RecordStatus status, const std::string& plugin = "cpu") {
    Record r;
    r.spmma_version = "0.1.0";
    r.timestamp = "2026-11-24T09:30:00Z";
    r.host = "builder";
    r.job.problem.m = 64;
    r.job.problem.n = 32;
    r.job.problem.k = 128;
    r.plugin = plugin;
    r.kernel = "cpu_omp_f32acc";
    r.device = "host CPU";
    r.status = status;
    if (status != RecordStatus::Skipped && status != RecordStatus::Error) r.timing = Timing::from({1.0, 2.0, 3.0}, 1, r.job.problem.flops());
    if (status == RecordStatus::Failed) {
        reference::Verdict v;
        v.mode = "full";
        v.checked = 2048;
        v.mismatches = 1;
        v.first.push_back({3, 4, 1.5, 1.0, 0.01});
        r.verdict = v;
        r.reason = "1 of 2048 elements outside the tolerance <&>";
    }
    if (status == RecordStatus::Error) {
        r.stage = "upload";
        r.reason = "out of memory \x01";
    }
    if (status == RecordStatus::Skipped) r.reason = "needs sm_100a";
    return r;
}

}  // namespace

TEST_CASE("markup escaping covers the five specials, control bytes and broken UTF-8", "[junit][markup]") {
    CHECK(markup_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
    CHECK(markup_escape("tab\tline\n") == "tab\tline\n");
    CHECK(markup_escape("bell\x07") == "bell\xEF\xBF\xBD");
    CHECK(markup_escape("\xC3\xA9t\xC3\xA9") == "\xC3\xA9t\xC3\xA9");        // é: kept
    CHECK(markup_escape("x\xC3") == "x\xEF\xBF\xBD");                          // cut short
    CHECK(markup_escape("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");            // overlong
    CHECK(markup_escape("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
}

TEST_CASE("an attribute value keeps tabs and line breaks as character references, element text keeps them raw", "[junit][markup]") {
    CHECK(markup_attribute("a\tb\nc\r\n<d>") == "a&#9;b&#10;c&#13;&#10;&lt;d&gt;");
    CHECK(markup_attribute("bell\x07") == "bell\xEF\xBF\xBD");
    JunitSuite s;
    s.name = "one";
    s.cases.push_back({"p.k", "c", 0.5, JunitOutcome::Failure, "line 1\nline 2\tend", "slower", "line 1\nline 2", ""});
    const std::string xml = junit_xml("doc", {s});
    CHECK_THAT(xml, Catch::Contains("<failure message=\"line 1&#10;line 2&#9;end\" type=\"slower\">line 1\nline 2</failure>"));
}

TEST_CASE("the JUnit document counts its cases and keeps test names unique", "[junit]") {
    JunitSuite s;
    s.name = "one";
    s.timestamp = junit_timestamp("2026-11-24T09:30:00Z");
    s.cases.push_back({"p.k", "same name", 0.5, JunitOutcome::Passed, "", "", "", ""});
    s.cases.push_back({"p.k", "same name", 0.25, JunitOutcome::Failure, "slow", "slower", "details", "out"});
    s.cases.push_back({"p.k", "c", 0, JunitOutcome::Skipped, "too noisy", "", "", ""});
    s.cases.push_back({"p.k", "d", 0, JunitOutcome::Error, "broke", "run", "", ""});
    const std::string xml = junit_xml("doc", {s});
    CHECK_THAT(xml, Catch::Contains("<testsuites name=\"doc\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\" time=\"0.750000\">"));
    CHECK_THAT(xml, Catch::Contains("timestamp=\"2026-11-24T09:30:00\""));
    CHECK_THAT(xml, Catch::Contains("name=\"same name (2)\""));
    CHECK_THAT(xml, Catch::Contains("<failure message=\"slow\" type=\"slower\">details</failure>"));
    CHECK_THAT(xml, Catch::Contains("<skipped message=\"too noisy\"/>"));
    CHECK(junit_classname("my.plugin", "") == "my_plugin.no-kernel");
    CHECK(junit_timestamp("yesterday") == "");
}

TEST_CASE("the run-record sink writes one case per record: failure, error, skipped as they should", "[junit]") {
    const std::string path = temp_file("run.xml");
    {
        JunitSink sink(path);
        for (auto st : {RecordStatus::Verified, RecordStatus::Failed, RecordStatus::Error, RecordStatus::Skipped, RecordStatus::Unverified})
            sink.record(make_record(st));
        sink.record(make_record(RecordStatus::Verified, "other"));
        sink.finish();
    }
    const std::string xml = slurp(path);
    CHECK(occurrences(xml, "<testcase ") == 6);
    CHECK(occurrences(xml, "<testsuite ") == 2);  // a suite per plugin
    CHECK_THAT(xml, Catch::Contains("tests=\"6\" failures=\"1\" errors=\"1\" skipped=\"1\""));
    CHECK_THAT(xml, Catch::Contains("<failure message=\"1 of 2048 elements outside the tolerance &lt;&amp;&gt;\" type=\"verification\">"));
    CHECK_THAT(xml, Catch::Contains("(3, 4): got 1.5, expected 1, tolerance 0.01"));
    CHECK_THAT(xml, Catch::Contains("<error message=\"error in upload: out of memory \xEF\xBF\xBD\" type=\"upload\">"));
    CHECK_THAT(xml, Catch::Contains("<skipped message=\"needs sm_100a\"/>"));
    CHECK_THAT(xml, Catch::Contains("time=\"0.006000\""));  // 1 + 2 + 3 ms
    const ShellResult v = validate_junit(path);
    INFO(v.out);
    CHECK(v.code == 0);
}

TEST_CASE("the sink writes what it has when it is destroyed before the run finishes", "[junit]") {
    const std::string path = temp_file("partial.xml");
    {
        JunitSink sink(path);
        sink.record(make_record(RecordStatus::Verified));
    }
    CHECK(occurrences(slurp(path), "<testcase ") == 1);
    CHECK_THROWS_WITH(JunitSink("/nonexistent/dir/x.xml"), Catch::Contains("cannot write /nonexistent/dir/x.xml"));
}

TEST_CASE("the schema rejects broken JUnit files, so the validation can fail", "[junit]") {
    const std::string head = "<?xml version=\"1.0\"?>\n<testsuites tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"1\">"
                             "<testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"1\">";
    const std::string tail = "</testsuite></testsuites>\n";
    const std::string good = head + "<testcase classname=\"a.b\" name=\"n\" time=\"0.5\"/>" + tail;
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"no name", head + "<testcase classname=\"a.b\" time=\"0.5\"/>" + tail},
        {"time with an exponent", head + "<testcase classname=\"a.b\" name=\"n\" time=\"1e-3\"/>" + tail},
        {"two outcomes", head + "<testcase classname=\"a.b\" name=\"n\" time=\"1\"><skipped/><failure message=\"m\" type=\"t\"/></testcase>" + tail},
        {"failure without message", head + "<testcase classname=\"a.b\" name=\"n\" time=\"1\"><failure type=\"t\">x</failure></testcase>" + tail},
        {"unknown element", head + "<testcase classname=\"a.b\" name=\"n\" time=\"1\"><flaky/></testcase>" + tail},
        {"not well-formed", head + "<testcase classname=\"a.b\" name=\"n\" time=\"1\">" + tail},
        {"zoned timestamp", "<?xml version=\"1.0\"?>\n<testsuites tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\">"
                            "<testsuite name=\"s\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\" timestamp=\"2026-11-24T09:30:00Z\"/>"
                            "</testsuites>\n"},
    };
    const std::string good_path = temp_file("good.xml");
    std::ofstream(good_path) << good;
    const ShellResult ok = validate_junit(good_path);
    INFO(ok.out);
    REQUIRE(ok.code == 0);
    for (const auto& [what, text] : bad) {
        const std::string path = temp_file("bad.xml");
        std::ofstream(path) << text;
        const ShellResult r = validate_junit(path);
        INFO(what << ": " << r.out);
        CHECK(r.code != 0);
        CHECK(r.code != -1);  // xmllint ran
    }
}

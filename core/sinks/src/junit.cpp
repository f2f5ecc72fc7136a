#include <spmma/core/durable_file.hpp>
#include <spmma/core/junit.hpp>
#include <spmma/core/markup.hpp>

#include <fmt/format.h>

#include <map>
#include <regex>
#include <stdexcept>

namespace spmma {
namespace {

struct Counts {
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    double time = 0;
    void add(const JunitCase& c) {
        ++tests;
        failures += c.outcome == JunitOutcome::Failure;
        errors += c.outcome == JunitOutcome::Error;
        skipped += c.outcome == JunitOutcome::Skipped;
        time += c.time_s;
    }
    std::string attributes() const {
        return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\"", tests, failures, errors, skipped,
                           seconds(time));
    }
    // NOTES: xs:decimal, which the schema asks for, has no exponent; 6 decimals is a microsecond.
    static std::string seconds(double s) { return fmt::format("{:.6f}", s > 0 && s < 1e12 ? s : 0.0); }
};

std::string attr(const char* name, const std::string& value) { return fmt::format(" {}=\"{}\"", name, markup_attribute(value)); }

void write_case(std::string& out, const JunitCase& c, const std::string& name) {
    out += fmt::format("    <testcase{}{} time=\"{}\"", attr("classname", c.classname), attr("name", name), Counts::seconds(c.time_s));
    const bool has_body = c.outcome != JunitOutcome::Passed || !c.system_out.empty();
    if (!has_body) {
        out += "/>\n";
        return;
    }
    out += ">\n";
    switch (c.outcome) {
        case JunitOutcome::Passed: break;
        case JunitOutcome::Failure:
        case JunitOutcome::Error: {
            const char* tag = c.outcome == JunitOutcome::Failure ? "failure" : "error";
            out += fmt::format("      <{}{}{}>{}</{}>\n", tag, attr("message", c.message), attr("type", c.type), markup_escape(c.detail), tag);
            break;
        }
        case JunitOutcome::Skipped: out += fmt::format("      <skipped{}/>\n", attr("message", c.message)); break;
    }
    if (!c.system_out.empty()) out += fmt::format("      <system-out>{}</system-out>\n", markup_escape(c.system_out));
    out += "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const std::string& name, const std::vector<JunitSuite>& suites) {
    Counts all;
    for (const auto& s : suites)
        for (const auto& c : s.cases) all.add(c);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites{} {}>\n", attr("name", name), all.attributes());
    std::map<std::pair<std::string, std::string>, int> seen;
    int id = 0;
    for (const auto& s : suites) {
        Counts counts;
        for (const auto& c : s.cases) counts.add(c);
        out += fmt::format("  <testsuite{} {}", attr("name", s.name), counts.attributes());
        if (!s.timestamp.empty()) out += attr("timestamp", s.timestamp);
        if (!s.hostname.empty()) out += attr("hostname", s.hostname);
        out += fmt::format(" id=\"{}\">\n", id++);
        if (!s.properties.empty()) {
            out += "    <properties>\n";
            for (const auto& [k, v] : s.properties) out += fmt::format("      <property{}{}/>\n", attr("name", k), attr("value", v));
            out += "    </properties>\n";
        }
        for (const auto& c : s.cases) {
            const int n = ++seen[{c.classname, c.name}];
            write_case(out, c, n == 1 ? c.name : fmt::format("{} ({})", c.name, n));
        }
        out += "  </testsuite>\n";
    }
    out += "</testsuites>\n";
    return out;
}

void write_junit(const std::filesystem::path& path, const std::string& name, const std::vector<JunitSuite>& suites) {
    write_file_durably(path, junit_xml(name, suites));
}

std::string junit_classname(const std::string& plugin, const std::string& kernel) {
    auto part = [](std::string s, const char* otherwise) {
        if (s.empty()) s = otherwise;
        for (char& c : s)
            if (c == '.') c = '_';
        return s;
    };
    return part(plugin, "spmma") + "." + part(kernel, "no-kernel");
}

std::string junit_timestamp(const std::string& iso_utc) {
    static const std::regex form(R"((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z?)");
    std::smatch m;
    return std::regex_match(iso_utc, m, form) ? m[1].str() : std::string();
}

}  // namespace spmma

// JUnit XML, the subset Jenkins' JUnit plugin and GitLab's unit test reports read:
//   <testsuites name tests failures errors skipped time>
//     <testsuite name tests failures errors skipped time timestamp hostname id>
//       <properties><property name value/>...</properties>
//       <testcase classname name time>
//         <failure message type>text</failure> | <error message type>text</error> |
//         <skipped message/>
//         <system-out>text</system-out>
// tests/schemas/junit.xsd is this subset as a schema; the tests validate what we write against it.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace spmma {

enum class JunitOutcome { Passed, Failure, Error, Skipped };

struct JunitCase {
    std::string classname;  // Jenkins splits it at the last '.' into package and class
    std::string name;
    double time_s = 0;
    JunitOutcome outcome = JunitOutcome::Passed;
    std::string message;    // failure / error / skipped: one line
    std::string type;       // failure / error: a short kind
    std::string detail;     // failure / error: the text body
    std::string system_out;
};

struct JunitSuite {
    std::string name;
    std::string timestamp;  // ISO 8601 without zone ("2026-11-24T09:30:00", UTC); empty: left out
    std::string hostname;   // empty: left out
    std::vector<std::pair<std::string, std::string>> properties;
    std::vector<JunitCase> cases;
};

// The document. Test names are made unique within it (GitLab keeps only the first of a
// classname and name): a repeat gets " (2)", " (3)", ...
std::string junit_xml(const std::string& name, const std::vector<JunitSuite>& suites);
// Writes junit_xml to `path` (write_file_durably: replaced whole or not at all); OutputError, a
// std::runtime_error, naming the path when it cannot.
void write_junit(const std::filesystem::path& path, const std::string& name, const std::vector<JunitSuite>& suites);

// "plugin.kernel" with the dots of each part made '_' (so Jenkins' package is the plugin).
std::string junit_classname(const std::string& plugin, const std::string& kernel);
// A record's "2026-11-24T09:30:00Z" as JUnit wants it (no zone); "" when it is not that form.
std::string junit_timestamp(const std::string& iso_utc);

}  // namespace spmma

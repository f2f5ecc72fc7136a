// spmma check-plugin on the cpu plugin (it passes every check, every problem family verified)
// and the command's usage: exit codes, --json.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace {
const std::string kCpuPlugin = std::string(SPMMA_PLUGIN_DIR) + "/spmma-cpu.so";
}

TEST_CASE("check-plugin passes the cpu plugin on every check, all 31 problem families (the epilogue's included) verified at three sizes", "[cli][check-plugin]") {
    const std::string json = temp_path("check-cpu.json");
    const auto r = spmma_cli("check-plugin " + kCpuPlugin + " --json " + json);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("11 passed, 0 failed, 0 skipped"));
    const auto report = nlohmann::json::parse(read_file(json));
    CHECK(report["passed"] == true);
    CHECK(report["plugin"]["name"] == "cpu");
    REQUIRE(report["checks"].size() == 11);
    double seconds = 0;
    for (const auto& c : report["checks"]) {
        INFO(c.dump());
        CHECK(c["result"] == "pass");
        seconds += c["seconds"].get<double>();
    }
    const auto& v = report["checks"][7];
    REQUIRE(v["name"] == "verification");
    REQUIRE(v["parts"].size() == 31);
    for (const auto& part : v["parts"]) {
        INFO(part.dump());
        // Three sizes, each run by the plugin's own choice and by the one kernel that fits.
        CHECK(part["result"] == "pass");
        CHECK(part["runs"] == 6);
        CHECK(part["verified"] == 6);
    }
    CHECK(v["verified"] == 186);
    WARN("check-plugin on the cpu plugin: " << seconds << " s");
}

TEST_CASE("check-plugin: a missing file is bad usage (exit 2)", "[cli][check-plugin]") {
    const auto r = spmma_cli("check-plugin /nonexistent/spmma-nothing.so");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("/nonexistent/spmma-nothing.so: no such file"));
}

TEST_CASE("check-plugin: files that are not plugins fail load with the reason (exit 1)", "[cli][check-plugin]") {
    const std::string dir = SPMMA_BAD_PLUGIN_DIR;
    const std::pair<const char*, const char*> cases[] = {
        {"spmma-no-entry.so", "no 'spmma_plugin_entry' symbol exported"},
        {"spmma-wrong-major.so", "speaks ABI 2."},
        {"spmma-not-a-library.so", "cannot be loaded"},
    };
    for (const auto& [file, reason] : cases) {
        const auto r = spmma_cli("check-plugin " + dir + "/" + file);
        INFO(r.out);
        CHECK(r.code == 1);
        CHECK_THAT(r.out, Catch::Contains(reason) && Catch::Contains("0 passed, 1 failed, 10 skipped"));
    }
}

TEST_CASE("check-plugin --json - writes the JSON alone to standard output", "[cli][check-plugin]") {
    const std::string cmd = std::string(SPMMA_EXE) + " check-plugin " + SPMMA_BAD_PLUGIN_DIR + "/spmma-no-entry.so --json - 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
    const auto j = nlohmann::json::parse(out);
    CHECK(j["passed"] == false);
    CHECK(j["counts"]["fail"] == 1);
    CHECK(j["checks"][0]["name"] == "load");
}

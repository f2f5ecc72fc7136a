// spmma check-plugin on the fault plugins: each fault fails the check it breaks, with the reason,
// every other row of the suite still runs (and passes), and the exit code says a check failed.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace {

struct Suite {
    CliResult cli;
    nlohmann::json report;

    nlohmann::json row(const std::string& name) const {
        for (const auto& c : report.at("checks"))
            if (c.at("name") == name) return c;
        return nullptr;
    }
    std::string result(const std::string& name) const { return row(name).value("result", "missing"); }
    std::string detail(const std::string& name) const { return row(name).value("detail", ""); }

    // Every check ran; those in `failing` failed, every other one passed.
    void only_these_fail(const std::set<std::string>& failing) const {
        INFO(cli.out);
        REQUIRE(report.at("checks").size() == 11);
        for (const auto& c : report.at("checks")) {
            INFO(c.dump());
            CHECK(c.at("result") == (failing.count(c.at("name").get<std::string>()) ? "fail" : "pass"));
        }
        CHECK(cli.code == (failing.empty() ? 0 : 1));
        CHECK(report.at("passed") == failing.empty());
    }
};

Suite check(const std::string& fault, const std::string& file, const std::string& extra = "") {
    const std::string json = temp_path("check-" + fault + ".json");
    Suite s;
    s.cli = spmma_cli("check-plugin " + std::string(SPMMA_FAULT_DIR) + "/" + fault + "/" + file + " --json " + json + " " + extra);
    INFO(s.cli.out);
    s.report = nlohmann::json::parse(read_file(json));
    return s;
}

}  // namespace

TEST_CASE("check-plugin passes the well-behaved C plugin on every check, f16 verified at three sizes with both kernel choices", "[check-plugin]") {
    const Suite s = check("good", "spmma-fault-good.so");
    s.only_these_fail({});
    const auto v = s.row("verification");
    CHECK(v["runs"] == 6);
    CHECK(v["verified"] == 6);
    CHECK_THAT(s.cli.out, Catch::Contains("11 passed, 0 failed, 0 skipped"));
}

TEST_CASE("check-plugin: a segfault in run fails the checks that run with 'crashed: SIGSEGV in run' and the others still pass",
          "[check-plugin]") {
    const Suite s = check("segv_run", "spmma-fault-segv-run.so");
    s.only_these_fail({"bad-arguments", "verification", "churn", "iterations"});
    for (const char* name : {"bad-arguments", "verification", "churn", "iterations"}) CHECK_THAT(s.detail(name), Catch::Contains("crashed: SIGSEGV in run"));
    CHECK_THAT(s.row("verification")["parts"][0]["detail"].get<std::string>(), Catch::Contains("crashed: SIGSEGV in run (1x1x4 f16"));
}

TEST_CASE("check-plugin: a plugin that hangs in run fails those checks after --timeout and the suite completes", "[check-plugin]") {
    const Suite s = check("hang_run", "spmma-fault-hang-run.so", "--timeout 2");
    s.only_these_fail({"bad-arguments", "verification", "churn", "iterations"});
    for (const char* name : {"bad-arguments", "verification", "churn", "iterations"}) CHECK_THAT(s.detail(name), Catch::Contains("timeout after 2 s in run"));
}

TEST_CASE("check-plugin: a NULL function table fails load, and the other checks are skipped saying why", "[check-plugin]") {
    const Suite s = check("null_table", "spmma-fault-null-table.so");
    INFO(s.cli.out);
    CHECK(s.cli.code == 1);
    CHECK(s.result("load") == "fail");
    CHECK_THAT(s.detail("load"), Catch::Contains("returned NULL: no function table"));
    for (const auto& c : s.report["checks"])
        if (c["name"] != "load") {
            CHECK(c["result"] == "skip");
            CHECK_THAT(c["detail"].get<std::string>(), Catch::Contains("did not load"));
        }
}

TEST_CASE("check-plugin: a plugin named like the installed cpu plugin fails info naming both files", "[check-plugin]") {
    const Suite s = check("dup_name", "spmma-fake-cpu.so");
    s.only_these_fail({"info"});
    CHECK_THAT(s.detail("info"), Catch::Contains("the name 'cpu' is taken") && Catch::Contains("spmma-cpu.so") && Catch::Contains("spmma-fake-cpu.so"));
}

TEST_CASE("check-plugin: a wrong element in D fails verification with the mismatch", "[check-plugin]") {
    const Suite s = check("wrong_d", "spmma-fault-wrong-d.so");
    s.only_these_fail({"verification"});
    CHECK_THAT(s.detail("verification"), Catch::Contains("1 of 1 elements outside the tolerance"));
    CHECK(s.row("verification")["verified"] == 0);
    CHECK(s.row("verification")["runs"] == 6);
}

TEST_CASE("check-plugin: a NaN in D fails verification with the NaN counted", "[check-plugin]") {
    const Suite s = check("nan_d", "spmma-fault-nan-d.so");
    s.only_these_fail({"verification"});
    CHECK_THAT(s.detail("verification"), Catch::Contains("(1 NaN)"));
}

TEST_CASE("check-plugin: a destroy that frees nothing fails churn on resident memory", "[check-plugin]") {
    const Suite s = check("leak_destroy", "spmma-fault-leak-destroy.so");
    s.only_these_fail({"churn"});
    CHECK_THAT(s.detail("churn"), Catch::Contains("resident memory grew by") && Catch::Contains("a leak"));
}

TEST_CASE("check-plugin: one last_error for all threads fails last-error-threads", "[check-plugin]") {
    const Suite s = check("shared_error", "spmma-fault-shared-error.so");
    s.only_these_fail({"last-error-threads"});
    CHECK_THAT(s.detail("last-error-threads"), Catch::Contains("not its own"));
}

TEST_CASE("check-plugin: out-structs written whatever the host's struct_size fail info and devices", "[check-plugin]") {
    const Suite s = check("struct_size", "spmma-fault-struct-size.so");
    s.only_these_fail({"info", "devices"});
    CHECK_THAT(s.detail("info"), Catch::Contains("get_info changed struct_size from 16"));
    CHECK_THAT(s.detail("devices"), Catch::Contains("changed struct_size"));
}

TEST_CASE("check-plugin: an upload that reads a NULL operand fails bad-arguments naming the call", "[check-plugin]") {
    const Suite s = check("null_operands", "spmma-fault-null-operands.so");
    s.only_these_fail({"bad-arguments"});
    CHECK_THAT(s.detail("bad-arguments"), Catch::Contains("crashed: SIGSEGV in upload(handle, operands with a_values NULL)"));
}

TEST_CASE("check-plugin: a run that reports 0 ms fails iterations", "[check-plugin]") {
    const Suite s = check("zero_times", "spmma-fault-zero-times.so");
    s.only_these_fail({"iterations"});
    CHECK_THAT(s.detail("iterations"), Catch::Contains("times_ms[0] = 0"));
}

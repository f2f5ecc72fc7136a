// A faulty plugin never takes the sweep down: each fault plugin runs beside the cpu plugin on two
// problems; the fault is reported with its reason, the cpu plugin's records are complete, and the
// exit code says a run failed.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Run {
    CliResult cli;
    std::vector<nlohmann::json> records;
    int cpu_verified = 0;
    std::vector<nlohmann::json> of(const std::string& plugin) const {
        std::vector<nlohmann::json> out;
        for (const auto& r : records)
            if (r["plugin"]["name"] == plugin) out.push_back(r);
        return out;
    }
};

// Two problems (the worker is restarted between them) on the cpu plugin and `plugin` from `dir`
// (--force: a test calling it twice replaces its own records file).
Run run_with(const std::string& dir, const std::string& plugin, const std::string& extra = "") {
    const std::string json = temp_path("faults-" + plugin + ".jsonl");
    Run r;
    r.cli = spmma_cli("gemm --m 37,45 --n 29 --k 64 --dtype f16 --verify full --warmup 1 --iterations 2 --no-progress --plugin-dir " + dir +
                      " --plugin cpu," + plugin + " --json " + json + " --force " + extra);
    std::istringstream lines(read_file(json));
    std::string line;
    while (std::getline(lines, line)) {
        r.records.push_back(nlohmann::json::parse(line));
        const auto& rec = r.records.back();
        if (rec["plugin"]["name"] == "cpu" && rec["status"] == "verified") ++r.cpu_verified;
    }
    return r;
}

std::string dir(const char* fault) { return std::string(SPMMA_FAULT_DIR) + "/" + fault; }

void check_error(const Run& r, const std::string& plugin, const std::string& stage, const std::string& reason) {
    INFO(r.cli.out);
    CHECK(r.cli.code == 1);
    CHECK(r.cpu_verified == 2);
    const auto recs = r.of(plugin);
    REQUIRE(recs.size() == 2);
    for (const auto& rec : recs) {
        CHECK(rec["status"] == "error");
        CHECK(rec["stage"] == stage);
        CHECK_THAT(rec["reason"].get<std::string>(), Catch::Contains(reason));
        CHECK(rec["plugin"]["isolation"] == "worker");
    }
}

}  // namespace

TEST_CASE("a plugin that segfaults in run is a 'crashed: SIGSEGV in run' record and the cpu plugin's records are complete", "[faults]") {
    const Run r = run_with(dir("segv_run"), "fault_segv_run");
    check_error(r, "fault_segv_run", "run", "crashed: SIGSEGV in run");
    // What the plugin printed before it died is in the reason.
    CHECK_THAT(r.of("fault_segv_run")[0]["reason"].get<std::string>(), Catch::Contains("writing through a null pointer"));
}

TEST_CASE("a plugin that segfaults in probe (asked for beside the other plugins' probes) is a 'crashed: SIGSEGV in probe' record", "[faults]") {
    const Run r = run_with(dir("segv_probe"), "fault_segv_probe");
    check_error(r, "fault_segv_probe", "probe", "crashed: SIGSEGV in probe");
    CHECK_THAT(r.of("fault_segv_probe")[0]["reason"].get<std::string>(), Catch::Contains("writing through a null pointer in probe"));
}

TEST_CASE("a plugin that aborts in create is a 'crashed: SIGABRT in create' record", "[faults]") {
    check_error(run_with(dir("abort_create"), "fault_abort_create"), "fault_abort_create", "create", "crashed: SIGABRT in create");
}

TEST_CASE("a plugin that calls exit(0) in run is an error record and spmma exits 1, not 0", "[faults]") {
    check_error(run_with(dir("exit0_run"), "fault_exit0_run"), "fault_exit0_run", "run", "exited with 0 in run");
}

TEST_CASE("a plugin that hangs in run is stopped after --timeout and reported", "[faults]") {
    check_error(run_with(dir("hang_run"), "fault_hang_run", "--timeout 2"), "fault_hang_run", "run", "timeout after 2 s in run");
}

TEST_CASE("a plugin with a wrong element in D fails verification", "[faults]") {
    const Run r = run_with(dir("wrong_d"), "fault_wrong_d");
    INFO(r.cli.out);
    CHECK(r.cli.code == 1);
    CHECK(r.cpu_verified == 2);
    for (const auto& rec : r.of("fault_wrong_d")) {
        CHECK(rec["status"] == "failed");
        CHECK(rec["verification"]["mismatches"] == 1);
    }
}

TEST_CASE("a plugin with NaN in D fails verification with the NaN counted", "[faults]") {
    const Run r = run_with(dir("nan_d"), "fault_nan_d");
    INFO(r.cli.out);
    CHECK(r.cli.code == 1);
    CHECK(r.cpu_verified == 2);
    for (const auto& rec : r.of("fault_nan_d")) {
        CHECK(rec["status"] == "failed");
        CHECK(rec["verification"]["nan_count"] == 1);
    }
}

TEST_CASE("plugins that do not load (NULL table, wrong ABI major, no entry symbol) are named with their reason and the others run",
          "[faults]") {
    const Run null_table = run_with(dir("null_table"), "fault_null_table");
    INFO(null_table.cli.out);
    CHECK_THAT(null_table.cli.out, Catch::Contains("spmma-fault-null-table.so") && Catch::Contains("returned no function table"));
    CHECK(null_table.cpu_verified == 2);
    // It was asked for by name and is not there: an error, so the run fails.
    CHECK(null_table.cli.code == 1);
    const Run bad = run_with(SPMMA_BAD_PLUGIN_DIR, "nothing_by_that_name");
    INFO(bad.cli.out);
    CHECK_THAT(bad.cli.out, Catch::Contains("speaks ABI 2.") && Catch::Contains("no 'spmma_plugin_entry' symbol"));
    CHECK(bad.cpu_verified == 2);
}

TEST_CASE("a drop-in plugin that calls itself cpu is refused naming both files, and the real cpu plugin runs", "[faults]") {
    const Run r = run_with(dir("dup_name"), "cpu");
    INFO(r.cli.out);
    CHECK(r.cli.code == 0);
    CHECK_THAT(r.cli.out, Catch::Contains("spmma-fake-cpu.so") && Catch::Contains("spmma-cpu.so") && Catch::Contains("the name 'cpu' is taken"));
    REQUIRE(r.cpu_verified == 2);
    for (const auto& rec : r.of("cpu")) {
        CHECK_THAT(rec["plugin"]["file"].get<std::string>(), Catch::EndsWith("spmma-cpu.so"));
        CHECK(rec["plugin"]["sha256"].get<std::string>().size() == 64);
    }
}

TEST_CASE("a well-behaved C plugin verifies in its worker, and in-process too", "[faults]") {
    for (const char* mode : {"", "--in-process"}) {
        const Run r = run_with(dir("good"), "fault_good", mode);
        INFO(r.cli.out);
        CHECK(r.cli.code == 0);
        const auto recs = r.of("fault_good");
        REQUIRE(recs.size() == 2);
        for (const auto& rec : recs) {
            CHECK(rec["status"] == "verified");
            CHECK(rec["plugin"]["isolation"] == (mode[0] ? "in-process" : "worker"));
        }
    }
}

TEST_CASE("a plugin that reports NaN and infinite times gives the same record in its worker as in-process", "[faults]") {
    std::vector<nlohmann::json> records;
    for (const char* mode : {"", "--in-process"}) {
        const Run r = run_with(dir("nan_times"), "fault_nan_times", mode);
        INFO(r.cli.out);
        CHECK(r.cpu_verified == 2);
        const auto recs = r.of("fault_nan_times");
        REQUIRE(recs.size() == 2);
        CHECK(recs[0]["plugin"]["isolation"] == (mode[0] ? "in-process" : "worker"));
        records.push_back(recs[0]);
    }
    CHECK(records[0]["timing"]["times_ms"] == nlohmann::json{"nan", "inf"});
    CHECK(records[0]["status"] == records[1]["status"]);
    CHECK(records[0]["reason"] == records[1]["reason"]);
    CHECK(records[0]["timing"] == records[1]["timing"]);
}

namespace {

// `spmma gemm` on the three plugins of a folder of slow ones, and its wall time: each plugin's slow
// step takes 1.5 s, so 1.5 s in all when the workers take it side by side, 4.5 s one after another.
void check_side_by_side(const std::string& kind) {
    const auto t0 = std::chrono::steady_clock::now();
    const CliResult r = spmma_cli("gemm --m 37 --n 29 --k 64 --dtype f16 --verify full --warmup 1 --iterations 2 --no-progress --plugin-dir " +
                                  dir(("slow_" + kind).c_str()) + " --plugin slow_" + kind + "_a,slow_" + kind + "_b,slow_" + kind + "_c");
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("3 verified"));
    CHECK(wall_s >= 1.5);
    CHECK(wall_s < 3.5);
}

}  // namespace

TEST_CASE("the workers of a run end side by side: three plugins that each take 1.5 s to exit cost 1.5 s, not 4.5", "[faults]") {
    check_side_by_side("exit");
}

TEST_CASE("the workers of a run start side by side: three plugins whose probe takes 1.5 s cost 1.5 s, not 4.5", "[faults]") {
    check_side_by_side("probe");
}

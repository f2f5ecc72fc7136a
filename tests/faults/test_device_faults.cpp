// A fault on one device of several: with --devices all, a plugin that crashes in run on device 1
// only (and is correct on device 0) gives every problem exactly one record, device 0's verified,
// device 1's `crashed: SIGSEGV in run`, its worker restarted for each later problem, and the run
// exits 1. The same plugin without the fault verifies everywhere on both devices.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Eight problems of about ten million multiply-adds each (three launches) on the plugin's CPU
// loop: each device's runner takes its first two jobs (one to run, one to prepare) long before
// the other device could take them all.
const std::string kEight = "gemm --m 128,136,144,152,160,168,176,184 --n 96 --k 256 --dtype f16 --verify full --warmup 1 --iterations 2 --no-progress";

struct DevicesRun {
    CliResult cli;
    std::vector<nlohmann::json> records;
    std::map<int, std::vector<nlohmann::json>> by_device;
    std::map<int64_t, int> per_problem;  // m -> records
};

DevicesRun run_all_devices(const std::string& fault, const std::string& plugin) {
    const std::string json = temp_path("device-faults-" + plugin + ".jsonl");
    DevicesRun r;
    r.cli = spmma_cli(kEight + " --devices all --plugin-dir " + std::string(SPMMA_FAULT_DIR) + "/" + fault + " --plugin " + plugin + " --json " + json);
    std::istringstream lines(read_file(json));
    for (std::string line; std::getline(lines, line);) {
        if (line.empty()) continue;
        const auto rec = nlohmann::json::parse(line);
        r.records.push_back(rec);
        r.by_device[rec["device"]["index"].get<int>()].push_back(rec);
        ++r.per_problem[rec["problem"]["m"].get<int64_t>()];
    }
    return r;
}

void check_one_record_per_problem(const DevicesRun& r) {
    REQUIRE(r.records.size() == 8);
    CHECK(r.per_problem.size() == 8);
    for (const auto& [m, n] : r.per_problem) {
        INFO("m = " << m);
        CHECK(n == 1);
    }
}

}  // namespace

TEST_CASE("a plugin that crashes on device 1 only: device 0's records verify, device 1's are crashed records, its worker restarted, exit 1",
          "[faults][devices]") {
    const DevicesRun r = run_all_devices("segv_run_device1", "fault_segv_run_device1");
    INFO(r.cli.out);
    CHECK(r.cli.code == 1);
    check_one_record_per_problem(r);
    REQUIRE(r.by_device.size() == 2);
    for (const auto& rec : r.by_device.at(0)) {
        CHECK(rec["status"] == "verified");
        CHECK(rec["device"]["uuid"] == "fault-0");
    }
    // Two or more crashes on device 1: each after the first ran in a worker started again.
    const auto& ones = r.by_device.at(1);
    CHECK(ones.size() >= 2);
    for (const auto& rec : ones) {
        CHECK(rec["status"] == "error");
        CHECK(rec["stage"] == "run");
        CHECK_THAT(rec["reason"].get<std::string>(), Catch::Contains("crashed: SIGSEGV in run") && Catch::Contains("on device 1"));
        CHECK(rec["device"]["uuid"] == "fault-1");
        CHECK(rec["plugin"]["isolation"] == "worker");
    }
}

TEST_CASE("the same plugin without the fault, on two devices: every problem once, verified, on both devices", "[faults][devices]") {
    const DevicesRun r = run_all_devices("good_two_devices", "fault_good_two_devices");
    INFO(r.cli.out);
    CHECK(r.cli.code == 0);
    check_one_record_per_problem(r);
    REQUIRE(r.by_device.size() == 2);
    for (const auto& [d, recs] : r.by_device)
        for (const auto& rec : recs) {
            CHECK(rec["status"] == "verified");
            CHECK(rec["device"]["name"] == "host CPU as fault device " + std::to_string(d));
        }
}

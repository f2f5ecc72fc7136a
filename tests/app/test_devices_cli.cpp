// --devices: one set of plugin workers per device, problems handed out as devices free up, every
// record naming its device. The pace test plugin plays a host with SPMMA_TEST_PACE_DEVICES devices.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

namespace {

const std::string kPace = "--plugin pace --plugin-dir " SPMMA_PACE_PLUGIN_DIR;
// Eight problems of seven launches each: about half a second on one device.
const std::string kEight = "gemm " + kPace + " --m 64,65,66,67,68,69,70,71 --n 8 --k 16 --verify none --warmup 1 --iterations 5 --no-progress -q";
// 10 ms launches: the second device's runner starts long before the first could take every job.
const std::string kTwoDevices = "SPMMA_TEST_PACE_DEVICES=2 SPMMA_TEST_PACE_US=10000";

std::vector<nlohmann::json> records_in(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::istringstream lines(read_file(path));
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

}  // namespace

TEST_CASE("run on all devices: every problem once, spread over every device, each record naming its device", "[cli][devices]") {
    const std::string json = temp_path("devices-all.jsonl");
    const auto r = spmma_cli_env(kTwoDevices, kEight + " --devices all --json " + json);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto recs = records_in(json);
    REQUIRE(recs.size() == 8);
    std::set<int64_t> ms;
    std::map<int, int> per_device;
    for (const auto& rec : recs) {
        ms.insert(rec["problem"]["m"].get<int64_t>());
        const int d = rec["device"]["index"].get<int>();
        ++per_device[d];
        CHECK(rec["device"]["name"] == "pace device " + std::to_string(d));
        CHECK(rec["device"]["uuid"] == "pace-" + std::to_string(d));
        CHECK(rec["status"] == "unverified");
    }
    CHECK(ms.size() == 8);
    // Each runner takes its first two jobs (one to run, one to prepare) before any finishes.
    REQUIRE(per_device.size() == 2);
    CHECK(per_device[0] >= 2);
    CHECK(per_device[1] >= 2);
}

TEST_CASE("run on device 1 alone, and a device no plugin has is refused before anything runs", "[cli][devices]") {
    const std::string json = temp_path("devices-one.jsonl");
    const auto one = spmma_cli_env(kTwoDevices, kEight + " --devices 1 --json " + json);
    INFO(one.out);
    REQUIRE(one.code == 0);
    for (const auto& rec : records_in(json)) CHECK(rec["device"]["index"] == 1);
    const auto absent = spmma_cli_env(kTwoDevices, kEight + " --devices 0,3");
    INFO(absent.out);
    CHECK(absent.code == 2);
    CHECK_THAT(absent.out, Catch::Contains("device 3: the plugins to run have 2 devices (0 to 1)"));
}

TEST_CASE("a device list refuses a repeated or malformed index, in-process runs on several devices, and --device beside it", "[cli][devices]") {
    const auto twice = spmma_cli_env(kTwoDevices, kEight + " --devices 0,0");
    CHECK(twice.code == 2);
    CHECK_THAT(twice.out, Catch::Contains("device 0 is named twice"));
    const auto bad = spmma_cli_env(kTwoDevices, kEight + " --devices 0,x");
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Catch::Contains("'x' is not a device index"));
    const auto in_process = spmma_cli_env(kTwoDevices, kEight + " --devices all --in-process");
    CHECK(in_process.code == 2);
    CHECK_THAT(in_process.out, Catch::Contains("drop --in-process"));
    const auto both = spmma_cli_env(kTwoDevices, kEight + " --devices all --device 1");
    CHECK(both.code != 0);
    CHECK_THAT(both.out, Catch::Contains("excludes"));
}

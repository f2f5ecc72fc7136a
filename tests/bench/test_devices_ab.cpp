// bench/devices/ab.sh on the CPU: the two-device test plugin of tests/faults stands in for the
// GPU plugins, so every variant runs `--devices 0` and `--devices all` as on the two-GPU machine.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace bench_test;

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

}  // namespace

TEST_CASE("devices/ab.sh on the CPU: each variant runs on device 0 and on all, every run verified, one ratio line a variant") {
    const auto dir = scratch("devices_ab"), out = dir / "out";
    const std::string plugins = std::string(SPMMA_BINARY_DIR) + "/tests/faults/plugins/good_two_devices";
    const std::string cmd = "cd '" + kSource.string() + "' && BUILD='" + std::string(SPMMA_BINARY_DIR) + "' OUT='" + out.string() +
                            "' REPEAT=1 PLUGINS=fault_good_two_devices WORKLOAD=bench/devices/dry_run.toml ARGS='--plugin-dir " + plugins +
                            "' VARIANTS='base= one=OMP_NUM_THREADS=1' bash bench/devices/ab.sh > '" + (dir / "console").string() + "' 2>&1";
    const int raw = std::system(cmd.c_str());
    INFO(slurp(dir / "console"));
    REQUIRE(WIFEXITED(raw));
    CHECK(WEXITSTATUS(raw) == 0);
    const auto table = lines(slurp(out / "table.txt"));
    REQUIRE(table.size() == 6);  // the header, the filling run, two variants x two device settings
    for (size_t i = 1; i < table.size(); ++i) {
        INFO(table[i]);
        std::istringstream f(table[i]);
        std::string variant, devices, round, exit, wall, end, verified;
        f >> variant >> devices >> round >> exit >> wall >> end >> verified;
        CHECK(exit == "0");
        CHECK(verified == "8");  // dry_run.toml's eight problems
        CHECK((devices == "0" || devices == "all"));
    }
    const auto summary = lines(slurp(out / "summary.txt"));
    REQUIRE(summary.size() == 2);
    CHECK(summary[0].rfind("base ", 0) == 0);
    CHECK(summary[1].rfind("one ", 0) == 0);
    for (const auto& l : summary) CHECK(l.find("all / 0 = ") != std::string::npos);
    CHECK(fs::exists(out / "runs.tgz"));
}

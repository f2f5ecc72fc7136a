// bench/epilogue/ab_build.sh on the CPU: the cpu plugin stands in for sm90a, a copy of its file
// for the other build, so each build in ORDER runs bench/epilogue/device.sh as on the GPU.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <string>

namespace {

using namespace bench_test;

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("epilogue/ab_build.sh on the CPU: a table for each build in ORDER, every run verified, the build's plugin file put back") {
    const auto dir = scratch("epilogue_ab"), out = dir / "out";
    const fs::path plugin = fs::path(SPMMA_BINARY_DIR) / "lib/spmma/plugins/spmma-cpu.so";
    const fs::path old = dir / "old-cpu.so";
    fs::copy_file(plugin, old);
    const std::string before = slurp(plugin);
    const std::string cmd = "cd '" + kSource.string() + "' && BUILD='" + std::string(SPMMA_BINARY_DIR) + "' OUT='" + out.string() +
                            "' OLD='" + old.string() +
                            "' ORDER='new old new' PLUGIN_NAME=cpu SET_SHAPES=64x32x128 DECODE_LAYERS=96x256 DECODE_N=1,8 "
                            "MIN_TIME_SET=0 MIN_TIME_DECODE=0 bash bench/epilogue/ab_build.sh > '" +
                            (dir / "console").string() + "' 2>&1";
    const int raw = std::system(cmd.c_str());
    INFO(slurp(dir / "console"));
    REQUIRE(WIFEXITED(raw));
    CHECK(WEXITSTATUS(raw) == 0);
    const std::string table = slurp(out / "ab_table.txt");
    CHECK(has_line(table, "## new (1)"));
    CHECK(has_line(table, "## old (2)"));
    CHECK(has_line(table, "## new (3)"));
    for (const char* run : {"new-1", "old-2", "new-3"}) {
        INFO(run);
        CHECK(fs::exists(out / run / "table.txt"));
        CHECK(fs::exists(out / run / "records.tgz"));
    }
    CHECK(count(table, "64x32x128") >= 3);  // the set shape in each build's table
    CHECK(slurp(plugin) == before);
    CHECK_FALSE(fs::exists(out / "new-plugin.so.keep"));
}

TEST_CASE("epilogue/ab_build.sh refuses an ORDER word other than new and old before touching the plugin") {
    const auto dir = scratch("epilogue_ab_order");
    const std::string cmd = "cd '" + kSource.string() + "' && BUILD='" + std::string(SPMMA_BINARY_DIR) + "' OUT='" + (dir / "out").string() +
                            "' OLD=/nonexistent ORDER='new newer' PLUGIN_NAME=cpu bash bench/epilogue/ab_build.sh > '" +
                            (dir / "console").string() + "' 2>&1";
    const int raw = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(raw));
    CHECK(WEXITSTATUS(raw) == 2);
    CHECK(slurp(dir / "console").find("ORDER takes new and old, not 'newer'") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "out" / "new-plugin.so.keep"));
}

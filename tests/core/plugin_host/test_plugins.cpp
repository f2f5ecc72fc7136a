#include <spmma/core/plugins.hpp>
#include <spmma/core/sha256.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

using namespace spmma;

namespace {
const Plugin* by_file(const std::vector<Plugin>& ps, const std::string& stem) {
    for (const auto& p : ps)
        if (p.file.filename() == stem) return &p;
    return nullptr;
}
}  // namespace

TEST_CASE("the cpu plugin loads, describes itself and runs on device 0", "[plugins]") {
    const auto ps = load_plugins({SPMMA_PLUGIN_DIR});
    const Plugin* cpu = find_plugin(ps, "cpu");
    REQUIRE(cpu);
    CHECK(cpu->abi_major == SPMMA_ABI_MAJOR);
    CHECK(cpu->target == "cpu");
    CHECK(cpu->kernels.size() == 3);
    CHECK(cpu->probe(0).runnable);
    CHECK_FALSE(cpu->probe(1).runnable);
}

TEST_CASE("bad plugins are listed with their reason and good ones still load", "[plugins]") {
    const auto ps = load_plugins({SPMMA_BAD_PLUGIN_DIR, SPMMA_PLUGIN_DIR});
    const Plugin* major = by_file(ps, "spmma-wrong-major.so");
    REQUIRE(major);
    CHECK(major->state == PluginState::AbiMismatch);
    CHECK_THAT(major->error, Catch::Contains("speaks ABI 2.0, this spmma speaks " + std::to_string(SPMMA_ABI_MAJOR) + "." + std::to_string(SPMMA_ABI_MINOR)));
    const Plugin* no_entry = by_file(ps, "spmma-no-entry.so");
    REQUIRE(no_entry);
    CHECK(no_entry->state == PluginState::NoEntry);
    CHECK_THAT(no_entry->error, Catch::Contains("spmma_plugin_entry"));
    const Plugin* junk = by_file(ps, "spmma-not-a-library.so");
    REQUIRE(junk);
    CHECK(junk->state == PluginState::LoadFailed);
    CHECK_FALSE(junk->error.empty());
    CHECK(find_plugin(ps, "cpu"));
}

TEST_CASE("the same file found through two folder names is loaded once", "[plugins]") {
    const auto ps = load_plugins({SPMMA_PLUGIN_DIR, SPMMA_PLUGIN_DIR "/."});
    int loaded = 0, files = 0;
    for (const auto& p : ps) {
        loaded += p.usable() && p.name == "cpu";
        files += p.file.filename() == "spmma-cpu.so";
    }
    CHECK(loaded == 1);
    CHECK(files == 1);
}

TEST_CASE("a second plugin with a taken name is refused, naming the file that has the name", "[plugins]") {
    PluginIdentity first, second, other;
    first.file = "/installed/spmma-cpu.so";
    second.file = "/dropin/spmma-fake.so";
    other.file = "/dropin/spmma-x.so";
    for (auto* p : {&first, &second, &other}) p->state = PluginState::Loaded;
    first.name = second.name = "cpu";
    other.name = "x";
    refuse_duplicate_names({&first, &second, &other});
    CHECK(first.usable());
    CHECK(other.usable());
    CHECK(second.state == PluginState::Duplicate);
    CHECK_THAT(second.error, Catch::Contains("/installed/spmma-cpu.so") && Catch::Contains("'cpu'"));
}

TEST_CASE("the search path puts the installed folder first, then SPMMA_PLUGIN_PATH, then --plugin-dir, never the current folder",
          "[plugins]") {
    setenv("SPMMA_PLUGIN_PATH", "/env/one::/env/two", 1);
    const auto dirs = plugin_search_path({"/cli"});
    unsetenv("SPMMA_PLUGIN_PATH");
    REQUIRE(dirs.size() == 4);
    CHECK(dirs[0].filename() == "plugins");
    CHECK(dirs[1] == "/env/one");
    CHECK(dirs[2] == "/env/two");
    CHECK(dirs[3] == "/cli");
    for (const auto& d : dirs) CHECK_FALSE(d.empty());
}

TEST_CASE("a loaded plugin carries the SHA-256 of its file", "[plugins]") {
    const auto ps = load_plugins({SPMMA_PLUGIN_DIR});
    const Plugin* cpu = find_plugin(ps, "cpu");
    REQUIRE(cpu);
    CHECK(cpu->sha256.size() == 64);
    CHECK(cpu->sha256 == sha256_file(cpu->file));
}

TEST_CASE("supports answers with the plugin's reason", "[plugins]") {
    const auto ps = load_plugins({SPMMA_PLUGIN_DIR});
    const Plugin* cpu = find_plugin(ps, "cpu");
    REQUIRE(cpu);
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = p.n = 8;
    p.k = 30;
    p.a_type = p.b_type = SPMMA_F16;
    p.c_type = p.d_type = SPMMA_F16;
    p.acc_type = SPMMA_F32;
    p.pattern = SPMMA_PATTERN_2_4;
    const auto why = cpu->unsupported_reason(0, p, nullptr);
    REQUIRE(why);
    CHECK_THAT(*why, Catch::Contains("k must be a multiple of 4"));
    p.k = 32;
    CHECK_FALSE(cpu->unsupported_reason(0, p, nullptr));
    CHECK(cpu->unsupported_reason(0, p, "cpu_omp_s32acc"));
    CHECK(cpu->unsupported_reason(0, p, "no_such_kernel"));
}

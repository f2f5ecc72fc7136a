// What `spmma plugins` prints about plugins the build skipped: the plugin folder's
// not-built.json (written by plugins/CMakeLists.txt), each entry with why and how to get it.
#include <spmma/core/inventory.hpp>

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace spmma;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("spmma-inventory-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

const char* const kList = R"({"version": 1, "not_built": [
  {"name": "vendorx", "reason": "vendorx.h not found", "how": "scripts/build.sh fetches it with pip; or set VENDORX_ROOT"},
  {"name": "cpu", "reason": "stale entry", "how": "-"}]})";

Endpoints open_in_process(const std::vector<fs::path>& dirs) {
    EndpointOptions o;
    o.in_process = true;
    return open_plugins(dirs, o);
}

}  // namespace

TEST_CASE("spmma plugins lists a plugin the build skipped, with why and how to get it", "[inventory]") {
    const fs::path dir = temp_dir("listed");
    std::ofstream(dir / "not-built.json") << kList;
    const std::vector<fs::path> dirs = {SPMMA_PLUGIN_DIR, dir};
    const Endpoints eps = open_in_process(dirs);
    const std::string table = describe_plugins(eps, dirs, 0, false);
    CHECK_THAT(table, Catch::Contains("vendorx      -        -         -       not built: vendorx.h not found "
                                      "(scripts/build.sh fetches it with pip; or set VENDORX_ROOT)\n"));
    CHECK_THAT(table, Catch::Contains("ready on host CPU"));
    CHECK_THAT(table, !Catch::Contains("stale entry"));  // cpu was loaded: its entry is left out

    const std::string verbose = describe_plugins(eps, dirs, 0, true);
    CHECK_THAT(verbose, Catch::Contains("vendorx\n  status:      not built: vendorx.h not found") &&
                            Catch::Contains("  listed in:   " + (dir / "not-built.json").string()));

    // The build's own plugin folder may list plugins it skipped too (cublas, cusparselt without CUDA).
    const nlohmann::json j = plugins_json(eps, dirs, 0);
    std::vector<nlohmann::json> vendorx;
    for (const auto& e : j["not_built"]) {
        CHECK(e["name"] != "cpu");  // loaded: its stale entry is left out
        if (e["name"] == "vendorx") vendorx.push_back(e);
    }
    REQUIRE(vendorx.size() == 1);
    CHECK(vendorx[0]["how"] == "scripts/build.sh fetches it with pip; or set VENDORX_ROOT");
    CHECK_FALSE(j.contains("not_built_problems"));
    fs::remove_all(dir);
}

TEST_CASE("with no plugin found, the skipped ones are still listed", "[inventory]") {
    const fs::path dir = temp_dir("alone");
    std::ofstream(dir / "not-built.json") << kList;
    const std::vector<fs::path> dirs = {dir};
    const std::string out = describe_plugins(open_in_process(dirs), dirs, 0, false);
    CHECK_THAT(out, Catch::StartsWith("no plugins found in:\n  " + dir.string() + "\n") && Catch::Contains("vendorx ") &&
                        Catch::Contains("cpu          -        -         -       not built: stale entry (-)"));
    fs::remove_all(dir);
}

TEST_CASE("an unreadable not-built.json is a note, not a crash", "[inventory]") {
    const fs::path dir = temp_dir("bad");
    std::ofstream(dir / "not-built.json") << "{\"not_built\": [";
    const std::vector<fs::path> dirs = {dir};
    const Endpoints none;
    const std::string out = describe_plugins(none, dirs, 0, false);
    CHECK_THAT(out, Catch::Contains("note: " + (dir / "not-built.json").string() + ": not valid JSON (") && Catch::Contains("): ignored\n"));
    CHECK(plugins_json(none, dirs, 0)["not_built_problems"].size() == 1);
    std::ofstream(dir / "not-built.json") << "{\"version\": 1, \"not_built\": [{\"reason\": \"r\"}]}";
    CHECK_THAT(describe_plugins(none, dirs, 0, false), Catch::Contains("an entry without a \"name\": {\"reason\":\"r\"}"));
    fs::remove_all(dir);
}

// The run-time search for vendor libraries: what is tried, in which order, and what a failed
// search says.
#include <spmma_baseline/vendor_library.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace spmma_baseline;
namespace fs = std::filesystem;

namespace {

// A fresh empty folder under the system's temporary folder.
fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("spmma-baselines-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

}  // namespace

TEST_CASE("a library found nowhere lists the loader, each existing folder, and counts the absent ones", "[baselines]") {
    const fs::path empty = temp_dir("empty");
    const auto r = open_library("libspmma-not-a-vendor-library.so.7", {empty.string(), "/nonexistent/spmma/a", "/nonexistent/spmma/b"});
    CHECK(r.handle == nullptr);
    REQUIRE(r.tried.size() == 2);
    CHECK_THAT(r.tried[0], Catch::StartsWith("the loader's path (") && Catch::Contains("libspmma-not-a-vendor-library.so.7"));
    CHECK(r.tried[1] == empty.string() + " (no libspmma-not-a-vendor-library.so.7)");
    CHECK(r.absent_folders == 2);
    CHECK_THAT(r.tried_text(), Catch::EndsWith(", and 2 candidate folders that do not exist"));
    fs::remove_all(empty);
}

TEST_CASE("a library the loader cannot find is opened from the first listed folder that has it", "[baselines]") {
    const fs::path a = temp_dir("first"), b = temp_dir("second");
    const std::string soname = "libspmma-test-copy.so.1";
    // Any real shared library will do: the cpu plugin.
    fs::copy_file(fs::path(SPMMA_PLUGIN_DIR) / "spmma-cpu.so", b / soname);
    std::ofstream(a / soname) << "not an ELF file\n";
    const auto r = open_library(soname, {"/nonexistent/spmma", a.string(), b.string()});
    REQUIRE(r.handle != nullptr);
    CHECK(r.path == (b / soname).string());
    REQUIRE(r.tried.size() == 2);  // the loader, then the broken copy with dlopen's reason
    CHECK_THAT(r.tried[1], Catch::StartsWith((a / soname).string() + " (") && !Catch::EndsWith("(no " + soname + ")"));
    CHECK(r.absent_folders == 1);
    fs::remove_all(a);
    fs::remove_all(b);
}

TEST_CASE("a library on the loader's path is opened by soname and its real file is reported", "[baselines]") {
    const auto r = open_library("libc.so.6", {});
    REQUIRE(r.handle != nullptr);
    CHECK(r.tried.empty());
    CHECK(fs::path(r.path).is_absolute());
    CHECK(fs::exists(r.path));
}

TEST_CASE("the Python package folders start with the active virtual environment's site-packages", "[baselines]") {
    const fs::path venv = temp_dir("venv");
    const fs::path site = venv / "lib" / "python3.99" / "site-packages";
    fs::create_directories(site);
    const char* old = std::getenv("VIRTUAL_ENV");
    const std::string saved = old ? old : "";
    setenv("VIRTUAL_ENV", venv.c_str(), 1);
    const auto dirs = python_package_dirs({"/nonexistent/spmma/site"});
    if (old)
        setenv("VIRTUAL_ENV", saved.c_str(), 1);
    else
        unsetenv("VIRTUAL_ENV");
    REQUIRE_FALSE(dirs.empty());
    CHECK(dirs.front() == fs::canonical(site).string());
    for (const auto& d : dirs) {
        CHECK(fs::is_directory(d));
        CHECK(d != "/nonexistent/spmma/site");
    }
    fs::remove_all(venv);
}

TEST_CASE("path lists split on ':' without empty entries, and folders join with every suffix", "[baselines]") {
    CHECK(split_path_list("a:b::c:") == std::vector<std::string>{"a", "b", "c"});
    CHECK(split_path_list("").empty());
    CHECK(join_all({"/x", "/y"}, {"p/lib", "q/lib"}) == std::vector<std::string>{"/x/p/lib", "/x/q/lib", "/y/p/lib", "/y/q/lib"});
}

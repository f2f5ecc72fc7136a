// The baselines' plan cache on disk: the key, where the file lives, a round trip, writers that
// merge (two processes at once included), and files that are not plan files.
#include <spmma_baseline/plan_cache.hpp>

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace spmma_baseline;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("spmma-plans-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

PlanKey key(int64_t m = 8192) {
    return {"NVIDIA H200", "sm_90", "cuSPARSELt 0.8.1", m, 8192, 8192, "ab=f16 cd=f16 compute=32F", "A row N, B row T, C/D row"};
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

std::function<std::string(const char*)> env(std::map<std::string, std::string> vars) {
    return [vars](const char* name) {
        const auto it = vars.find(name);
        return it == vars.end() ? std::string() : it->second;
    };
}

}  // namespace

TEST_CASE("a plan key names every field, and keys that differ in any field differ", "[baselines][cache]") {
    const PlanKey k = key();
    CHECK(k.text() == "NVIDIA H200 sm_90 | cuSPARSELt 0.8.1 | m=8192 n=8192 k=8192 | ab=f16 cd=f16 compute=32F | A row N, B row T, C/D row");
    std::vector<PlanKey> variants(8, k);
    variants[0].device = "NVIDIA H100 80GB HBM3";
    variants[1].arch = "sm_100";
    variants[2].library = "cuSPARSELt 0.10.0";
    variants[3].m = 4096;
    variants[4].n = 4096;
    variants[5].k = 4096;
    variants[6].types = "ab=bf16 cd=bf16 compute=32F";
    variants[7].layout = "A col N, B row T, C/D row";
    for (const auto& v : variants) CHECK(v.text() != k.text());
    const nlohmann::json j = k.to_json();
    CHECK(j["device"] == "NVIDIA H200");
    CHECK(j["m"] == 8192);
    CHECK(j["layout"] == "A row N, B row T, C/D row");
}

TEST_CASE("the cache file is in SPMMA_CACHE_DIR, else XDG_CACHE_HOME/spmma, else ~/.cache/spmma", "[baselines][cache]") {
    CHECK(cache_settings("x.json", env({{"SPMMA_CACHE_DIR", "/c"}, {"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}})).file == "/c/x.json");
    CHECK(cache_settings("x.json", env({{"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}})).file == "/x/spmma/x.json");
    CHECK(cache_settings("x.json", env({{"HOME", "/h"}})).file == "/h/.cache/spmma/x.json");
    CHECK(cache_settings("x.json", env({})).file.empty());
}

TEST_CASE("SPMMA_PLAN_CACHE is on by default, off or refresh, anything else is an error naming it", "[baselines][cache]") {
    CHECK(cache_settings("x.json", env({})).mode == CacheMode::On);
    CHECK(cache_settings("x.json", env({{"SPMMA_PLAN_CACHE", "on"}})).mode == CacheMode::On);
    CHECK(cache_settings("x.json", env({{"SPMMA_PLAN_CACHE", "off"}})).mode == CacheMode::Off);
    CHECK(cache_settings("x.json", env({{"SPMMA_PLAN_CACHE", "refresh"}})).mode == CacheMode::Refresh);
    CHECK_THROWS_WITH(cache_settings("x.json", env({{"SPMMA_PLAN_CACHE", "yes"}})), "SPMMA_PLAN_CACHE must be on, off or refresh (got 'yes')");
}

TEST_CASE("a stored plan is found again by another reader, with its key, search and time", "[baselines][cache]") {
    const fs::path dir = temp_dir("roundtrip");
    const fs::path file = dir / "sub" / "cusparselt-plans.json";  // the folder is created
    PlanFile writer(file);
    CHECK_FALSE(writer.find(key()));  // no file yet: nothing, and nothing to say
    CHECK(writer.note().empty());
    REQUIRE(writer.store(key(), {{"alg", 20}, {"split_k", 0}}, {{"best_ms", 0.99}, {"tried", 31}}));
    CHECK(writer.note().empty());

    PlanFile reader(file);
    const auto entry = reader.find(key());
    REQUIRE(entry);
    CHECK((*entry)["plan"] == nlohmann::json{{"alg", 20}, {"split_k", 0}});
    CHECK((*entry)["search"]["tried"] == 31);
    CHECK((*entry)["key"] == key().to_json());
    CHECK((*entry)["stored"].get<std::string>().size() == 20);  // 2026-11-24T12:00:00Z
    CHECK_FALSE(reader.find(key(4096)));
    // Nothing but the file and its lock is left in the folder.
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(file.parent_path())) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"cusparselt-plans.json", "cusparselt-plans.json.lock"});
    fs::remove_all(dir);
}

TEST_CASE("writers merge: each store keeps what other writers stored, and replaces its own key", "[baselines][cache]") {
    const fs::path file = temp_dir("merge") / "plans.json";
    PlanFile a(file), b(file);
    REQUIRE(a.store(key(1024), {{"alg", 1}}, {}));
    REQUIRE(b.store(key(2048), {{"alg", 2}}, {}));
    REQUIRE(a.store(key(1024), {{"alg", 3}}, {}));  // a's own entry replaced, b's kept
    PlanFile r(file);
    REQUIRE(r.find(key(1024)));
    CHECK((*r.find(key(1024)))["plan"]["alg"] == 3);
    REQUIRE(r.find(key(2048)));
    CHECK((*r.find(key(2048)))["plan"]["alg"] == 2);
    fs::remove_all(file.parent_path());
}

TEST_CASE("two processes storing at once lose nothing and leave a valid file", "[baselines][cache]") {
    const fs::path file = temp_dir("concurrent") / "plans.json";
    constexpr int kPerProcess = 40;
    std::vector<pid_t> children;
    for (int p = 0; p < 2; ++p) {
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            PlanFile f(file);
            bool ok = true;
            for (int i = 0; i < kPerProcess; ++i) ok = f.store(key(1000 * (p + 1) + i), {{"alg", i}, {"writer", p}}, {}) && ok;
            ::_exit(ok ? 0 : 1);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    const nlohmann::json j = nlohmann::json::parse(read_text(file));
    CHECK(j["plans"].size() == 2 * kPerProcess);
    PlanFile r(file);
    for (int p = 0; p < 2; ++p)
        for (int i = 0; i < kPerProcess; ++i) {
            const auto e = r.find(key(1000 * (p + 1) + i));
            REQUIRE(e);
            CHECK((*e)["plan"]["writer"] == p);
        }
    fs::remove_all(file.parent_path());
}

TEST_CASE("a corrupt file is ignored with a message, then moved aside when a plan is stored", "[baselines][cache]") {
    const fs::path file = temp_dir("corrupt") / "plans.json";
    write_text(file, "{\"version\": 1, \"plans\": {\"trunc");
    PlanFile f(file);
    CHECK_FALSE(f.find(key()));
    CHECK_THAT(f.note(), Catch::StartsWith(file.string() + ": not valid JSON (") && Catch::EndsWith("): ignored"));
    REQUIRE(f.store(key(), {{"alg", 4}}, {}));
    CHECK_THAT(f.note(), Catch::EndsWith("; moved aside to " + file.string() + ".corrupt"));
    CHECK(read_text(file.string() + ".corrupt") == "{\"version\": 1, \"plans\": {\"trunc");
    PlanFile r(file);
    REQUIRE(r.find(key()));
    CHECK(r.note().empty());
    fs::remove_all(file.parent_path());
}

TEST_CASE("a JSON file that is not a version-1 plan file, or a malformed entry, is ignored with a message", "[baselines][cache]") {
    const fs::path file = temp_dir("format") / "plans.json";
    write_text(file, "[1, 2, 3]");
    PlanFile f(file);
    CHECK_FALSE(f.find(key()));
    CHECK_THAT(f.note(), Catch::Contains("not a version-1 plan file"));

    write_text(file, nlohmann::json{{"version", 1}, {"plans", {{key().text(), {{"plan", 7}}}}}}.dump());
    PlanFile g(file);
    CHECK_FALSE(g.find(key()));
    CHECK(g.note() == file.string() + ": the entry for this problem has no \"plan\" object: ignored");
    fs::remove_all(file.parent_path());
}

TEST_CASE("a plan that cannot be written says why and is not lost silently", "[baselines][cache]") {
    const fs::path dir = temp_dir("unwritable");
    write_text(dir / "not-a-folder", "x");
    PlanFile f(dir / "not-a-folder" / "plans.json");
    CHECK_FALSE(f.store(key(), {{"alg", 1}}, {}));
    CHECK_THAT(f.note(), Catch::StartsWith((dir / "not-a-folder").string() + ": cannot be created (") &&
                             Catch::EndsWith("): the plan is not stored"));
    fs::remove_all(dir);
}

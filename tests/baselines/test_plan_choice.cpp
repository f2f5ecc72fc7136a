// How a baseline gets its plan: memory, then the cache file (after building the stored plan
// again), then a search; driven by a fake plugin that counts its searches.
#include <spmma_baseline/plan_choice.hpp>

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace spmma_baseline;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("spmma-choice-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

PlanKey key() { return {"NVIDIA H200", "sm_90", "cuBLASLt 13.1.0", 4096, 4096, 4096, "a=f16 b=f16 cd=f16", "TN"}; }

// A plugin whose search always finds `found`; apply() refuses the plans in `broken`.
struct FakePlugin {
    int searches = 0, applies = 0;
    nlohmann::json found = {{"algo", 66}};
    std::vector<nlohmann::json> broken;
    nlohmann::json applied;
    PlanSource source() {
        return {[this](const nlohmann::json& plan, std::string& why) {
                    ++applies;
                    if (std::find(broken.begin(), broken.end(), plan) != broken.end()) {
                        why = "CUBLAS_STATUS_NOT_SUPPORTED";
                        return false;
                    }
                    applied = plan;
                    return true;
                },
                [this] {
                    ++searches;
                    applied = found;
                    return std::make_pair(found, nlohmann::json{{"best_ms", 0.17}, {"tried", 8}});
                }};
    }
};

CacheSettings settings(const fs::path& file, CacheMode mode = CacheMode::On) { return {mode, file}; }

}  // namespace

TEST_CASE("the first choice searches and writes the file, another process takes the plan from the file", "[baselines][cache]") {
    const fs::path file = temp_dir("first") / "cublas-plans.json";
    FakePlugin first;
    PlanMemory memory_a;
    const PlanChoice a = choose_plan(key(), settings(file), first.source(), memory_a);
    CHECK(first.searches == 1);
    CHECK(a.how == "searched");
    CHECK(a.stored_in == file.string());
    CHECK(a.search["tried"] == 8);
    CHECK(a.search.contains("when"));
    CHECK(a.search_ms >= 0);
    const nlohmann::json n = a.notes();
    CHECK(n["plan"] == "searched");
    CHECK(n["cache_file"] == file.string());
    CHECK_FALSE(n.contains("cache_note"));

    FakePlugin second;  // a fresh process: empty memory
    PlanMemory memory_b;
    const PlanChoice b = choose_plan(key(), settings(file), second.source(), memory_b);
    CHECK(second.searches == 0);
    CHECK(second.applied == nlohmann::json{{"algo", 66}});
    CHECK(b.how == "cache");
    CHECK(b.source == file.string());
    CHECK(b.search["tried"] == 8);  // how the plan was found, carried with it
    CHECK(b.notes()["cache"] == file.string());
    CHECK(b.search_ms == 0);
    fs::remove_all(file.parent_path());
}

TEST_CASE("with SPMMA_PLAN_CACHE=off a process still searches each problem once, and writes nothing", "[baselines][cache]") {
    const fs::path file = temp_dir("off") / "cublas-plans.json";
    FakePlugin p;
    PlanMemory memory;
    CHECK(choose_plan(key(), settings(file, CacheMode::Off), p.source(), memory).how == "searched");
    const PlanChoice again = choose_plan(key(), settings(file, CacheMode::Off), p.source(), memory);
    CHECK(p.searches == 1);
    CHECK(again.how == "cache");
    CHECK(again.source == "this process");
    CHECK_FALSE(fs::exists(file));
    fs::remove_all(file.parent_path());
}

TEST_CASE("refresh searches again although the file has the plan, and overwrites it", "[baselines][cache]") {
    const fs::path file = temp_dir("refresh") / "cublas-plans.json";
    FakePlugin old;
    PlanMemory m1;
    choose_plan(key(), settings(file), old.source(), m1);
    FakePlugin now;
    now.found = {{"algo", 39}};
    PlanMemory m2;
    const PlanChoice c = choose_plan(key(), settings(file, CacheMode::Refresh), now.source(), m2);
    CHECK(now.searches == 1);
    CHECK(c.how == "searched");
    PlanFile f(file);
    REQUIRE(f.find(key()));
    CHECK((*f.find(key()))["plan"] == nlohmann::json{{"algo", 39}});
    fs::remove_all(file.parent_path());
}

TEST_CASE("a cached plan that no longer initialises is searched again, and the note says why", "[baselines][cache]") {
    const fs::path file = temp_dir("stale") / "cublas-plans.json";
    FakePlugin writer;
    PlanMemory m1;
    choose_plan(key(), settings(file), writer.source(), m1);
    FakePlugin reader;
    reader.broken = {{{"algo", 66}}};
    reader.found = {{"algo", 21}};
    PlanMemory m2;
    const PlanChoice c = choose_plan(key(), settings(file), reader.source(), m2);
    CHECK(reader.searches == 1);
    CHECK(c.how == "searched");
    CHECK(c.note == "the plan cached in " + file.string() + " did not initialise (CUBLAS_STATUS_NOT_SUPPORTED): searched again");
    CHECK(c.notes()["cache_note"] == c.note);
    CHECK((*PlanFile(file).find(key()))["plan"] == nlohmann::json{{"algo", 21}});
    fs::remove_all(file.parent_path());
}

TEST_CASE("a corrupt cache file does not stop a run: searched, said, and replaced", "[baselines][cache]") {
    const fs::path file = temp_dir("corrupt") / "cublas-plans.json";
    std::ofstream(file) << "not json at all";
    FakePlugin p;
    PlanMemory memory;
    const PlanChoice c = choose_plan(key(), settings(file), p.source(), memory);
    CHECK(p.searches == 1);
    CHECK(c.how == "searched");
    CHECK_THAT(c.note, Catch::StartsWith(file.string() + ": not valid JSON (") &&
                           Catch::EndsWith("): ignored; moved aside to " + file.string() + ".corrupt"));
    CHECK(c.stored_in == file.string());
    CHECK(fs::exists(file.string() + ".corrupt"));
    fs::remove_all(file.parent_path());
}

TEST_CASE("without a cache folder the plan is kept for the process only, and the note says so", "[baselines][cache]") {
    FakePlugin p;
    PlanMemory memory;
    const PlanChoice c = choose_plan(key(), settings(""), p.source(), memory);
    CHECK(c.how == "searched");
    CHECK_THAT(c.note, Catch::StartsWith("no cache folder"));
    CHECK(choose_plan(key(), settings(""), p.source(), memory).how == "cache");
    CHECK(p.searches == 1);
}

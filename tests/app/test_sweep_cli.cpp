// Regression sweeps as a nightly job uses them: kill -9 and --resume, shards merged equal one run,
// JUnit from a run, Slurm's array variables choosing the shard.
#include "../common/tools.hpp"
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <thread>

extern char** environ;

namespace {

const std::string kQuick = std::string(SPMMA_SOURCE_DIR) + "/configs/quick.toml";

std::vector<nlohmann::json> records_of(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::istringstream lines(read_file(path));
    std::string line;
    while (std::getline(lines, line))
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

size_t lines_in(const std::string& path) {
    const std::string text = read_file(path);
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// What a record says apart from its times and when it ran.
std::string essence(const nlohmann::json& r) {
    nlohmann::json e = {{"problem", r["problem"]}, {"plugin", r["plugin"]["name"]}, {"kernel", r["kernel"]}, {"status", r["status"]},
                        {"job", r["sweep"]["job"]},  {"command", r["command"]}};
    if (r.contains("verification"))
        e["verification"] = {{"checked", r["verification"]["checked"]}, {"mismatches", r["verification"]["mismatches"]},
                             {"max_abs_error", r["verification"]["max_abs_error"]}};
    return e.dump();
}

}  // namespace

TEST_CASE("kill -9 in the middle of a sweep, then --resume: every job has exactly one record and all verify", "[cli][sweep]") {
    const std::string json = temp_path("killed.jsonl");
    std::remove(json.c_str());
    // Slow launches (the cpu plugin's 50 timed iterations) so the kill lands mid-sweep.
    const std::string args = "run " + kQuick + " --plugin cpu --iterations 50 --no-progress -q --json " + json;
    std::vector<std::string> argv_s = {SPMMA_EXE};
    std::istringstream split(args);
    for (std::string w; split >> w;) argv_s.push_back(w);
    std::vector<char*> argv;
    for (auto& s : argv_s) argv.push_back(s.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, SPMMA_EXE, nullptr, nullptr, argv.data(), environ) == 0);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (lines_in(json) < 5 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    const size_t before = records_of(json).size();
    INFO("records before the kill: " << before);
    CHECK(before >= 5);
    CHECK(before < 22);  // the kill came before the end (the test proves nothing otherwise)

    const auto r = spmma_cli(args.substr(0, args.find(" -q")) + " -q --resume --json " + json);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("are kept (counted and reported as if made now); their runs are skipped"));
    const auto recs = records_of(json);
    std::set<int64_t> jobs;
    for (const auto& rec : recs) {
        CHECK(rec["status"] == "verified");
        CHECK(jobs.insert(rec["sweep"]["job"].get<int64_t>()).second);  // once each
    }
    CHECK(jobs.size() == 22);
}

TEST_CASE("a torn last line is dropped by --resume and its record is run again", "[cli][sweep]") {
    const std::string json = temp_path("torn.jsonl");
    REQUIRE(spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --json " + json).code == 0);
    std::string text = read_file(json);
    write_file("torn.jsonl", text.substr(0, text.size() - 40));  // the last record cut mid-line
    const auto r = spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --resume --json " + json);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("the last record was cut short") && Catch::Contains("21 records"));
    const auto recs = records_of(json);
    CHECK(recs.size() == 22);
    CHECK(recs.back()["sweep"]["job"] == 21);
}

TEST_CASE("three shards merged equal one run, record for record (times aside)", "[cli][sweep]") {
    const std::string whole = temp_path("whole.jsonl");
    REQUIRE(spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --json " + whole).code == 0);
    std::string files;
    for (int i = 0; i < 3; ++i) {
        const std::string part = temp_path("part" + std::to_string(i) + ".jsonl");
        REQUIRE(spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --shard " + std::to_string(i) + "/3 --json " + part).code == 0);
        files += " " + part;
    }
    const std::string merged = temp_path("merged.jsonl");
    const auto m = spmma_cli("merge" + files + " -o " + merged + " --workload " + kQuick);
    INFO(m.out);
    CHECK(m.code == 0);
    CHECK_THAT(m.out, Catch::Contains("complete"));
    const auto a = records_of(whole), b = records_of(merged);
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) CHECK(essence(a[i]) == essence(b[i]));
}

TEST_CASE("merge names missing and doubled jobs and exits 1", "[cli][sweep]") {
    const std::string p0 = temp_path("m0.jsonl"), p1 = temp_path("m1.jsonl");
    REQUIRE(spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --shard 0/2 --json " + p0).code == 0);
    REQUIRE(spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --shard 1/2 --json " + p1).code == 0);
    const auto missing = spmma_cli("merge " + p0 + " -o " + temp_path("mm.jsonl"));
    CHECK(missing.code == 1);
    CHECK_THAT(missing.out, Catch::Contains("missing: job 1 (") && Catch::Contains("no records") && Catch::Contains("INCOMPLETE"));
    const auto doubled = spmma_cli("merge " + p0 + " " + p1 + " " + p0 + " -o " + temp_path("md.jsonl"));
    CHECK(doubled.code == 1);
    CHECK_THAT(doubled.out, Catch::Contains("duplicated: job 0 ("));
}

TEST_CASE("a shard with no jobs (more shards than jobs) succeeds and leaves an empty record file", "[cli][sweep]") {
    const std::string json = temp_path("empty-shard.jsonl");
    std::remove(json.c_str());
    const auto r = spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --shard 30/32 --json " + json);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("shard 30/32 of a workload of 22 jobs has no jobs"));
    CHECK(std::filesystem::exists(json));
    CHECK(read_file(json).empty());
}

TEST_CASE("resuming a shard whose runs are all recorded runs nothing again and succeeds", "[cli][sweep]") {
    // A requeued Slurm task that had finished before it was stopped.
    const std::string json = temp_path("finished-shard.jsonl");
    std::remove(json.c_str());
    const std::string args = "run " + kQuick + " --plugin cpu --no-progress -q --shard 1/4 --json " + json;
    REQUIRE(spmma_cli(args).code == 0);
    const std::string before = read_file(json);
    REQUIRE(!before.empty());
    const auto r = spmma_cli(args + " --resume");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(read_file(json) == before);
}

TEST_CASE("Slurm's array variables choose the shard when --shard is not given", "[cli][sweep]") {
    const std::string json = temp_path("slurm.jsonl");
    const auto r = spmma_cli_env("SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_COUNT=4",
                                 "run " + kQuick + " --plugin cpu --no-progress -q --json " + json);
    CHECK(r.code == 0);
    const auto recs = records_of(json);
    REQUIRE(!recs.empty());
    for (const auto& rec : recs) {
        CHECK(rec["sweep"]["shard"] == "1/4");
        CHECK(rec["sweep"]["job"].get<int64_t>() % 4 == 1);
    }
}

TEST_CASE("run --junit writes one test case per record, valid against the JUnit schema", "[cli][sweep]") {
    const std::string xml = temp_path("run.xml");
    const auto r = spmma_cli("run " + kQuick + " --plugin cpu --no-progress -q --junit " + xml);
    CHECK(r.code == 0);
    const ShellResult v = validate_junit(xml);
    INFO(v.out);
    CHECK(v.code == 0);
    const std::string text = read_file(xml);
    size_t cases = 0;
    for (size_t at = text.find("<testcase"); at != std::string::npos; at = text.find("<testcase", at + 1)) ++cases;
    CHECK(cases == 22);
}

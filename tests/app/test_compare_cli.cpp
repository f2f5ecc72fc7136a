// spmma compare end to end: real record files from the cpu plugin and from the pace test plugin
// (tests/app/pace_plugin), slowdowns injected, the exit codes, the Markdown and JUnit outputs.
#include "../common/tools.hpp"
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace {

const std::string kCpu = "--plugin cpu --no-progress";

// Every record of `in` with its iteration times (and median) scaled by `f`; `edit` may change more.
std::string scaled_copy(const std::string& in, const std::string& name, double f, void (*edit)(nlohmann::json&, int) = nullptr) {
    std::istringstream lines(read_file(in));
    std::string line, out;
    int n = 0;
    while (std::getline(lines, line)) {
        auto j = nlohmann::json::parse(line);
        for (auto& t : j["timing"]["times_ms"]) t = t.get<double>() * f;
        j["timing"]["median_ms"] = j["timing"]["median_ms"].get<double>() * f;
        if (edit) edit(j, n);
        out += j.dump() + "\n";
        ++n;
    }
    return write_file(name, out);
}

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

// Records of the cpu plugin with one OpenMP thread (on a shared 2-core machine two threads
// spread the times of one run by 10x and more).
std::string cpu_records(const std::string& name, const std::string& args) {
    const std::string path = temp_path(name);
    ::setenv("OMP_NUM_THREADS", "1", 1);
    const auto r = spmma_cli("gemm " + args + " --verify none --json " + path + " " + kCpu);
    ::unsetenv("OMP_NUM_THREADS");
    INFO(r.out);
    REQUIRE(r.code == 0);
    return path;
}

// Records of the pace plugin: every launch takes `us` microseconds.
std::string pace_records(const std::string& name, int us) {
    const std::string path = temp_path(name);
    ::setenv("SPMMA_TEST_PACE_US", std::to_string(us).c_str(), 1);
    const auto r = spmma_cli("gemm --m 64 --n 64 --k 64 --dtype f16,s8 --iterations 40 --warmup 2 --verify none --no-progress --plugin pace "
                             "--plugin-dir " SPMMA_PACE_PLUGIN_DIR " --json " + path);
    ::unsetenv("SPMMA_TEST_PACE_US");
    INFO(r.out);
    REQUIRE(r.code == 0);
    return path;
}

}  // namespace

TEST_CASE("compare exits 1 on a 10 % slowdown injected into every iteration of a real record file", "[cli][compare]") {
    // 150 iterations of a small problem: the interval of a scaled copy is narrow enough to tell
    // 10 % from the 5 % threshold unless the times spread over more than about +-10 %.
    const std::string a = cpu_records("inject_a.jsonl", "--m 64 --n 64 --k 64 --dtype f16,s8 --iterations 150 --warmup 5");
    const std::string b = scaled_copy(a, "inject_b.jsonl", 1.10);
    const std::string md = temp_path("inject.md"), xml = temp_path("inject.xml");
    const auto r = spmma_cli("compare " + a + " " + b + " --markdown " + md + " --junit " + xml);
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("+10.0% slower"));
    CHECK(count(r.out, "SLOWER") >= 2);  // a row and its line in the list of regressions
    CHECK(count(r.out, " same ") == 0);
    CHECK_THAT(read_file(md), Catch::Contains("| **SLOWER** |"));
    CHECK_THAT(read_file(xml), Catch::Contains("type=\"slower\""));
    const ShellResult v = validate_junit(xml);
    INFO(v.out);
    CHECK(v.code == 0);
    // The other way round it is faster, which passes.
    const auto back = spmma_cli("compare " + b + " " + a);
    INFO(back.out);
    CHECK(back.code == 0);
    CHECK_THAT(back.out, Catch::Contains("faster"));
}

TEST_CASE("compare exits 1 on a test plugin run 10 % slower and 0 on a rerun of it", "[cli][compare]") {
    const std::string a = pace_records("pace_a.jsonl", 300), again = pace_records("pace_again.jsonl", 300);
    const std::string slow = pace_records("pace_slow.jsonl", 330);
    const auto rerun = spmma_cli("compare " + a + " " + again);
    INFO(rerun.out);
    CHECK(rerun.code == 0);
    CHECK(count(rerun.out, " same ") == 2);
    const auto r = spmma_cli("compare " + a + " " + slow);
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK(count(r.out, "+10.0% slower") == 4);  // two rows, each in the table and the list of regressions
}

TEST_CASE("the tests' folder keeps nothing an earlier process of the same id left in it", "[cli]") {
    const auto dir = std::filesystem::temp_directory_path() / ("spmma-test-stale-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "rerun_a0.jsonl") << "{}\n";
    REQUIRE(std::filesystem::exists(dir / "rerun_a0.jsonl"));
    CHECK(fresh_dir(dir) == dir);
    CHECK(std::filesystem::is_directory(dir));
    CHECK(std::filesystem::is_empty(dir));
    std::filesystem::remove_all(dir);
}

TEST_CASE("compare exits 0 on a rerun of the same cpu-plugin workload at a threshold above the machine's drift", "[cli][compare]") {
    // NOTES: on this shared 2-core machine the cpu plugin's median moves between two processes
    // of one build by far more than the iterations of either run spread (2026-11-24, 64x64x64
    // f16 and s8, 60 iterations, one thread): 2 of 8 rerun pairs differed by 8-11 % at load
    // average 11; 5 of 24 single runs ran f16 1.9x and s8 1.2-1.35x slower throughout, none
    // of 24 with address-space randomisation off (setarch -R), so the buffers' placement is one
    // cause; and 1 of 20 pairs without it still had s8 26 % slower. No interval from one run's
    // iterations can see such a shift, so it would come out "slower" at any threshold below it:
    // the threshold of a gate has to exceed its machine's run-to-run drift (GPU records drift far
    // less; the pace plugin's test above checks a rerun at the defaults). Here: 30 %, and up to
    // three rerun pairs, since about one pair in six still lands in a slow placement.
    const std::string args = "--m 64 --n 64 --k 64 --dtype f16,s8 --iterations 60 --warmup 5";
    std::string tries;
    int code = -1;
    for (int attempt = 0; attempt < 3 && code != 0; ++attempt) {
        // Each pair in files of its own: the app refuses to write over records (--resume / --force).
        const std::string n = std::to_string(attempt);
        const std::string a = cpu_records("rerun_a" + n + ".jsonl", args), b = cpu_records("rerun_b" + n + ".jsonl", args);
        const auto r = spmma_cli("compare " + a + " " + b + " --threshold 30");
        code = r.code;
        tries += r.out + "\n";
        CHECK_THAT(r.out, Catch::Contains("2 matched"));
        CHECK(count(r.out, "REGRESSION") + count(r.out, "FAILING") == 0);
    }
    INFO(tries);
    CHECK(code == 0);
}

TEST_CASE("a verified record that now fails is a regression even when it is faster", "[cli][compare]") {
    const std::string a = cpu_records("broke_a.jsonl", "--m 32 --n 16 --k 64 --dtype f16,s8 --iterations 10");
    const std::string b = scaled_copy(a, "broke_b.jsonl", 0.5, [](nlohmann::json& j, int n) {
        if (n == 0) j["status"] = "failed", j["reason"] = "3 of 512 elements outside the tolerance";
    });
    const std::string xml = temp_path("broke.xml");
    const auto r = spmma_cli("compare " + a + " " + b + " --junit " + xml);
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("REGRESSION: was unverified, now failed: 3 of 512 elements outside the tolerance"));
    CHECK_THAT(read_file(xml), Catch::Contains("type=\"regression\""));
    CHECK(validate_junit(xml).code == 0);
}

TEST_CASE("compare exits 3 when nothing matched and 2 on a malformed line, naming file and line", "[cli][compare]") {
    const std::string a = cpu_records("nomatch_a.jsonl", "--m 32 --n 16 --k 64 --dtype f16 --iterations 5");
    const std::string b = cpu_records("nomatch_b.jsonl", "--m 32 --n 16 --k 64 --dtype f16 --iterations 5 --seed 7");
    const auto none = spmma_cli("compare " + a + " " + b);
    INFO(none.out);
    CHECK(none.code == 3);
    CHECK_THAT(none.out, Catch::Contains("only in the old file (1)"));
    CHECK_THAT(none.out, Catch::Contains("only in the new file (1)"));
    const std::string junk = write_file("junk.jsonl", read_file(a) + "{\"problem\": 1\n");
    const auto bad = spmma_cli("compare " + a + " " + junk);
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Catch::Contains(junk + ":2: not JSON"));
    const auto missing = spmma_cli("compare " + a + " /nonexistent/new.jsonl");
    CHECK(missing.code == 2);
    CHECK_THAT(missing.out, Catch::Contains("/nonexistent/new.jsonl: cannot open"));
    CHECK(spmma_cli("compare " + a + " " + a + " --confidence 1.5").code == 2);
    CHECK(spmma_cli("compare " + a + " " + a + " --max-slowdown 10").code == 0);
}

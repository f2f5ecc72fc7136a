// SIGINT and SIGTERM in the middle of a sweep: the workers end first, every output is finished
// (JUnit valid, with what ran and a test case saying what did not), one line says how to resume,
// the exit code is 128 + the signal, and --resume then finishes the sweep. And compare fails a
// new record that has no timings rather than calling it noisy.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

namespace {

size_t lines_in(const std::string& path) {
    const std::string text = read_file(path);
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Worker processes still alive whose environment carries `tag`.
int workers_with(const std::string& tag) {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string env = read_file((e.path() / "environ").string());
        const std::string cmd = read_file((e.path() / "cmdline").string());
        if (env.find(tag) != std::string::npos && cmd.find("worker") != std::string::npos) ++n;
    }
    return n;
}

// Starts spmma with `args` (output to `log`), waits for `records` lines in `json`, sends `sig`.
int interrupt_after(const std::string& env, const std::string& args, const std::string& log, const std::string& json, size_t records, int sig) {
    const pid_t pid = fork();
    if (pid == 0) {
        const std::string cmd = "exec env " + env + " " + std::string(SPMMA_EXE) + " " + args + " > " + log + " 2>&1";
        execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
        _exit(127);
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (lines_in(json) < records && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, sig);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

TEST_CASE("SIGINT mid-sweep: workers ended, JUnit valid with a 'not run' case, exit 130, and --resume finishes it", "[cli][interrupt]") {
    const std::string json = temp_path("int.jsonl"), junit = temp_path("int.xml"), log = temp_path("int.log");
    const std::string tag = "SPMMA_TEST_TAG=interrupt" + std::to_string(getpid());
    // Slow launches (50 ms each) so the signal lands while a worker computes.
    const std::string args = "gemm --m 16,32 --n 16 --k 16 --dtype f16,bf16,s8,e4m3 --iterations 4 --warmup 0 --verify none "
                             "--plugin pace --plugin-dir " + std::string(SPMMA_PACE_PLUGIN_DIR) + " --no-progress -q";
    const int code = interrupt_after(tag + " SPMMA_TEST_PACE_US=50000", args + " --json " + json + " --junit " + junit, log, json, 2, SIGINT);
    const std::string out = read_file(log);
    INFO(out);
    CHECK(code == 130);
    CHECK(workers_with(tag) == 0);
    CHECK_THAT(out, Catch::Contains("spmma: interrupted by SIGINT: ") && Catch::Contains("plugin runs were not made; resume with: spmma gemm") &&
                        Catch::Contains("--resume"));
    const size_t made = lines_in(json);
    CHECK(made >= 2);
    CHECK(made < 8);
    const std::string xml = read_file(junit);
    CHECK_THAT(xml, Catch::Contains("<testsuites") && Catch::EndsWith("</testsuites>\n") && Catch::Contains("name=\"not run\"") &&
                        Catch::Contains(fmt::format("tests=\"{}\"", made + 1)));

    const auto r = spmma_cli_env("SPMMA_TEST_PACE_US=1000", args + " --resume --json " + json);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(lines_in(json) == 8);
}

TEST_CASE("SIGTERM mid-sweep exits 143 and says so", "[cli][interrupt]") {
    const std::string json = temp_path("term.jsonl"), log = temp_path("term.log");
    const std::string args = "gemm --m 16 --n 16 --k 16 --dtype f16,bf16,s8,e4m3 --iterations 4 --warmup 0 --verify none --plugin pace "
                             "--plugin-dir " + std::string(SPMMA_PACE_PLUGIN_DIR) + " --no-progress -q --json " + json;
    const int code = interrupt_after("SPMMA_TEST_PACE_US=50000", args, log, json, 1, SIGTERM);
    INFO(read_file(log));
    CHECK(code == 143);
    CHECK_THAT(read_file(log), Catch::Contains("spmma: interrupted by SIGTERM"));
}

TEST_CASE("compare: a new record without timings is a failure of the new run, not 'too noisy'", "[cli][compare]") {
    const std::string old_json = temp_path("timed.jsonl");
    REQUIRE(spmma_cli("gemm --m 16 --n 16 --k 16 --plugin cpu --no-progress -q --json " + old_json).code == 0);
    auto rec = nlohmann::json::parse(read_file(old_json));
    rec.erase("timing");
    const std::string new_json = write_file("untimed.jsonl", rec.dump() + "\n");
    const auto r = spmma_cli("compare " + old_json + " " + new_json);
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("FAILING") && Catch::Contains("no iteration times in the new record"));
}

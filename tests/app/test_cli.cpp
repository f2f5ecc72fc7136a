#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

namespace {
const std::string kCpu = "--plugin cpu --no-progress";
}

TEST_CASE("spmma plugins lists the cpu plugin as ready", "[cli]") {
    const auto r = spmma_cli("plugins");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("cpu") && Catch::Contains("ready on host CPU"));
}

TEST_CASE("spmma plugins --verbose shows file, ABI, target and kernels", "[cli]") {
    const auto r = spmma_cli("plugins --verbose");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("spmma-cpu.so") && Catch::Contains("ABI:         1.2") && Catch::Contains("cpu_omp_f32acc"));
}

TEST_CASE("spmma plugins names bad plugins and why, next to the good ones", "[cli]") {
    const auto r = spmma_cli(std::string("plugins --plugin-dir ") + SPMMA_BAD_PLUGIN_DIR);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("speaks ABI 2.0") && Catch::Contains("no 'spmma_plugin_entry' symbol") &&
                          Catch::Contains("ready on host CPU"));
}

TEST_CASE("spmma gemm on the cpu plugin verifies and exits 0", "[cli]") {
    const auto r = spmma_cli("gemm --m 37 --n 29 --k 64 --dtype f16,s8 --verify full " + kCpu);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("2 verified, 0 failed"));
}

TEST_CASE("spmma run configs/quick.toml verifies every problem on the cpu plugin", "[cli]") {
    const std::string json = temp_path("quick.jsonl");
    const auto r = spmma_cli(std::string("run ") + SPMMA_SOURCE_DIR + "/configs/quick.toml --json " + json + " " + kCpu);
    INFO(r.out);
    CHECK(r.code == 0);
    std::istringstream lines(read_file(json));
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
        const auto rec = nlohmann::json::parse(line);
        CHECK(rec["status"] == "verified");
        CHECK(rec["plugin"]["name"] == "cpu");
        CHECK(rec["timing"]["times_ms"].size() == 3);
        CHECK(rec["verification"]["mode"] == "full");
        CHECK(rec.contains("command"));
        CHECK(rec.contains("spmma_version"));
        CHECK(rec["problem"]["seed"] == 42);
        ++n;
    }
    CHECK(n >= 10);
}

TEST_CASE("every record's command reruns the same problem to the same result", "[cli]") {
    const std::string json = temp_path("one.jsonl");
    REQUIRE(spmma_cli("gemm --m 40 --n 24 --k 96 --dtype bf16 --beta 1 --alpha 2 --dist normal --seed 7 --json " + json + " " + kCpu).code == 0);
    const auto rec = nlohmann::json::parse(read_file(json));
    std::string cmd = rec["command"];
    REQUIRE(cmd.rfind("spmma gemm ", 0) == 0);
    const std::string json2 = temp_path("two.jsonl");
    const auto r = spmma_cli(cmd.substr(6) + " --no-progress --json " + json2);
    CHECK(r.code == 0);
    const auto rec2 = nlohmann::json::parse(read_file(json2));
    CHECK(rec2["problem"] == rec["problem"]);
    CHECK(rec2["kernel"] == rec["kernel"]);
    CHECK(rec2["verification"]["max_abs_error"] == rec["verification"]["max_abs_error"]);
}

TEST_CASE("a malformed workload exits 2 naming file, line and key", "[cli]") {
    const std::string f = write_file("bad.toml", "version = 1\n[[problem]]\nm = 8\nn = 8\nk = 8\nbeta = \"x\"\n");
    const auto r = spmma_cli("run " + f + " " + kCpu);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains(f + ":6: beta: must be a number"));
}

TEST_CASE("bad usage exits 2", "[cli]") {
    CHECK(spmma_cli("gemm --m 8 --n 8").code == 2);                 // --k missing
    CHECK(spmma_cli("gemm --m 8 --n 8 --k 30 --dtype f16").code == 2); // k not a multiple of 4
    CHECK(spmma_cli("gemm --m 8 --n 8 --k 32 --dtype f17").code == 2);
    CHECK(spmma_cli("frobnicate").code == 2);
    const auto r = spmma_cli("gemm --m 8 --n 8 --k 30 --dtype f16");
    CHECK_THAT(r.out, Catch::Contains("--k: k must be a multiple of 4"));
}

TEST_CASE("nothing runnable exits 3 with the reason", "[cli]") {
    const auto r = spmma_cli("gemm --m 8 --n 8 --k 32 --plugin nosuchplugin --no-progress");
    CHECK(r.code == 3);
    CHECK_THAT(r.out, Catch::Contains("no plugin named 'nosuchplugin'"));
}

TEST_CASE("kernel globs select kernels and say when none matches", "[cli]") {
    CHECK(spmma_cli("gemm --m 8 --n 8 --k 32 --kernel 'cpu_*_f32acc' " + kCpu).code == 0);
    const auto r = spmma_cli("gemm --m 8 --n 8 --k 32 --kernel 'nomatch*' " + kCpu);
    CHECK(r.code == 3);
    CHECK_THAT(r.out, Catch::Contains("no kernel of cpu matches nomatch*"));
}

TEST_CASE("the csv output has a header and one row per record", "[cli]") {
    const std::string csv = temp_path("out.csv");
    REQUIRE(spmma_cli("gemm --m 16,24 --n 8 --k 32 --csv " + csv + " " + kCpu).code == 0);
    std::istringstream in(read_file(csv));
    std::string header, row;
    std::getline(in, header);
    CHECK(header.rfind("status,m,n,k,", 0) == 0);
    int rows = 0;
    while (std::getline(in, row)) rows += row.rfind("verified,", 0) == 0;
    CHECK(rows == 2);
}

TEST_CASE("a baseline plugin adds a speedup to every other record", "[cli]") {
    const std::string json = temp_path("base.jsonl");
    // The same plugin twice is enough to exercise the column: cpu against cpu is 1x give or take.
    const auto r = spmma_cli("gemm --m 64 --n 64 --k 64 --baseline cpu --json " + json + " " + kCpu);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("speedup"));
}

TEST_CASE("the version flag names the ABI", "[cli]") {
    const auto r = spmma_cli("--version");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("plugin ABI 1.2"));
}

TEST_CASE("spmma compare passes a rerun and fails a verification regression", "[cli][compare]") {
    const std::string a = temp_path("cmp_a.jsonl"), b = temp_path("cmp_b.jsonl");
    REQUIRE(spmma_cli("gemm --m 32 --n 16 --k 64 --dtype f16,s8 --json " + a + " " + kCpu).code == 0);
    CHECK(spmma_cli("compare " + a + " " + a).code == 0);
    // The same records with one turned into a failure.
    std::string text = read_file(a);
    const std::string verified = "\"status\":\"verified\"";
    const auto pos = text.find(verified);
    REQUIRE(pos != std::string::npos);
    text.replace(pos, verified.size(), "\"status\":\"failed\"");
    std::ofstream(b) << text;
    const auto r = spmma_cli("compare " + a + " " + b);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("REGRESSION: was verified, now failed"));
    CHECK(spmma_cli("compare " + a + " " + write_file("junk.jsonl", "not json\n")).code == 2);
}

TEST_CASE("emulate runs a GPU family's packing through its instruction model and verifies", "[cli][emu]") {
    const auto r = spmma_cli("gemm --m 40 --n 24 --k 128 --dtype e4m3 --emulate sm120a --verify full --no-progress");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("emu_sm120a"));
    CHECK(spmma_cli("gemm --m 8 --n 8 --k 32 --emulate sm80 --plugin cpu").code == 2);
}

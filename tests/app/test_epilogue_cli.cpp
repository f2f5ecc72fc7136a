// The epilogue of ABI 1.2 from the command line and workload files: --row-scale, --col-scale,
// --bias, --activation and --op scaled-mm run and verify on the cpu plugin, records and the rerun
// command carry them, bad values name the flag or the file, line and key; an ABI 1.1 plugin is
// skipped for a scaled problem with its reason.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace {
const std::string kCpu = "--plugin cpu --no-progress";
}

TEST_CASE("gemm with op scaled-mm is e4m3 x e4m3 -> bf16 with row and column scales and a bf16 row bias, and its record reruns the same problem",
          "[cli][epilogue]") {
    const std::string json = temp_path("scaled-mm.jsonl");
    const auto r = spmma_cli("gemm --op scaled-mm --m 61 --n 16 --k 128 --verify full --json " + json + " " + kCpu);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto rec = nlohmann::json::parse(read_file(json));
    CHECK(rec["status"] == "verified");
    const auto& p = rec["problem"];
    CHECK(p["a_type"] == "e4m3");
    CHECK(p["b_type"] == "e4m3");
    CHECK(p["d_type"] == "bf16");
    CHECK(p["row_scale"] == "random");
    CHECK(p["col_scale"] == "random");
    CHECK(p["bias"] == "row,bf16");
    CHECK_FALSE(p.contains("activation"));
    CHECK(p["label"] == "61x16x128 e4m3*e4m3+f32->bf16 2:4 rs cs bias:row/bf16");
    const std::string cmd = rec["command"];
    CHECK_THAT(cmd, Catch::Contains("--row-scale random --col-scale random --bias row,bf16"));
    const std::string json2 = temp_path("scaled-mm-again.jsonl");
    const auto again = spmma_cli(cmd.substr(6) + " --no-progress --json " + json2);
    INFO(again.out);
    CHECK(again.code == 0);
    const auto rec2 = nlohmann::json::parse(read_file(json2));
    CHECK(rec2["problem"] == rec["problem"]);
    CHECK(rec2["verification"]["max_abs_error"] == rec["verification"]["max_abs_error"]);
}

TEST_CASE("each epilogue flag verifies on the cpu plugin, given values and an activation included, and reaches the record",
          "[cli][epilogue]") {
    const std::string json = temp_path("epilogue-flags.jsonl");
    const auto r = spmma_cli("gemm --m 37 --n 29 --k 64 --dtype f16 --beta 0.5 --row-scale 0.5 --col-scale random --bias col,f32,0.25 "
                             "--activation gelu-tanh --verify full --json " + json + " " + kCpu);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto rec = nlohmann::json::parse(read_file(json));
    CHECK(rec["status"] == "verified");
    CHECK(rec["problem"]["row_scale"] == "0.5");
    CHECK(rec["problem"]["bias"] == "col,f32,0.25");
    CHECK(rec["problem"]["activation"] == "gelu-tanh");
    CHECK_THAT(rec["command"].get<std::string>(), Catch::Contains("--row-scale 0.5 --col-scale random --bias col,f32,0.25 --activation gelu-tanh"));
}

TEST_CASE("bad epilogue options exit 2 naming the flag", "[cli][epilogue]") {
    const std::pair<const char*, const char*> cases[] = {
        {"--activation gelu", "--activation: unknown activation 'gelu' (none, relu, gelu-tanh, silu)"},
        {"--bias diag", "--bias: 'diag': unknown axis 'diag'"},
        {"--bias col,f16,x", "--bias: 'col,f16,x': 'x' is neither a type nor a number"},
        {"--row-scale abc", "--row-scale: 'abc' is not 'random', 'none' or a finite number"},
        {"--col-scale nan", "--col-scale: 'nan' is not 'random', 'none' or a finite number"},
        {"--dtype e4m3 --bias col,f16", "--bias: the bias is f32 or D's type (bf16), not f16"},
        {"--dtype s8 --activation relu", "--activation: the epilogue (scales, bias, activation) is for floating problems"},
        {"--op nope", "--op: unknown op 'nope' (known: scaled-mm)"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = spmma_cli(std::string("gemm --m 8 --n 8 --k 32 ") + args + " " + kCpu);
        INFO(args << ": " << r.out);
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Catch::Contains(message));
    }
}

TEST_CASE("workload keys row_scale, col_scale, bias and activation sweep and verify, and bad ones name file, line and key", "[cli][epilogue]") {
    const std::string good = write_file("epilogue.toml",
                                        "version = 1\n[[sweep]]\nm = 37\nn = 29\nk = 64\ndtype = \"bf16\"\nrow_scale = \"random\"\n"
                                        "col_scale = 2\nbias = \"row,f32\"\nactivation = [\"relu\", \"silu\"]\nverify = \"full\"\n");
    const std::string json = temp_path("epilogue-toml.jsonl");
    const auto r = spmma_cli("run " + good + " --json " + json + " " + kCpu);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("2 verified, 0 failed"));
    const auto rec = nlohmann::json::parse(read_file(json).substr(0, read_file(json).find('\n')));
    CHECK(rec["problem"]["col_scale"] == "2");
    CHECK(rec["problem"]["bias"] == "row,f32");

    const std::pair<const char*, const char*> bad[] = {
        {"activation = \"gelu\"\n", ":6: activation: unknown activation 'gelu'"},
        {"bias = \"row,f16\"\n", ":6: bias: the bias is f32 or D's type (bf16), not f16"},
        {"row_scale = true\n", ":6: row_scale: must be \"random\" or a number, not boolean"},
        {"col_scale = \"lots\"\n", ":6: col_scale: 'lots' is not 'random', 'none' or a finite number"},
    };
    for (const auto& [line, message] : bad) {
        const std::string f = write_file("bad-epilogue.toml", std::string("version = 1\n[[problem]]\nm = 8\nn = 8\nk = 64\n") + line +
                                                                  "dtype = \"bf16\"\n");
        const auto b = spmma_cli("run " + f + " " + kCpu);
        INFO(line << b.out);
        CHECK(b.code == 2);
        CHECK_THAT(b.out, Catch::Contains(f + message));
    }
}

TEST_CASE("an ABI 1.1 plugin runs the plain problem and is skipped for the scaled one, the reason naming its version", "[cli][epilogue]") {
    const std::string dir = SPMMA_ABI11_PLUGIN_DIR;
    const std::string json = temp_path("abi11.jsonl");
    const auto r = spmma_cli("gemm --m 61 --n 37 --k 96 --dtype f16 --plugin-dir " + dir + " --plugin acme --no-progress --verify full --json " +
                             json);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(nlohmann::json::parse(read_file(json))["status"] == "verified");
    const std::string json2 = temp_path("abi11-scaled.jsonl");
    const auto s = spmma_cli("gemm --m 61 --n 37 --k 96 --dtype f16 --row-scale random --plugin-dir " + dir +
                             " --plugin acme --no-progress --json " + json2);
    INFO(s.out);
    const auto rec = nlohmann::json::parse(read_file(json2));
    CHECK(rec["status"] == "skipped");
    CHECK(rec["reason"] == "speaks ABI 1.1; the epilogue (rs) needs ABI 1.2");
}

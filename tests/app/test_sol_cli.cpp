// The speed of light end to end: the pace test plugin (tests/app/pace_plugin) stating an H100
// SXM's peaks (132 SMs at 1980 MHz, memory 2619 MHz on a 5120-bit bus) gives every record its
// device peaks and a sol object with the hand-computed bytes and bound, and the table and the
// CSV their % SOL; the cpu plugin, stating none, gets bytes and rates but no fraction.
#include "cli.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace {

const std::string kPeaks = "SPMMA_TEST_PACE_PEAKS=132,1980000,2619000,5120";

// The line of `text` that holds `what`, or "".
std::string line_with(const std::string& text, const std::string& what) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (line.find(what) != std::string::npos) return line;
    return "";
}

}  // namespace

TEST_CASE("a plugin stating its device's peaks: the record's sol has the hand-computed bytes and bound, the table and CSV its % SOL",
          "[cli][sol]") {
    const std::string json = temp_path("sol.jsonl"), csv = temp_path("sol.csv");
    // f16 2:4, 1024x16x2048: compressed A 1024 x 1024 x 2 B, metadata 1024 x 2048 / 8 B, B 2048 x 16 x 2 B, D 1024 x 16 x 2 B.
    const auto r = spmma_cli_env(kPeaks, "gemm --m 1024 --n 16 --k 2048 --dtype f16 --iterations 5 --warmup 1 --verify none --no-progress --wide "
                                         "--plugin pace --plugin-dir " SPMMA_PACE_PLUGIN_DIR " --force --json " + json + " --csv " + csv);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto rec = nlohmann::json::parse(line_with(read_file(json), "{"));
    CHECK(rec["device"]["arch"] == "sm_90");
    CHECK(rec["device"]["peaks"] == nlohmann::json{{"sm_count", 132}, {"sm_clock_khz", 1980000}, {"mem_clock_khz", 2619000}, {"mem_bus_bits", 5120}});
    const auto& sol = rec["sol"];
    CHECK(sol["bytes"] == 2457600);
    CHECK(sol["bytes_by_operand"]["a_metadata"] == 262144);
    CHECK(sol["flops"] == 67108864.0);
    CHECK(sol["peak_dram_bytes_per_s"] == 3352320000000.0);
    CHECK(sol["tensor_rate"]["flops_per_sm_per_clock"] == 8192.0);
    CHECK(sol["bound_by"] == "dram");
    CHECK(sol["bound_ms"].get<double>() == Approx(0.000733104238));
    const double median = rec["timing"]["median_ms"];
    CHECK(sol["fraction"].get<double>() == Approx(0.000733104238 / median));
    CHECK(sol["achieved_bytes_per_s"].get<double>() == Approx(2457600 / (median * 1e-3)));

    // The table (--wide: one line a record, nothing cut): a % SOL column, this record's fraction in it.
    CHECK_THAT(line_with(r.out, "median ms"), Catch::Contains("TFLOP/s % SOL"));
    const std::string row = line_with(r.out, "pace_spin");
    CHECK_THAT(row, Catch::Contains(fmt::format(" {:>5.1f} not verified", 100 * sol["fraction"].get<double>())));

    // The CSV: sol_pct next to the bytes.
    const std::string table = read_file(csv);
    CHECK_THAT(line_with(table, "status,"), Catch::Contains(",tflops,bytes,bytes_per_s,sol_bound_ms,sol_pct,"));
    CHECK_THAT(line_with(table, "pace_spin"), Catch::Contains(fmt::format(",2457600,{},{},{},", sol["achieved_bytes_per_s"].get<double>(),
                                                                           sol["bound_ms"].get<double>(),
                                                                           100 * sol["fraction"].get<double>())));
}

TEST_CASE("the cpu plugin states no peaks: its records carry bytes, FLOPs and rates, no bound, and the table shows -", "[cli][sol]") {
    const std::string json = temp_path("sol_cpu.jsonl");
    const auto r = spmma_cli("gemm --m 64 --n 32 --k 128 --dtype f16 --iterations 2 --warmup 1 --no-progress --wide --plugin cpu --force --json " + json);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto rec = nlohmann::json::parse(line_with(read_file(json), "{"));
    CHECK_FALSE(rec["device"].contains("peaks"));
    CHECK(rec["sol"]["bytes"] == 64 * 64 * 2 + 64 * 128 / 8 + 128 * 32 * 2 + 64 * 32 * 2);
    CHECK(rec["sol"]["flops"] == 2.0 * 64 * 32 * 128);
    CHECK(rec["sol"]["achieved_flops_per_s"].get<double>() > 0);
    CHECK_FALSE(rec["sol"].contains("fraction"));
    CHECK_FALSE(rec["sol"].contains("bound_ms"));
    const std::string row = line_with(r.out, "cpu_");
    REQUIRE_FALSE(row.empty());
    CHECK_THAT(row, Catch::Contains("     - ok "));
}

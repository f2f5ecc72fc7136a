// bench/decode/twins_table.py, run with python3 on records the test writes: each split layer's
// time beside its whole-tile twin (s*M x K/s) and their difference, what the ranges' exchange
// costs; a layer without its twin and records that did not verify left out.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <fstream>
#include <string>

namespace {

using namespace bench_test;

// One sm90a record as spmma writes it, cut to what the table reads.
std::string record(int splits, int m, int n, int k, double us, const std::string& status = "verified") {
    return R"({"plugin":{"name":"sm90a"},"kernel":"sm90a_e4m3e4m3_f32_128x16x128_c1x1_s12","command":"SPMMA_SM90A_SK_SPLITS=)" +
           std::to_string(splits) + R"( SPMMA_SM90A_STREAMK=on spmma gemm","status":")" + status +
           R"(","problem":{"a_type":"e4m3","m":)" + std::to_string(m) + R"(,"n":)" + std::to_string(n) + R"(,"k":)" +
           std::to_string(k) + R"(},"timing":{"median_ms":)" + std::to_string(us / 1000.0) + "}}\n";
}

}  // namespace

TEST_CASE("twins_table.py: a split layer beside its whole-tile twin, the difference the exchange, unmatched and failed left out") {
    const auto dir = scratch("twins_table");
    {
        std::ofstream f(dir / "records.jsonl");
        f << record(2, 6144, 1, 4096, 11.10) << record(1, 12288, 1, 2048, 9.73)    // s = 2, its twin
          << record(4, 4096, 16, 4096, 9.75) << record(1, 16384, 16, 1024, 8.25)   // s = 4, its twin
          << record(2, 7168, 1, 8192, 15.5)                                         // no twin
          << record(2, 8192, 1, 3584, 11.4) << record(1, 16384, 1, 1792, 9.0, "failed");  // twin failed
    }
    const Run r = run_script("bench/decode/twins_table.py", quoted(dir), dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, " type    layer (m x n x k)  s  split us  twin us split - twin  kernel"));
    CHECK(has_line(r.out, " e4m3          6144x1x4096  2     11.10     9.73         1.37  sm90a_e4m3e4m3_f32_128x16x128_c1x1_s12"));
    CHECK(has_line(r.out, " e4m3         4096x16x4096  4      9.75     8.25         1.50  sm90a_e4m3e4m3_f32_128x16x128_c1x1_s12"));
    CHECK(r.out.find("7168x1x8192") == std::string::npos);
    CHECK(r.out.find("8192x1x3584") == std::string::npos);
}

// bench/dram/table.py, run with python3 on a probe output and records the test writes: the
// ceiling t0 + bytes / rate from the median of the probe's fit lines, and per verified record its
// time over that ceiling and the ceiling's share of the record's roofline (hand-computed below).
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <fstream>
#include <string>

namespace {

using namespace bench_test;

// A record cut to what the table reads: bytes and bound from the record's sol.
std::string record(const std::string& plugin, int m, int n, int k, double bytes, double bound_us, double us,
                   const std::string& status = "verified") {
    return R"({"plugin":{"name":")" + plugin + R"("},"status":")" + status + R"(","problem":{"a_type":"f16","m":)" +
           std::to_string(m) + R"(,"n":)" + std::to_string(n) + R"(,"k":)" + std::to_string(k) +
           R"(},"timing":{"median_ms":)" + std::to_string(us / 1000.0) + R"(},"sol":{"bytes":)" + std::to_string(bytes) +
           R"(,"bound_ms":)" + std::to_string(bound_us / 1000.0) + R"(,"fraction":)" + std::to_string(bound_us / us) + "}}\n";
}

}  // namespace

TEST_CASE("dram table.py: the ceiling from the median fit, each verified record's time over it and its share of the roofline") {
    const auto dir = scratch("dram_table");
    {
        std::ofstream f(dir / "dram.txt");
        f << "== spmma-bench-dram, repetition 1\n"
          << "fit over 64-512 MiB (loads): time = 3.00 us + bytes / 4.000 TB/s (83.2 % of the peak 4.810 TB/s)\n"
          << "== spmma-bench-dram, repetition 2\n"
          << "fit over 64-512 MiB (loads): time = 5.00 us + bytes / 4.400 TB/s (91.5 % of the peak 4.810 TB/s)\n"
          << "== spmma-bench-dram, repetition 3\n"
          << "fit over 64-512 MiB (loads): time = 4.00 us + bytes / 4.200 TB/s (87.3 % of the peak 4.810 TB/s)\n";
        std::ofstream c(dir / "cells_28672x4096.jsonl");
        // 126 MB at 4.2 TB/s: 30 us + t0 4 us = a 34 us ceiling; the bound 26.2 us.
        c << record("sm90a", 28672, 1, 4096, 126e6, 26.2, 39.1) << record("cusparselt", 28672, 1, 4096, 126e6, 26.2, 37.4)
          << record("cublas", 28672, 1, 4096, 235e6, 48.9, 60.0, "failed");
    }
    const Run r = run_script("bench/dram/table.py", quoted(dir), dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "ceiling: t0 4.00 us + bytes / 4.200 TB/s (median of 3 fits)"));
    CHECK(has_line(r.out, "records: 3, verified 2"));
    // 39.1 / 34 = 1.15; 37.4 / 34 = 1.10; 26.2 / 34 = 77.1 %.
    CHECK(has_line(r.out, "| 28672x4096 | f16 | 1 | sm90a | 39.1 | 67.0 | 34.0 | 77.1 | 1.15 |"));
    CHECK(has_line(r.out, "| 28672x4096 | f16 | 1 | cusparselt | 37.4 | 70.1 | 34.0 | 77.1 | 1.10 |"));
    CHECK(r.out.find("cublas") == std::string::npos);
}

TEST_CASE("dram table.py: a probe output without a fit line is an error that names the file") {
    const auto dir = scratch("dram_table_nofit");
    { std::ofstream(dir / "dram.txt") << "no GPU: no CUDA driver\n"; }
    const Run r = run_script("bench/dram/table.py", quoted(dir), dir);
    CHECK(r.status != 0);
    CHECK(r.err.find("dram.txt: no fit line") != std::string::npos);
}

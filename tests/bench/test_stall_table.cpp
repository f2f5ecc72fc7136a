// bench/device/stall_table.py, run with python3 on a cut-down Nsight Compute source page
// (sample/stalls.csv): the samples summed by opcode, the instructions that hold the most with their
// leading stall reasons, and the error on a file that holds no table.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <string>

namespace {

using namespace bench_test;

Run stall_table(const std::string& args, const fs::path& dir) {
    return run_script("bench/device/stall_table.py", args, dir);
}

}  // namespace

TEST_CASE("stall_table.py: samples summed by opcode, predicates dropped, shares of every sample") {
    const auto dir = scratch("stall_table_opcodes");
    const Run r = stall_table("tests/bench/sample/stalls.csv", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "tests/bench/sample/stalls.csv: 1200 samples over 7 instructions"));
    CHECK(has_line(r.out, "| UCGABAR_WAIT | 1000 | 83.3 % | 900 | 1 |"));
    CHECK(has_line(r.out, "| WARPGROUP.DEPBAR.LE | 120 | 10.0 % | 108 | 2 |"));
    CHECK(has_line(r.out, "| BRA | 26 | 2.2 % | 20 | 1 |"));
    CHECK(r.out.find("IMAD.MOV.U32") == std::string::npos);  // no samples: not listed
}

TEST_CASE("stall_table.py: the instructions with the most samples, in order, with their two leading reasons") {
    const auto dir = scratch("stall_table_instructions");
    const Run r = stall_table("tests/bench/sample/stalls.csv", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string hgmma =
        "| 0x7f0000000030 | `HGMMA.SP.64x192x32.F32 R120, gdesc[UR16], R120, UP0, R224, 0x0` | 50 | 4.2 % | mio 40, wait 10 |";
    const std::string depbar = "| 0x7f0000000040 | `WARPGROUP.DEPBAR.LE gsb0, 0x1` | 100 | 8.3 % | barrier 100 |";
    CHECK(has_line(r.out, hgmma));
    CHECK(has_line(r.out, depbar));
    CHECK(has_line(r.out, "| 0x7f0000000020 | `@!P2 BRA 0x7f00000000f0` | 26 | 2.2 % | long_sb 26 |"));
    CHECK(r.out.find(depbar) < r.out.find(hgmma));
}

TEST_CASE("stall_table.py: --top N keeps the N largest rows of each table") {
    const auto dir = scratch("stall_table_top");
    const Run r = stall_table("tests/bench/sample/stalls.csv --top 2", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "| WARPGROUP.DEPBAR.LE | 120 | 10.0 % | 108 | 2 |"));
    CHECK(r.out.find("| HGMMA") == std::string::npos);
    CHECK(r.out.find("`HGMMA") == std::string::npos);
    CHECK(has_line(r.out, "| 0x7f0000000040 | `WARPGROUP.DEPBAR.LE gsb0, 0x1` | 100 | 8.3 % | barrier 100 |"));
}

TEST_CASE("stall_table.py: a file without ncu's table exits non-zero naming the file") {
    const auto dir = scratch("stall_table_no_table");
    const Run r = stall_table("tests/bench/sample/README.md", dir);
    CHECK(r.status != 0);
    CHECK(r.err.find("tests/bench/sample/README.md: no table") != std::string::npos);
}

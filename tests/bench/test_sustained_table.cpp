// bench/baselines/sustained_table.py on hand-made records (sample/sustained.jsonl): the rate per
// GHz of the record's own SM clock, a record without a figure shown with its status, and a line
// that is not a record refused with its file and line.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <fstream>
#include <string>

namespace {

using namespace bench_test;

Run sustained_table(const std::string& args, const fs::path& dir) {
    return run_script("bench/baselines/sustained_table.py", args, dir);
}

}  // namespace

TEST_CASE("sustained_table.py: each record's TFLOP/s per GHz of its median SM clock, with its power and throttle reasons") {
    const auto dir = scratch("sustained_table_rate");
    const Run r = sustained_table("tests/bench/sample/sustained.jsonl", dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    // 1000.4 TFLOP/s at 1250 MHz: 800 per GHz; 200 launches of 10 ms: 2 s timed.
    CHECK(has_line(r.out, "16384x16384x16384  sm90a       f16       1000    200     2.00     1250      800    690    701  sw_power_cap"));
    // A record without clocks has no per-GHz figure rather than a made-up one.
    CHECK(has_line(r.out, "4096x4096x4096     cublas      bf16       800     20     0.00        0        -      0      0  -"));
}

TEST_CASE("sustained_table.py: a record that did not run shows its status and reason") {
    const auto dir = scratch("sustained_table_status");
    const Run r = sustained_table("tests/bench/sample/sustained.jsonl", dir);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "16384x16384x16384  cusparselt  s8    unsupported: no algorithm for this layout"));
}

TEST_CASE("sustained_table.py: a file it cannot read exits 2 naming it") {
    const auto dir = scratch("sustained_table_missing");
    const Run r = sustained_table((dir / "none.jsonl").string(), dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("none.jsonl: No such file or directory") != std::string::npos);
    CHECK(r.out.empty());
}

TEST_CASE("sustained_table.py: a line that is not a record exits 2 naming the file and line") {
    const auto dir = scratch("sustained_table_bad");
    const auto bad = dir / "bad.jsonl";
    std::ofstream(bad) << "{\"problem\": {\"m\": 1, \"n\": 1, \"k\": 1, \"a_type\": \"f16\"}}\n{not json\n";
    const Run r = sustained_table(bad.string(), dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("bad.jsonl:2: not a record") != std::string::npos);
}

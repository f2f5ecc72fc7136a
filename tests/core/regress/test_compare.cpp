// compare_records: matching, pooling, the status rules and the exit code (the statistics are in
// test_timing_stats.cpp, the command in tests/app/test_compare_cli.cpp).
#include "../record_lines.hpp"

#include <spmma/core/compare.hpp>

#include <catch2/catch.hpp>

using namespace spmma;
using spmma_test::record_json;
using spmma_test::tight_times;

namespace {

StoredRecord rec(const nlohmann::json& j) { return parse_record_line(j.dump(), "test"); }

CompareResult cmp(const std::vector<nlohmann::json>& olds, const std::vector<nlohmann::json>& news) {
    std::vector<StoredRecord> o, n;
    for (const auto& j : olds) o.push_back(rec(j));
    for (const auto& j : news) n.push_back(rec(j));
    return compare_records(o, n, CompareOptions{});
}

}  // namespace

TEST_CASE("records match by the whole problem, plugin, kernel and the device when both name one", "[compare]") {
    const auto base = record_json("verified", tight_times(1.0));
    auto other_seed = base, other_device = base, no_device = base, other_kernel = base;
    other_seed["problem"]["seed"] = 7;
    other_device["device"]["name"] = "NVIDIA H200";
    no_device["device"]["name"] = "";
    other_kernel["kernel"] = "cpu_omp_f16acc";
    CHECK(cmp({base}, {base}).rows.size() == 1);
    CHECK(cmp({base}, {other_seed}).rows.empty());
    CHECK(cmp({base}, {other_device}).rows.empty());
    CHECK(cmp({base}, {other_kernel}).rows.empty());
    CHECK(cmp({base}, {no_device}).rows.size() == 1);
    // Two devices in the old file: each new record finds its own.
    auto h200_new = other_device;
    h200_new["timing"]["times_ms"] = tight_times(2.0);
    auto h200_old = other_device;
    h200_old["timing"]["times_ms"] = tight_times(2.0);
    const auto r = cmp({base, h200_old}, {h200_new, base});
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].old_side.record.device == "NVIDIA H200");
    CHECK(r.rows[0].timing == TimingVerdict::Same);
    CHECK(r.rows[1].timing == TimingVerdict::Same);
}

TEST_CASE("a record that verified and now fails is a regression even when it is faster", "[compare]") {
    const auto r = cmp({record_json("verified", tight_times(2.0))}, {record_json("failed", tight_times(1.0))});
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].status == StatusChange::Broke);
    CHECK(r.rows[0].fails);
    CHECK(r.rows[0].verdict == "REGRESSION");
    CHECK_THAT(r.rows[0].detail, Catch::Contains("was verified, now failed"));
    CHECK(r.regressions == 1);
    CHECK(r.exit_code() == 1);
}

TEST_CASE("errors, skips and unknown statuses after a verified run are regressions", "[compare]") {
    for (const char* now : {"error", "skipped", "crashed"}) {
        auto n = record_json(now, {});
        const auto r = cmp({record_json("verified", tight_times(1.0))}, {n});
        INFO(now);
        REQUIRE(r.rows.size() == 1);
        CHECK(r.rows[0].fails);
        CHECK(r.exit_code() == 1);
    }
}

TEST_CASE("a record that failed and still fails is a failure, one that now verifies passes", "[compare]") {
    const auto still = cmp({record_json("failed", tight_times(1.0))}, {record_json("error", {})});
    CHECK(still.rows[0].status == StatusChange::StillBad);
    CHECK(still.rows[0].verdict == "FAILING");
    CHECK(still.failures == 1);
    CHECK(still.exit_code() == 1);
    const auto fixed = cmp({record_json("failed", tight_times(1.0))}, {record_json("verified", tight_times(1.0))});
    CHECK(fixed.rows[0].status == StatusChange::Fixed);
    CHECK_FALSE(fixed.rows[0].fails);
    CHECK(fixed.exit_code() == 0);
    const auto skipped = cmp({record_json("skipped", {})}, {record_json("skipped", {})});
    CHECK(skipped.rows[0].status == StatusChange::BothSkipped);
    CHECK(skipped.exit_code() == 0);
}

TEST_CASE("records in one file only are listed, a failing one in the new file fails the gate", "[compare]") {
    const auto a = record_json("verified", tight_times(1.0), 64), b = record_json("verified", tight_times(1.0), 96);
    const auto c = record_json("failed", tight_times(1.0), 128);
    const auto r = cmp({a, b}, {a, c});
    CHECK(r.rows.size() == 1);
    REQUIRE(r.only_old.size() == 1);
    CHECK(r.only_old[0].record.m == 96);
    REQUIRE(r.only_new.size() == 1);
    CHECK(r.only_new[0].record.m == 128);
    CHECK(r.failures == 1);
    CHECK(r.exit_code() == 1);
    CHECK(cmp({a, b}, {a, record_json("verified", tight_times(1.0), 128)}).exit_code() == 0);
}

TEST_CASE("nothing matched exits 3", "[compare]") {
    const auto r = cmp({record_json("verified", tight_times(1.0), 64)}, {record_json("verified", tight_times(1.0), 96)});
    CHECK(r.rows.empty());
    CHECK(r.exit_code() == 3);
    CHECK(cmp({}, {}).exit_code() == 3);
}

TEST_CASE("records of one key in one file are pooled: their iterations together, the worst status", "[compare]") {
    const auto first = record_json("verified", tight_times(1.0, 10)), second = record_json("verified", tight_times(1.0, 12));
    const auto r = cmp({first, second}, {first});
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].old_side.count == 2);
    CHECK(r.rows[0].old_side.record.times_ms.size() == 22);
    CHECK(r.rows[0].interval.n_old == 22);
    const auto worst = cmp({first}, {first, record_json("failed", tight_times(1.0))});
    CHECK(worst.rows[0].new_side.record.status == "failed");
    CHECK(worst.exit_code() == 1);
}

TEST_CASE("a new record without iteration times fails, an old one without them gives no verdict", "[compare]") {
    auto median_only = record_json("verified", {});
    median_only["timing"] = {{"median_ms", 1.0}};
    const auto lost = cmp({record_json("verified", tight_times(1.0))}, {median_only});
    CHECK(lost.rows[0].fails);
    CHECK(lost.rows[0].verdict == "FAILING");
    CHECK_THAT(lost.rows[0].detail, Catch::Contains("no iteration times in the new record"));
    CHECK(lost.exit_code() == 1);
    const auto unknown = cmp({median_only}, {record_json("verified", tight_times(1.0))});
    CHECK_FALSE(unknown.rows[0].fails);
    CHECK(unknown.rows[0].timing == TimingVerdict::NotCompared);
    CHECK_THAT(unknown.rows[0].detail, Catch::Contains("no iteration times in the old record"));
    CHECK(unknown.exit_code() == 0);
}

TEST_CASE("the outputs state the method and list every row", "[compare]") {
    auto slow = record_json("verified", tight_times(1.2));
    const auto r = cmp({record_json("verified", tight_times(1.0)), record_json("verified", tight_times(1.0), 96)},
                       {slow, record_json("verified", tight_times(1.0), 96)});
    CHECK(r.slower == 1);
    CHECK(r.same == 1);
    const std::string table = format_compare_table(r), md = format_compare_markdown(r);
    for (const std::string& out : {table, md}) {
        CHECK_THAT(out, Catch::Contains("Hodges-Lehmann"));
        CHECK_THAT(out, Catch::Contains("99%"));
        CHECK_THAT(out, Catch::Contains("+20.0%"));
    }
    CHECK_THAT(table, Catch::Contains("regressions and failures:"));
    CHECK_THAT(md, Catch::Contains("| **SLOWER** |"));
    CHECK_THAT(md, Catch::Contains("f16\\*f16+f32-&gt;f16"));  // a table cell, escaped
    const auto suites = compare_junit(r);
    REQUIRE(suites.size() == 1);
    REQUIRE(suites[0].cases.size() == 2);
    CHECK(suites[0].cases[0].outcome == JunitOutcome::Failure);
    CHECK(suites[0].cases[0].type == "slower");
    CHECK(suites[0].cases[1].outcome == JunitOutcome::Passed);
}

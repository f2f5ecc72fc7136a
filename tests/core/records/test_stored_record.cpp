// Records read back from JSON lines: every known field, defensively; errors name file, line, key.
#include "../record_lines.hpp"

#include <spmma/core/record.hpp>
#include <spmma/core/stored_record.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace spmma;
using spmma_test::record_json;

namespace {

std::string write_lines(const std::string& name, const std::vector<std::string>& lines) {
    const auto path = std::filesystem::temp_directory_path() / ("spmma-test-stored-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream f(path);
    for (const auto& l : lines) f << l << "\n";
    return path.string();
}

}  // namespace

TEST_CASE("a record line reads back its problem, plugin, timings and verdict", "[stored]") {
    auto j = record_json("failed", {3.0, 1.0, 2.0, 4.0});
    const StoredRecord r = parse_record_line(j.dump(), "f:1");
    CHECK(r.m == 64);
    CHECK(r.label == "64x32x128 f16*f16+f32->f16 2:4");
    CHECK(r.plugin == "cpu");
    CHECK(r.kernel == "cpu_omp_f32acc");
    CHECK(r.device == "host CPU (2 threads)");
    CHECK(r.bad());
    CHECK(r.times_ms.size() == 4);
    CHECK(r.median_ms == 2.5);
    CHECK(r.mismatches == 2);
    REQUIRE(r.first_mismatches.size() == 2);
    CHECK(r.first_mismatches[1].got == "nan");
    CHECK_THAT(r.mismatch_lines(), Catch::Contains("(1, 2): got 1.5, expected 1, tolerance 0.01"));
}

TEST_CASE("non-finite and non-positive times are dropped and counted", "[stored]") {
    auto j = record_json("verified", {});
    j["timing"] = {{"times_ms", {1.0, "nan", 3.0, 2.0, "inf", -1.0}}, {"median_ms", 99.0}};
    const StoredRecord r = parse_record_line(j.dump(), "f:1");
    CHECK(r.times_ms == std::vector<double>{1.0, 3.0, 2.0});
    CHECK(r.dropped_times == 3);
    CHECK(r.median_ms == 2.0);
    // Without times, the record's median stands.
    j["timing"] = {{"median_ms", 7.5}};
    CHECK(parse_record_line(j.dump(), "f:1").median_ms == 7.5);
}

TEST_CASE("fields this version does not know are ignored, the match key stays the same", "[stored]") {
    auto j = record_json("verified", {1.0, 2.0});
    const std::string key = parse_record_line(j.dump(), "f:1").problem_key;
    j["phases"] = {{"upload_ms", 3.0}, {"verify_ms", 9.0}};
    j["clocks"] = {{"fan_percent", {40, 45}}};  // a member of clocks this version does not read
    j["timing"]["noise"] = 0.02;
    j["device"]["uuid"] = "GPU-1234";
    j["device"]["index"] = 3;
    j["problem"]["future_field"] = "x";
    const StoredRecord r = parse_record_line(j.dump(), "f:1");
    CHECK(r.problem_key == key);
    CHECK(r.times_ms.size() == 2);
    // A known field that changes does change the key.
    j["problem"]["seed"] = 43;
    CHECK(parse_record_line(j.dump(), "f:1").problem_key != key);
}

TEST_CASE("a record's device index and UUID are read back, and without them the index is -1", "[stored]") {
    auto j = record_json("verified", {1.0});
    const StoredRecord none = parse_record_line(j.dump(), "f:1");
    CHECK(none.device_index == -1);
    CHECK(none.device_uuid.empty());
    j["device"]["index"] = 1;
    j["device"]["uuid"] = "GPU-8c1f";
    const StoredRecord one = parse_record_line(j.dump(), "f:1");
    CHECK(one.device_index == 1);
    CHECK(one.device_uuid == "GPU-8c1f");
    j["device"]["index"] = "1";
    CHECK_THROWS_WITH(parse_record_line(j.dump(), "f:7"), Catch::Contains("f:7: device.index: expected an integer"));
}

TEST_CASE("a malformed record file names the file, the line and the key", "[stored]") {
    auto no_m = record_json("verified", {1.0});
    no_m["problem"].erase("m");
    auto bad_times = record_json("verified", {});
    bad_times["timing"] = {{"times_ms", "fast"}};
    auto bad_time = record_json("verified", {});
    bad_time["timing"] = {{"times_ms", {1.0, "soon"}}};
    const std::string good = record_json("verified", {1.0}).dump();
    CHECK_THROWS_WITH(read_record_file(write_lines("a", {good, "", no_m.dump()})), Catch::EndsWith("a:3: problem.m: missing"));
    CHECK_THROWS_WITH(read_record_file(write_lines("b", {bad_times.dump()})), Catch::Contains("b:1: timing.times_ms: expected an array"));
    CHECK_THROWS_WITH(read_record_file(write_lines("c", {bad_time.dump()})), Catch::Contains("c:1: timing.times_ms[1]: expected a number"));
    CHECK_THROWS_WITH(read_record_file(write_lines("d", {good, "{\"problem\": "})), Catch::Contains("d:2: not JSON"));
    CHECK_THROWS_WITH(read_record_file(write_lines("e", {"[1, 2]"})), Catch::Contains("e:1: not a record"));
    CHECK_THROWS_WITH(read_record_file("/nonexistent/records.jsonl"), Catch::Contains("/nonexistent/records.jsonl: cannot open"));
    CHECK(read_record_file(write_lines("f", {good, "  ", good})).size() == 2);
}

TEST_CASE("a record written by Record::to_json reads back whole", "[stored]") {
    Record rec;
    rec.job.problem.m = 128;
    rec.job.problem.n = 64;
    rec.job.problem.k = 256;
    rec.plugin = "sm90a";
    rec.kernel = "sm90a_k";
    rec.device = "NVIDIA H200";
    rec.status = RecordStatus::Failed;
    rec.reason = "bad";
    rec.timing = Timing::from({2.0, 1.0, 3.0}, 1, rec.job.problem.flops());
    reference::Verdict v;
    v.mode = "full";
    v.checked = 100;
    v.mismatches = 1;
    v.first.push_back({5, 6, 1.0, 2.0, 0.5});
    rec.verdict = v;
    const StoredRecord r = parse_record_line(rec.to_json().dump(), "record");
    CHECK(r.label == rec.job.problem.label());
    CHECK(r.m == 128);
    CHECK(r.status == "failed");
    CHECK(r.median_ms == 2.0);
    CHECK(r.tflops() == Approx(rec.timing->tflops));
    REQUIRE(r.first_mismatches.size() == 1);
    CHECK(r.first_mismatches[0].i == 5);
    CHECK(r.first_mismatches[0].expected == "2");
}

TEST_CASE("a GPU record's clocks, power and throttle reasons are read back, and a record without NVML keeps its reason", "[stored]") {
    auto j = record_json("verified", {1.0, 2.0});
    j["clocks"] = {{"samples", 40},
                   {"duration_ms", 400.0},
                   {"sm_mhz", {{"min", 1755.0}, {"median", 1980.0}, {"max", 1980.0}}},
                   {"mem_mhz", {{"min", 2619.0}, {"median", 2619.0}, {"max", 2619.0}}},
                   {"power_w", {{"min", 300.0}, {"median", 640.5}, {"max", 700.0}}},
                   {"temperature_c", {{"min", 50.0}, {"median", 61.0}, {"max", 63.0}}},
                   {"throttle", {{"mask", "0x4"}, {"reasons", {"sw_power_cap"}}, {"power_cap_fraction", 0.25}}}};
    const StoredRecord r = parse_record_line(j.dump(), "f:1");
    CHECK(r.clocks.present);
    CHECK(r.clocks.sm_mhz == 1980.0);
    CHECK(r.clocks.sm_mhz_min == 1755.0);
    CHECK(r.clocks.mem_mhz == 2619.0);
    CHECK(r.clocks.power_w == 640.5);
    CHECK(r.clocks.power_w_max == 700.0);
    CHECK(r.clocks.temperature_c == 61.0);
    CHECK(r.clocks.power_cap_fraction == 0.25);
    CHECK(r.clocks.throttle == std::vector<std::string>{"sw_power_cap"});
    auto no_nvml = record_json("verified", {1.0});
    no_nvml["clocks"] = {{"error", "libnvidia-ml.so.1: not found"}};
    const StoredRecord n = parse_record_line(no_nvml.dump(), "f:2");
    CHECK_FALSE(n.clocks.present);
    CHECK(n.clocks.error == "libnvidia-ml.so.1: not found");
    CHECK_FALSE(parse_record_line(record_json("verified", {1.0}).dump(), "f:3").clocks.present);
    j["clocks"]["throttle"]["reasons"] = "sw_power_cap";
    CHECK_THROWS_WITH(parse_record_line(j.dump(), "f:4"), Catch::Contains("f:4: clocks.throttle.reasons: expected an array"));
}

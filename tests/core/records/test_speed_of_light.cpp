// The speed of light against hand-computed values: the bytes a problem must move (compressed or
// dense A, metadata, B, C when beta != 0, D), the peaks from an H100 SXM's figures (132 SMs,
// 1980 MHz, memory 2619 MHz on a 5120-bit bus), the roofline bound and the fraction reached;
// and the record's sol and device peaks through JSON and back (--resume), old records without them.
#include "../record_lines.hpp"

#include <spmma/core/record.hpp>
#include <spmma/core/record_json.hpp>
#include <spmma/core/speed_of_light.hpp>
#include <spmma/core/stored_record.hpp>
#include <spmma/core/tensor_rates.hpp>

#include <catch2/catch.hpp>

using namespace spmma;

namespace {

const DevicePeaks kH100{132, 1980000, 2619000, 5120};

Problem problem(int64_t m, int64_t n, int64_t k, DType ab, DType out) {
    Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = p.b = ab;
    p.c = p.d = out;
    return p;
}

}  // namespace

TEST_CASE("peak DRAM bandwidth is 2 x memory clock x bus width / 8: an H100 SXM's 3.35 TB/s", "[sol]") {
    CHECK(kH100.dram_bytes_per_s() == 3352320000000.0);
    CHECK(DevicePeaks{132, 1980000, 0, 5120}.dram_bytes_per_s() == 0);
}

TEST_CASE("the tensor table: Hopper f16 4096 and f8/i8 8192 flop per SM per clock, nothing for a kind the device lacks", "[sol]") {
    CHECK(tensor_rate("sm_90", problem(64, 64, 64, DType::F16, DType::F16))->dense_flops_per_sm_per_clock == 4096);
    CHECK(tensor_rate("sm_90", problem(64, 64, 64, DType::BF16, DType::BF16))->dense_flops_per_sm_per_clock == 4096);
    CHECK(tensor_rate("sm_90", problem(64, 64, 64, DType::E4M3, DType::BF16))->dense_flops_per_sm_per_clock == 8192);
    CHECK(tensor_rate("sm_90", problem(64, 64, 64, DType::S8, DType::S32))->dense_flops_per_sm_per_clock == 8192);
    CHECK(tensor_rate("sm_80", problem(64, 64, 64, DType::F16, DType::F16))->dense_flops_per_sm_per_clock == 2048);
    CHECK_FALSE(tensor_rate("sm_80", problem(64, 64, 64, DType::E4M3, DType::BF16)));
    CHECK_FALSE(tensor_rate("sm_90", problem(64, 64, 64, DType::E2M1, DType::BF16)));
    CHECK_FALSE(tensor_rate("x86_64", problem(64, 64, 64, DType::F16, DType::F16)));
    Problem nvf4 = problem(64, 64, 64, DType::E2M1, DType::BF16);
    nvf4.scale = DType::UE4M3;
    nvf4.scale_block = 16;
    CHECK(tensor_kind(nvf4) == "f4");
    CHECK(tensor_kind(problem(64, 64, 64, DType::E2M1, DType::BF16)) == "f8f6f4");
    CHECK(tensor_rate("sm_100", problem(64, 64, 64, DType::E2M1, DType::BF16))->dense_flops_per_sm_per_clock == 16384);
    CHECK(tensor_rate("sm_100", nvf4)->dense_flops_per_sm_per_clock == 32768);
}

TEST_CASE("f16 2:4, 8192x16x28672 on an H100: 265420800 bytes, DRAM-bound at 0.0792 ms", "[sol]") {
    const Problem p = problem(8192, 16, 28672, DType::F16, DType::F16);
    const SpeedOfLight s = speed_of_light(p, false, "sm_90", kH100, 0.1);
    CHECK(s.bytes.a == 234881024);         // 8192 x 14336 kept values x 2 bytes
    CHECK(s.bytes.a_metadata == 29360128);  // a nibble per group of 4: 8192 x 28672 / 8
    CHECK(s.bytes.b == 917504);
    CHECK(s.bytes.c == 0);
    CHECK(s.bytes.d == 262144);
    CHECK(s.bytes.total() == 265420800);
    CHECK(s.flops == 7516192768.0);
    CHECK(s.achieved_bytes_per_s == Approx(2.654208e12));
    CHECK(s.achieved_flops_per_s == Approx(7.516192768e13));
    CHECK(s.flops_per_sm_per_clock == 8192);  // sparse: twice the dense 4096
    CHECK(s.peak_tensor_flops_per_s == Approx(2.14106112e15));
    CHECK(s.bound_by == "dram");
    CHECK(s.bound_ms == Approx(0.0791752577));
    CHECK(s.fraction == Approx(0.791752577));
}

TEST_CASE("e4m3 2:4, 8192^3 on an H100: tensor-bound at 0.2568 ms", "[sol]") {
    const Problem p = problem(8192, 8192, 8192, DType::E4M3, DType::BF16);
    const SpeedOfLight s = speed_of_light(p, false, "sm_90", kH100, 0.4);
    CHECK(s.bytes.a == 33554432);
    CHECK(s.bytes.a_metadata == 8388608);
    CHECK(s.bytes.d == 134217728);  // bf16 out
    CHECK(s.bytes.total() == 243269632);
    CHECK(s.flops_per_sm_per_clock == 16384);
    CHECK(s.bound_by == "tensor");
    CHECK(s.bound_ms == Approx(0.2567679216));
    CHECK(s.fraction == Approx(0.641919804));
}

TEST_CASE("a dense plugin reads A expanded and is held to the dense rate", "[sol]") {
    const Problem p = problem(4096, 16, 4096, DType::F16, DType::F16);
    const SpeedOfLight s = speed_of_light(p, true, "sm_90", kH100, 0.02);
    CHECK(s.bytes.a == 33554432);
    CHECK(s.bytes.a_metadata == 0);
    CHECK(s.bytes.total() == 33816576);
    CHECK(s.flops_per_sm_per_clock == 4096);
    CHECK(s.peak_tensor_flops_per_s == Approx(1.07053056e15));
    CHECK(s.bound_by == "dram");
    CHECK(s.bound_ms == Approx(0.0100875143));
    CHECK(s.fraction == Approx(0.504375716));
}

TEST_CASE("beta != 0 reads C, beta == 0 does not", "[sol]") {
    Problem p = problem(1024, 64, 2048, DType::F16, DType::F16);
    CHECK(moved_bytes(p, false).total() == 2752512);
    p.beta = 0.5;
    CHECK(moved_bytes(p, false).c == 131072);
    CHECK(moved_bytes(p, false).total() == 2883584);
}

TEST_CASE("block scales are a byte per block of A and of B, tf32 1:2 metadata is a nibble per pair", "[sol]") {
    Problem p = problem(128, 64, 256, DType::E4M3, DType::BF16);
    p.scale = DType::UE8M0;
    p.scale_block = 32;
    CHECK(moved_bytes(p, false).scales == (128 + 64) * 8);
    Problem t = problem(128, 64, 256, DType::TF32, DType::F32);
    t.pattern = Pattern::P1_2;
    CHECK(moved_bytes(t, false).a == 128 * 128 * 4);
    CHECK(moved_bytes(t, false).a_metadata == 128 * 128 / 2);
}

TEST_CASE("the epilogue reads its f32 row and column scales and its bias in the bias's type, once", "[sol]") {
    Problem p = problem(4096, 16, 1024, DType::E4M3, DType::BF16);
    const int64_t plain = moved_bytes(p, false).total();
    p.row_scale.source = EpilogueVector::Source::Drawn;
    p.col_scale.source = EpilogueVector::Source::Given;
    p.bias.source = EpilogueVector::Source::Drawn;
    p.bias_axis = BiasAxis::Row;
    p.bias_type = DType::BF16;
    CHECK(moved_bytes(p, false).epilogue == 4096 * 4 + 16 * 4 + 4096 * 2);
    CHECK(moved_bytes(p, false).total() == plain + 4096 * 4 + 16 * 4 + 4096 * 2);
    p.bias_axis = BiasAxis::Col;
    p.bias_type = DType::F32;
    CHECK(moved_bytes(p, false).epilogue == 4096 * 4 + 16 * 4 + 16 * 4);
}

TEST_CASE("without the device's peaks: bytes, FLOPs and rates, no bound and no fraction", "[sol]") {
    const SpeedOfLight s = speed_of_light(problem(64, 32, 128, DType::F16, DType::F16), false, "x86_64", DevicePeaks{}, 0.5);
    CHECK(s.bytes.total() == 64 * 64 * 2 + 64 * 32 / 2 + 128 * 32 * 2 + 64 * 32 * 2);
    CHECK(s.achieved_flops_per_s == Approx(2.0 * 64 * 32 * 128 / 0.5e-3));
    CHECK_FALSE(s.has_bound());
    CHECK(s.fraction == 0);
    const nlohmann::json j = s.to_json();
    CHECK(j.contains("achieved_bytes_per_s"));
    CHECK_FALSE(j.contains("fraction"));
    CHECK_FALSE(j.contains("peak_dram_bytes_per_s"));
}

TEST_CASE("a record's sol and device peaks survive JSON and --resume's reading, and StoredRecord reads them", "[sol][stored]") {
    Record rec;
    rec.job.problem = problem(8192, 16, 28672, DType::F16, DType::F16);
    rec.plugin = "sm90a";
    rec.device_arch = "sm_90";
    rec.device_peaks = kH100;
    rec.status = RecordStatus::Unverified;
    rec.timing = Timing::from({0.1, 0.1, 0.1}, 1, rec.job.problem.flops());
    rec.sol = speed_of_light(rec.job.problem, false, "sm_90", kH100, 0.1);
    const nlohmann::json j = rec.to_json();
    CHECK(j["device"]["peaks"]["mem_bus_bits"] == 5120);
    CHECK(j["sol"]["bytes"] == 265420800);
    CHECK(j["sol"]["bound_by"] == "dram");
    Record back = record_from_json(j, "records.jsonl:1");
    back.job = rec.job;  // --resume gives a kept record the job its key matched
    CHECK(back.to_json() == j);
    const StoredRecord st = parse_record_line(j.dump(), "records.jsonl:1");
    CHECK(st.sol_bytes == 265420800);
    CHECK(st.sol_fraction == Approx(0.791752577));
    CHECK(st.sol_bound_by == "dram");
    CHECK(st.sm_clock_khz == 1980000);
    CHECK(st.mem_clock_khz == 2619000);
}

TEST_CASE("a record written before the speed of light reads back without it", "[sol][stored]") {
    const nlohmann::json old = spmma_test::record_json("verified", {1.0, 2.0});
    const Record r = record_from_json(old, "old.jsonl:1");
    CHECK_FALSE(r.sol);
    CHECK_FALSE(r.device_peaks.any());
    CHECK_FALSE(r.to_json().contains("sol"));
    CHECK_FALSE(r.to_json()["device"].contains("peaks"));
    const StoredRecord st = parse_record_line(old.dump(), "old.jsonl:1");
    CHECK(st.sol_bytes == 0);
    CHECK(st.sol_fraction == 0);
}

TEST_CASE("a sol field of the wrong type names its key", "[sol][stored]") {
    nlohmann::json bad = spmma_test::record_json("verified", {1.0});
    bad["sol"] = {{"bytes", "many"}};
    CHECK_THROWS_WITH(parse_record_line(bad.dump(), "f.jsonl:3"), Catch::Contains("f.jsonl:3: sol.bytes"));
    bad["sol"] = {{"bytes_by_operand", {{"a", -1}}}};
    CHECK_THROWS_WITH(record_from_json(bad, "f.jsonl:3"), Catch::Contains("sol.bytes_by_operand.a"));
}

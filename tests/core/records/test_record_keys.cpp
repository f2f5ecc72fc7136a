// The problem's fields in a record (JSON, CSV, the rerun command), all made from the table of
// keys: the same fields, names and order as before the table existed.
#include <spmma/core/record.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace spmma;

namespace {

// An MX problem with random scales: every key has a field.
Job scaled_job() {
    Job j;
    Problem& p = j.problem;
    p.m = 64;
    p.n = 48;
    p.k = 256;
    p.a = p.b = DType::E4M3;
    p.acc = DType::F32;
    p.c = p.d = DType::BF16;
    p.scale = DType::UE8M0;
    p.scale_block = 64;
    p.alpha = 0.5;
    j.iterations = 3;
    return j;
}

}  // namespace

TEST_CASE("a record's problem object has one field per key, scale_range from scale_min and scale_max", "[record][keys]") {
    const nlohmann::json o = problem_json(scaled_job());
    CHECK(o.dump() ==
          R"({"a_type":"e4m3","acc_type":"f32","alpha":0.5,"b_type":"e4m3","beta":0.0,"c_type":"bf16","d_type":"bf16","dist":"uniform",)"
          R"("k":256,"label":"64x48x256 e4m3*e4m3+f32->bf16 2:4 ue8m0/64","m":64,"n":48,"pattern":"2:4","satfinite":false,)"
          R"("scale_block":64,"scale_gen":"random","scale_range":[0.125,8.0],"scale_type":"ue8m0","seed":42})");
    Job plain = scaled_job();
    plain.problem.scale = DType::None;
    const nlohmann::json q = problem_json(plain);
    CHECK_FALSE(q.contains("scale_type"));
    CHECK_FALSE(q.contains("scale_block"));
    CHECK_FALSE(q.contains("scale_gen"));
    CHECK_FALSE(q.contains("scale_range"));
    CHECK(run_json(scaled_job()).dump() ==
          R"({"flush_l2":false,"iterations":3,"max_noise":0.0,"max_time_s":10.0,"min_time_s":0.0,"verify":"auto","warmup":5})");
}

TEST_CASE("the CSV keeps its columns, scale as type/block", "[record][keys]") {
    CHECK(Record::csv_header() ==
          std::vector<std::string>{"status", "m", "n", "k", "a_type", "b_type", "acc_type", "d_type", "pattern", "satfinite", "scale",
                                   "alpha", "beta", "dist", "seed", "row_scale", "col_scale", "bias", "activation", "plugin", "plugin_version", "kind", "kernel", "device", "arch",
                                   "median_ms", "min_ms", "tflops", "bytes", "bytes_per_s", "sol_bound_ms", "sol_pct", "verify_mode", "checked", "mismatches", "max_abs_error",
                                   "max_rel_error", "tolerance_ratio", "baseline", "speedup", "reason", "source", "command",
                                   "spmma_version", "timestamp", "times_ms"});
    Record r;
    r.job = scaled_job();
    const auto row = r.csv_row();
    REQUIRE(row.size() == Record::csv_header().size());
    CHECK(std::vector<std::string>(row.begin(), row.begin() + 15) ==
          std::vector<std::string>{"skipped", "64", "48", "256", "e4m3", "e4m3", "f32", "bf16", "2:4", "0", "ue8m0/64", "0.5", "0",
                                   "uniform", "42"});
    r.job.problem.scale = DType::None;
    r.job.problem.a = r.job.problem.b = DType::S8;
    r.job.problem.saturate = true;
    CHECK(r.csv_row()[9] == "1");
    CHECK(r.csv_row()[10] == "");
}

TEST_CASE("the epilogue's CSV columns follow seed, empty for a plain problem", "[record][keys][epilogue]") {
    Record r;
    r.job = scaled_job();
    const auto plain = r.csv_row();
    CHECK(std::vector<std::string>(plain.begin() + 15, plain.begin() + 19) == std::vector<std::string>{"", "", "", ""});
    Problem& p = r.job.problem;
    p.row_scale = {EpilogueVector::Source::Drawn, 0};
    p.col_scale = {EpilogueVector::Source::Given, 0.5};
    p.bias = {EpilogueVector::Source::Drawn, 0};
    p.bias_axis = BiasAxis::Row;
    p.bias_type = DType::F32;
    p.activation = Activation::Silu;
    const auto row = r.csv_row();
    CHECK(std::vector<std::string>(row.begin() + 15, row.begin() + 19) == std::vector<std::string>{"random", "0.5", "row,f32", "silu"});
}

TEST_CASE("the rerun command gives every key its option, in the table's order", "[record][keys]") {
    const std::string c = reproduce_command(scaled_job(), "cpu", "", "");
    CHECK_THAT(c, Catch::EndsWith("spmma gemm --m 64 --n 48 --k 256 --a-type e4m3 --b-type e4m3 --acc f32 --out bf16 --pattern 2:4 "
                                  "--scale-type ue8m0 --scale-block 64 --scale-gen random --scale-min 0.125 --scale-max 8 --alpha 0.5 "
                                  "--beta 0 --dist uniform --seed 42 --warmup 5 --iterations 3 --verify auto --plugin cpu"));
    Job s8;
    s8.problem.m = s8.problem.n = s8.problem.k = 32;
    s8.problem.a = s8.problem.b = DType::S8;
    s8.problem.acc = s8.problem.c = s8.problem.d = DType::S32;
    s8.problem.saturate = true;
    CHECK_THAT(reproduce_command(s8, "", "", ""), Catch::Contains("--pattern 2:4 --satfinite --alpha 1 --beta 0"));
}

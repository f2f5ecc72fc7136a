// The command line in every record: it names the problem, and the SPMMA_* knobs that were set.
#include <spmma/core/record.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

namespace {

spmma::Job small_job() {
    spmma::Job j;
    j.problem.m = 17;
    j.problem.n = 9;
    j.problem.k = 40;
    return j;
}

}  // namespace

TEST_CASE("a record's command starts with the SPMMA_ knobs set, sorted and quoted", "[record]") {
    ::setenv("SPMMA_ZZ_TEST_KNOB", "a b", 1);
    ::setenv("SPMMA_AA_TEST_KNOB", "4", 1);
    const std::string c = spmma::reproduce_command(small_job(), "sm90a", "sm90a_x", "");
    ::unsetenv("SPMMA_ZZ_TEST_KNOB");
    ::unsetenv("SPMMA_AA_TEST_KNOB");
    const auto aa = c.find("SPMMA_AA_TEST_KNOB=4 "), zz = c.find("SPMMA_ZZ_TEST_KNOB='a b' "), g = c.find("spmma gemm");
    REQUIRE(aa != std::string::npos);
    REQUIRE(zz != std::string::npos);
    REQUIRE(g != std::string::npos);
    CHECK(aa < zz);
    CHECK(zz < g);
    CHECK(c.find("--m 17 --n 9 --k 40") != std::string::npos);
    CHECK(c.find("--plugin sm90a --kernel sm90a_x") != std::string::npos);
}

TEST_CASE("a record's command leaves out the test harness's path variables and unrelated ones", "[record]") {
    ::setenv("SPMMA_SOURCE_DIR", "/somewhere", 1);
    ::setenv("NOT_SPMMA_KNOB", "1", 1);
    const std::string c = spmma::reproduce_command(small_job(), "cpu", "", "");
    ::unsetenv("NOT_SPMMA_KNOB");
    CHECK(c.find("SPMMA_SOURCE_DIR") == std::string::npos);
    CHECK(c.find("NOT_SPMMA_KNOB") == std::string::npos);
}

TEST_CASE("a record carries the epilogue: the problem's fields and the rerun command's flags, none for a plain problem", "[record][epilogue]") {
    spmma::Job j = small_job();
    j.problem.row_scale = {spmma::EpilogueVector::Source::Drawn, 0};
    j.problem.bias = {spmma::EpilogueVector::Source::Given, 0.5};
    j.problem.bias_axis = spmma::BiasAxis::Col;
    j.problem.bias_type = spmma::DType::F32;
    j.problem.activation = spmma::Activation::GeluTanh;
    const auto p = spmma::problem_json(j);
    CHECK(p["row_scale"] == "random");
    CHECK_FALSE(p.contains("col_scale"));
    CHECK(p["bias"] == "col,f32,0.5");
    CHECK(p["activation"] == "gelu-tanh");
    const std::string c = spmma::reproduce_command(j, "cpu", "", "");
    CHECK(c.find("--row-scale random --bias col,f32,0.5 --activation gelu-tanh") != std::string::npos);
    const auto plain = spmma::problem_json(small_job());
    for (const char* key : {"row_scale", "col_scale", "bias", "activation"}) CHECK_FALSE(plain.contains(key));
    CHECK(spmma::reproduce_command(small_job(), "cpu", "", "").find("--row-scale") == std::string::npos);
}

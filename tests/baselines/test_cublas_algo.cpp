// The cublas plugin's pick in the plan cache: cuBLASLt's algorithm structure as eight hex words.
#include "lt_algo.hpp"

#include <catch2/catch.hpp>

using namespace spmma_cublas;

TEST_CASE("a cuBLASLt algorithm survives the plan cache's JSON word for word", "[baselines][cublas]") {
    cublasLtMatmulAlgo_t a{};
    for (size_t i = 0; i < 8; ++i) a.data[i] = (0x0123456789abcdefULL * (i + 1)) ^ (uint64_t{1} << 63);
    AlgoConfig c;
    c.id = 66;
    c.tile = 31;
    c.stages = 24;
    c.cluster_shape = 2;
    const nlohmann::json plan = algo_to_plan(a, c);
    CHECK(plan["algo_id"] == 66);
    CHECK(plan["name"] == "algo 66 tile 31 stages 24 cluster 2 splitk 1");
    REQUIRE(plan["words"].size() == 8);
    CHECK(plan["words"][0].get<std::string>().size() == 16);
    std::string why;
    const auto back = algo_from_plan(plan, why);
    REQUIRE(back);
    for (size_t i = 0; i < 8; ++i) CHECK(back->data[i] == a.data[i]);
}

TEST_CASE("a damaged cuBLASLt plan is refused with why", "[baselines][cublas]") {
    std::string why;
    CHECK_FALSE(algo_from_plan({{"algo_id", 66}}, why));
    CHECK(why == "the stored plan has no \"words\" array of 8");
    nlohmann::json plan = {{"words", std::vector<std::string>(8, "00000000000000ff")}};
    CHECK(algo_from_plan(plan, why));
    plan["words"][3] = "-000000000000001";
    CHECK_FALSE(algo_from_plan(plan, why));
    CHECK(why == "the stored plan's word 3 is not 16 hex digits (\"-000000000000001\")");
    plan["words"][3] = 255;
    CHECK_FALSE(algo_from_plan(plan, why));
    CHECK(why == "the stored plan's word 3 is not 16 hex digits (255)");
}

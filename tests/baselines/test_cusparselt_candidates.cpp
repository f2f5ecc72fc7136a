// The cusparselt plugin's search candidates and the form its pick takes in the plan cache.
#include "sp_candidates.hpp"

#include <catch2/catch.hpp>

using namespace spmma_cusparselt;

TEST_CASE("cusparselt screens every algorithm id below CONFIG_MAX_ID at the default split-k", "[baselines][cusparselt]") {
    const auto c = algorithm_candidates(3);
    REQUIRE(c.size() == 3);
    for (int i = 0; i < 3; ++i) CHECK(c[static_cast<size_t>(i)] == SpCandidate{i, 0, 0});
    CHECK(candidate_name(c[2]) == "alg 2");
    CHECK(algorithm_candidates(0).empty());
}

TEST_CASE("cusparselt's split-k candidates: 2, 4, 8, 16 slices, each reduced in one kernel or two", "[baselines][cusparselt]") {
    const auto c = split_k_candidates(7);
    REQUIRE(c.size() == 8);
    std::vector<std::string> names;
    for (const auto& x : c) names.push_back(candidate_name(x));
    CHECK(names == std::vector<std::string>{"alg 7 split-k 2 one-kernel", "alg 7 split-k 2 two-kernels", "alg 7 split-k 4 one-kernel",
                                            "alg 7 split-k 4 two-kernels", "alg 7 split-k 8 one-kernel", "alg 7 split-k 8 two-kernels",
                                            "alg 7 split-k 16 one-kernel", "alg 7 split-k 16 two-kernels"});
}

TEST_CASE("a cusparselt pick survives the plan cache's JSON, a damaged one is refused with why", "[baselines][cusparselt]") {
    std::string why;
    for (const SpCandidate c : {SpCandidate{20, 0, 0}, SpCandidate{3, 8, 2}}) {
        const auto back = candidate_from_json(to_json(c), why);
        REQUIRE(back);
        CHECK(*back == c);
    }
    CHECK(to_json(SpCandidate{3, 8, 2}) == nlohmann::json{{"alg", 3}, {"split_k", 8}, {"split_k_mode", 2}});
    CHECK_FALSE(candidate_from_json({{"alg", 3}, {"split_k", 8}}, why));
    CHECK(why == "the stored plan has no integer \"split_k_mode\"");
    CHECK_FALSE(candidate_from_json({{"alg", "3"}, {"split_k", 0}, {"split_k_mode", 0}}, why));
    CHECK(why == "the stored plan has no integer \"alg\"");
    CHECK_FALSE(candidate_from_json({{"alg", 3}, {"split_k", 4}, {"split_k_mode", 9}}, why));
    CHECK(why == "the stored plan {\"alg\":3,\"split_k\":4,\"split_k_mode\":9} is out of range");
}

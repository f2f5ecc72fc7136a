#include <spmma/core/sizes.hpp>

#include <catch2/catch.hpp>

#include <limits>

using spmma::parse_size_list;

TEST_CASE("size lists take values, ranges and geometric ranges", "[sizes]") {
    CHECK(parse_size_list("4096") == std::vector<int64_t>{4096});
    CHECK(parse_size_list("1000, 2000") == std::vector<int64_t>{1000, 2000});
    CHECK(parse_size_list("1024:4096:1024") == std::vector<int64_t>{1024, 2048, 3072, 4096});
    CHECK(parse_size_list("256:2048:*2") == std::vector<int64_t>{256, 512, 1024, 2048});
    CHECK(parse_size_list("7,16:20:2") == std::vector<int64_t>{7, 16, 18, 20});
}

TEST_CASE("bad size lists say what is wrong", "[sizes]") {
    CHECK_THROWS_WITH(parse_size_list("12x"), Catch::Contains("not an integer"));
    CHECK_THROWS_WITH(parse_size_list("0"), Catch::Contains("1 or more"));
    CHECK_THROWS_WITH(parse_size_list("8,,16"), Catch::Contains("empty entry"));
    CHECK_THROWS_WITH(parse_size_list("64:8:8"), Catch::Contains("ends before"));
    CHECK_THROWS_WITH(parse_size_list("8:64:*1"), Catch::Contains("step"));
    CHECK_THROWS_WITH(parse_size_list("1:10000000:1"), Catch::Contains("more than"));
}

TEST_CASE("a range whose next step would pass INT64_MAX ends there instead of wrapping", "[sizes]") {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    CHECK(parse_size_list("9223372036854775800:9223372036854775807:5") == std::vector<int64_t>{kMax - 7, kMax - 2});
    const auto tripling = parse_size_list("4611686018427387904:9223372036854775807:*3");
    CHECK(tripling == std::vector<int64_t>{int64_t{1} << 62});
    const auto all = parse_size_list("1:9223372036854775807:*2");
    REQUIRE(all.size() == 63);
    CHECK(all.back() == int64_t{1} << 62);
}

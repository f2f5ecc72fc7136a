// The one median and its interval: exact binomial ranks against values worked out by hand from
// Binomial(n, 1/2).
#include <spmma/core/median.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace spmma;

TEST_CASE("the median of odd, even and empty samples", "[stats]") {
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 3, 2}) == 2.5);
    CHECK(median({5}) == 5);
    CHECK(median({}) == 0);
    CHECK(median({2, 2, 1, 9, 9, 9}) == 5.5);
}

TEST_CASE("the median's interval takes the exact binomial ranks", "[stats]") {
    // n = 10: P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so x(2) .. x(9), coverage 1 - 22/1024.
    auto r = median_ranks(10, 0.95);
    REQUIRE(r);
    CHECK(r->lower == 2);
    CHECK(r->upper == 9);
    CHECK(r->coverage == Approx(1 - 22.0 / 1024).epsilon(1e-12));
    // n = 20: P(B <= 5) = 21700/2^20 = 0.0207, P(B <= 6) = 0.0577: x(6) .. x(15).
    r = median_ranks(20, 0.95);
    REQUIRE(r);
    CHECK(r->lower == 6);
    CHECK(r->upper == 15);
    CHECK(r->coverage == Approx(1 - 2 * 21700.0 / 1048576).epsilon(1e-12));
    // n = 100: P(B <= 39) = 0.0176, P(B <= 40) = 0.0284: x(40) .. x(61).
    r = median_ranks(100, 0.95);
    REQUIRE(r);
    CHECK(r->lower == 40);
    CHECK(r->upper == 61);
    CHECK(r->coverage == Approx(0.9648).margin(1e-4));
    // n = 100 at 99 %: P(B <= 36) = 0.00332, P(B <= 37) = 0.00602: x(37) .. x(64).
    r = median_ranks(100, 0.99);
    REQUIRE(r);
    CHECK(r->lower == 37);
    CHECK(r->upper == 64);
}

TEST_CASE("too few values give no interval of the median", "[stats]") {
    // n = 5: even x(1) .. x(5) covers only 1 - 2/32 < 95 %; n = 6 covers 1 - 2/64.
    CHECK_FALSE(median_ranks(5, 0.95));
    CHECK_FALSE(median_ranks(0, 0.95));
    const auto six = median_ranks(6, 0.95);
    REQUIRE(six);
    CHECK(six->lower == 1);
    CHECK(six->upper == 6);
    CHECK_THROWS_AS(median_ranks(10, 1.0), std::invalid_argument);
}

TEST_CASE("the median's noise is half its interval over the median", "[stats]") {
    // 1..10: x(2) = 2, x(9) = 9, median 5.5: (9 - 2) / 11.
    std::vector<double> t = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    CHECK(median_noise(t) == Approx(7.0 / 11));
    CHECK(std::isinf(median_noise({1, 2, 3, 4, 5})));
    CHECK(std::isinf(median_noise({0, 0, 0, 0, 0, 0})));
}

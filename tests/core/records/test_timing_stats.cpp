// The interval of a ratio of times: the exact Mann-Whitney distribution, Moses' interval, the
// Hodges-Lehmann estimate, and the verdicts compare draws from them.
#include <spmma/core/compare.hpp>
#include <spmma/core/timing_stats.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace spmma;

namespace {

std::vector<double> scaled(std::vector<double> v, double f) {
    for (double& x : v) x *= f;
    return v;
}

// n times spread evenly (in a scrambled order) over [lo, hi].
std::vector<double> spread(int n, double lo, double hi) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * ((i * 7) % n) / (n - 1));
    return v;
}

RatioInterval interval(double lo, double hi) {
    RatioInterval r;
    r.defined = true;
    r.lower = lo;
    r.upper = hi;
    r.estimate = std::sqrt(lo * hi);
    return r;
}

}  // namespace

TEST_CASE("the exact Mann-Whitney distribution gives the textbook critical values", "[stats]") {
    // Two-sided tables: reject when U <= 2 (5, 5, 5 %), 23 (10, 10, 5 %), 16 (10, 10, 1 %),
    // 22 (8, 12, 5 %), 127 (20, 20, 5 %); the interval's rank c is one more.
    bool exact = false;
    CHECK(mann_whitney_critical(5, 5, 0.05, &exact) == 3);
    CHECK(exact);
    CHECK(mann_whitney_critical(10, 10, 0.05) == 24);
    CHECK(mann_whitney_critical(10, 10, 0.01) == 17);
    CHECK(mann_whitney_critical(8, 12, 0.05) == 23);
    CHECK(mann_whitney_critical(20, 20, 0.05) == 128);
    CHECK(mann_whitney_critical(60, 60, 0.01) == 1311);
    // Two against two: U = 0..4 in 1, 1, 2, 1, 1 of the 6 orderings.
    CHECK(mann_whitney_cdf(2, 2, 0) == Approx(1.0 / 6));
    CHECK(mann_whitney_cdf(2, 2, 2) == Approx(4.0 / 6));
    CHECK(mann_whitney_cdf(2, 2, 4) == Approx(1.0));
}

TEST_CASE("past 120 times the normal approximation is within 0.1 % of the n*m ranks of the exact value", "[stats]") {
    bool exact = true;
    // Exact values (enumerated separately): 1478 at 5 %, 1360 at 1 %, for 61 against 61 (3721 pairs).
    const int64_t c05 = mann_whitney_critical(61, 61, 0.05, &exact);
    CHECK_FALSE(exact);
    CHECK(std::abs(c05 - 1478) <= 1);
    CHECK(std::abs(mann_whitney_critical(61, 61, 0.01) - 1360) <= 4);
    CHECK(normal_quantile(0.975) == Approx(1.959964).epsilon(1e-6));
    CHECK(normal_quantile(0.995) == Approx(2.575829).epsilon(1e-6));
}

TEST_CASE("the interval is Moses' order statistics of the pairwise log differences", "[stats]") {
    // log(new_j) - log(old_i) = (j - i) + 0.5 for i, j = 0..4: the 3rd smallest is -2.5, the 3rd
    // largest 3.5, the median (13th of 25) 0.5; at 95 % c = 3 and the coverage is 1 - 2 * 4/252.
    std::vector<double> o, n;
    for (int i = 0; i < 5; ++i) {
        o.push_back(std::exp(i));
        n.push_back(std::exp(i + 0.5));
    }
    const RatioInterval r = ratio_interval(o, n, 0.95);
    REQUIRE(r.defined);
    CHECK(r.exact);
    CHECK(std::log(r.lower) == Approx(-2.5));
    CHECK(std::log(r.upper) == Approx(3.5));
    CHECK(std::log(r.estimate) == Approx(0.5));
    CHECK(r.confidence == Approx(1 - 8.0 / 252));
}

TEST_CASE("times scaled by 1.10 give an estimate of exactly 1.10 inside the interval", "[stats]") {
    const auto o = spread(40, 1.0, 1.04);
    const RatioInterval r = ratio_interval(o, scaled(o, 1.10), 0.99);
    REQUIRE(r.defined);
    CHECK(r.estimate == Approx(1.10).epsilon(1e-12));
    CHECK(r.lower < 1.10);
    CHECK(r.upper > 1.10);
    CHECK(judge_timing(r, 0.05) == TimingVerdict::Slower);
    const RatioInterval same = ratio_interval(o, o, 0.99);
    CHECK(same.estimate == Approx(1.0).epsilon(1e-12));
    CHECK(same.lower * same.upper == Approx(1.0).epsilon(1e-12));
    CHECK(judge_timing(same, 0.05) == TimingVerdict::Same);
}

TEST_CASE("a wide spread makes a 10 % change too noisy, not slower, a doubling is still slower", "[stats]") {
    const auto o = spread(20, 5.0, 15.0);  // +-50 % around the median
    const RatioInterval ten = ratio_interval(o, scaled(o, 1.10), 0.99);
    REQUIRE(ten.defined);
    CHECK(judge_timing(ten, 0.05) == TimingVerdict::TooNoisy);
    CHECK(judge_timing(ratio_interval(o, scaled(o, 2.0), 0.99), 0.05) == TimingVerdict::Slower);
    CHECK(judge_timing(ratio_interval(o, scaled(o, 0.5), 0.99), 0.05) == TimingVerdict::Faster);
}

TEST_CASE("too few times for the confidence give no interval and a too-noisy verdict", "[stats]") {
    const std::vector<double> three = {1.0, 1.1, 1.2};
    const RatioInterval r = ratio_interval(three, scaled(three, 3.0), 0.99);  // P(U = 0) = 1/20 > 0.005
    CHECK_FALSE(r.defined);
    CHECK(r.estimate == Approx(3.0));
    CHECK(judge_timing(r, 0.05) == TimingVerdict::TooNoisy);
    const std::vector<double> five = {1.0, 1.1, 1.2, 1.3, 1.4};
    CHECK(ratio_interval(five, scaled(five, 3.0), 0.99).defined);  // 1/252 <= 0.005
}

TEST_CASE("more than 2000 times a side are thinned to 2000 order statistics", "[stats]") {
    const auto o = spread(5000, 1.0, 1.1);
    const RatioInterval r = ratio_interval(o, scaled(o, 1.2), 0.99);
    CHECK(r.n_old == kMaxTimesPerSide);
    CHECK(r.n_new == kMaxTimesPerSide);
    CHECK_FALSE(r.exact);
    CHECK(r.estimate == Approx(1.2).epsilon(1e-3));
    CHECK(judge_timing(r, 0.05) == TimingVerdict::Slower);
}

TEST_CASE("the verdict weighs the whole interval against the threshold", "[stats][compare]") {
    CHECK(judge_timing(interval(1.06, 1.20), 0.05) == TimingVerdict::Slower);
    CHECK(judge_timing(interval(1.50, 3.00), 0.05) == TimingVerdict::Slower);    // wide but clearly slower
    CHECK(judge_timing(interval(0.80, 0.94), 0.05) == TimingVerdict::Faster);
    CHECK(judge_timing(interval(0.96, 1.04), 0.05) == TimingVerdict::Same);
    CHECK(judge_timing(interval(1.01, 1.04), 0.05) == TimingVerdict::Same);      // significant, but under the threshold
    CHECK(judge_timing(interval(1.03, 1.08), 0.05) == TimingVerdict::TooNoisy);  // reaches across +5 %
    CHECK(judge_timing(interval(0.90, 1.30), 0.05) == TimingVerdict::TooNoisy);
    CHECK(judge_timing(RatioInterval{}, 0.05) == TimingVerdict::TooNoisy);
}

TEST_CASE("bad times and levels are refused", "[stats]") {
    const std::vector<double> ok = {1, 2, 3}, bad = {1, -2, 3}, nan = {1, std::nan(""), 3};
    CHECK_THROWS_AS(ratio_interval(ok, bad, 0.99), std::invalid_argument);
    CHECK_THROWS_AS(ratio_interval(nan, ok, 0.99), std::invalid_argument);
    CHECK_THROWS_AS(ratio_interval(ok, ok, 1.0), std::invalid_argument);
}

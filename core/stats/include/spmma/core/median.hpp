// The median of a sample and its distribution-free confidence interval: the one median of spmma
// (records, compare, the timing loop, the clock samples all take it from here).
//
// The interval: for n independent times from any continuous distribution, the number of times
// below the true median is Binomial(n, 1/2), so the order statistics x(l) and x(n+1-l) cover it
// with probability 1 - 2 P(B <= l - 1). l is the largest rank with P(B <= l - 1) <= alpha / 2,
// from Boost.Math's binomial distribution (exact, no normal approximation).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace spmma {

// The median (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

// The 1-based ranks of the ends of the median's interval among n sorted values.
struct MedianRanks {
    int64_t lower = 0, upper = 0;  // x(lower) .. x(upper), upper = n + 1 - lower
    double coverage = 0;           // exact: 1 - 2 P(B <= lower - 1), at least the confidence asked
};

// None when n values cannot give the confidence asked (even x(1) .. x(n) covers too little).
std::optional<MedianRanks> median_ranks(int64_t n, double confidence);

// The relative half-width of the median's interval, (x(upper) - x(lower)) / (2 median);
// infinity when the interval does not exist (fewer than 6 times at 95 %) or the median is not positive.
double median_noise(std::vector<double> times, double confidence = 0.95);

}  // namespace spmma

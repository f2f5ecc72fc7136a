// How much faster or slower one set of iteration times is than another, with a confidence
// interval that assumes nothing of the times' distribution.
//
// The method: on log(time), the Hodges-Lehmann estimate of the shift between the two samples
// (the median of every difference log(new_j) - log(old_i)) and its distribution-free confidence
// interval from the Mann-Whitney U distribution (Moses' interval: the c-th smallest and c-th
// largest of those differences). exp() of them is the ratio new/old of the typical times: under
// a change of scale it is the ratio of the medians. The critical c comes from the exact U
// distribution up to 120 times in all, else from its normal approximation. Nothing is random:
// the same times give the same interval.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace spmma {

struct RatioInterval {
    bool defined = false;      // false: too few times for the confidence asked
    double estimate = 1.0;     // new/old
    double lower = 0, upper = 0;
    double confidence = 0;     // what the interval covers: at least the level asked (exact), or about it
    bool exact = false;        // the critical value is from the exact distribution
    int64_t n_old = 0, n_new = 0;  // the times used (see kMaxTimesPerSide)
};

// More times than this per side are thinned to this many evenly spaced order statistics (the
// interval then is as wide as for this many times: conservative).
constexpr int64_t kMaxTimesPerSide = 2000;

// Times must be positive and finite.
RatioInterval ratio_interval(std::span<const double> old_times, std::span<const double> new_times, double confidence);

// P(U <= u) for the Mann-Whitney statistic of samples of n and m without ties, exact; n + m <= 120.
double mann_whitney_cdf(int n, int m, int64_t u);
// The largest c with P(U <= c - 1) <= alpha / 2 (0 when even U = 0 is too likely): the rank of
// the interval's ends among the n*m differences.
int64_t mann_whitney_critical(int n, int m, double alpha, bool* exact = nullptr);
// The standard normal quantile (Boost.Math).
double normal_quantile(double p);

}  // namespace spmma

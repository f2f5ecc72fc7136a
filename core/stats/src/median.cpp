#include <spmma/core/median.hpp>

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace spmma {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return v.size() % 2 ? *mid : 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

std::optional<MedianRanks> median_ranks(int64_t n, double confidence) {
    if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("median_ranks: confidence " + std::to_string(confidence) + " is not in (0, 1)");
    if (n <= 0) return std::nullopt;
    using Policy = boost::math::policies::policy<boost::math::policies::discrete_quantile<boost::math::policies::integer_round_down>>;
    const boost::math::binomial_distribution<double, Policy> b(static_cast<double>(n), 0.5);
    const double tail = (1 - confidence) / 2;
    if (boost::math::cdf(b, 0.0) > tail) return std::nullopt;
    // NOTES: the rounded-down quantile is the largest j with P(B <= j) <= tail up to the
    // quantile's own rounding; the two loops make it exact against the cdf.
    auto j = static_cast<int64_t>(boost::math::quantile(b, tail));
    while (j > 0 && boost::math::cdf(b, static_cast<double>(j)) > tail) --j;
    while (j + 1 < n && boost::math::cdf(b, static_cast<double>(j + 1)) <= tail) ++j;
    MedianRanks r;
    r.lower = j + 1;
    r.upper = n - j;
    r.coverage = 1 - 2 * boost::math::cdf(b, static_cast<double>(j));
    return r;
}

double median_noise(std::vector<double> times, double confidence) {
    const auto ranks = median_ranks(static_cast<int64_t>(times.size()), confidence);
    const double med = median(times);
    if (!ranks || !(med > 0)) return std::numeric_limits<double>::infinity();
    std::sort(times.begin(), times.end());
    return (times[static_cast<size_t>(ranks->upper - 1)] - times[static_cast<size_t>(ranks->lower - 1)]) / (2 * med);
}

}  // namespace spmma

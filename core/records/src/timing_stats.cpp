#include <spmma/core/timing_stats.hpp>

#include <spmma/core/median.hpp>

#include <boost/math/distributions/normal.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace spmma {
namespace {

using Count = __int128;
constexpr int kExactLimit = 120;  // C(120, 60) ~ 1e35: the counts fit in 128 bits

// How many of the C(n+m, n) orderings of two samples give U = 0, 1, ..., n*m: the coefficients
// of the Gaussian binomial [n+m choose n](q), built from [m choose 0] = 1 by multiplying with
// (1 - q^(m+i)) / (1 - q^i) for i = 1..n. Exact integers; no table of critical values.
std::vector<Count> u_counts(int n, int m) {
    const size_t nm = static_cast<size_t>(n) * static_cast<size_t>(m);
    std::vector<Count> c(nm + static_cast<size_t>(n) + 2, 0);
    c[0] = 1;
    size_t degree = 0;
    for (int i = 1; i <= n; ++i) {
        const size_t up = static_cast<size_t>(m + i), down = static_cast<size_t>(i);
        for (size_t k = degree + up; k >= up; --k) c[k] -= c[k - up];
        degree += up;
        for (size_t k = down; k <= degree; ++k) c[k] += c[k - down];  // exact division by (1 - q^i)
        degree -= down;
    }
    c.resize(nm + 1);
    return c;
}

// n thinned to `keep` evenly spaced order statistics when it has more.
std::vector<double> sorted_logs(std::span<const double> times, int64_t keep, const char* side) {
    std::vector<double> s(times.begin(), times.end());
    for (double t : s)
        if (!(std::isfinite(t) && t > 0)) throw std::invalid_argument(fmt::format("{} time {} is not positive and finite", side, t));
    std::sort(s.begin(), s.end());
    if (static_cast<int64_t>(s.size()) > keep) {
        std::vector<double> t(static_cast<size_t>(keep));
        const double step = static_cast<double>(s.size() - 1) / static_cast<double>(keep - 1);
        for (int64_t i = 0; i < keep; ++i) t[static_cast<size_t>(i)] = s[static_cast<size_t>(std::llround(static_cast<double>(i) * step))];
        s.swap(t);
    }
    for (double& v : s) v = std::log(v);
    return s;
}

// The k-th smallest (0-based) of `d`, which it reorders.
double kth(std::vector<double>& d, size_t k) {
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(k), d.end());
    return d[k];
}

}  // namespace

double mann_whitney_cdf(int n, int m, int64_t u) {
    if (n < 0 || m < 0 || n + m > kExactLimit) throw std::invalid_argument("mann_whitney_cdf: n + m must be at most 120");
    if (u < 0) return 0.0;
    const auto c = u_counts(n, m);
    long double total = 0, below = 0;
    for (size_t i = 0; i < c.size(); ++i) {
        total += static_cast<long double>(c[i]);
        if (static_cast<int64_t>(i) <= u) below += static_cast<long double>(c[i]);
    }
    return static_cast<double>(below / total);
}

double normal_quantile(double p) {
    if (!(p > 0 && p < 1)) throw std::invalid_argument(fmt::format("normal_quantile: p = {} is not in (0, 1)", p));
    return boost::math::quantile(boost::math::normal_distribution<double>(0.0, 1.0), p);
}

int64_t mann_whitney_critical(int n, int m, double alpha, bool* exact) {
    if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument(fmt::format("alpha = {} is not in (0, 1)", alpha));
    if (n <= 0 || m <= 0) return 0;
    const int64_t nm = static_cast<int64_t>(n) * m;
    if (exact) *exact = n + m <= kExactLimit;
    if (n + m <= kExactLimit) {
        const auto c = u_counts(n, m);
        long double total = 0;
        for (Count v : c) total += static_cast<long double>(v);
        const long double limit = static_cast<long double>(alpha) / 2 * total;
        long double below = 0;
        for (int64_t u = 0; u <= nm; ++u) {
            below += static_cast<long double>(c[static_cast<size_t>(u)]);
            if (below > limit) return u;  // P(U <= u - 1) <= alpha/2 < P(U <= u)
        }
        return nm;
    }
    // Normal approximation with continuity correction: P(U <= c - 1) ~ Phi((c - 1/2 - nm/2) / sd).
    const double sd = std::sqrt(static_cast<double>(nm) * static_cast<double>(n + m + 1) / 12.0);
    const double c = std::floor(static_cast<double>(nm) / 2 + 0.5 - normal_quantile(1 - alpha / 2) * sd);
    return std::clamp<int64_t>(static_cast<int64_t>(c), 0, nm / 2);
}

RatioInterval ratio_interval(std::span<const double> old_times, std::span<const double> new_times, double confidence) {
    if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument(fmt::format("confidence {} is not in (0, 1)", confidence));
    RatioInterval r;
    const std::vector<double> x = sorted_logs(old_times, kMaxTimesPerSide, "old");
    const std::vector<double> y = sorted_logs(new_times, kMaxTimesPerSide, "new");
    r.n_old = static_cast<int64_t>(x.size());
    r.n_new = static_cast<int64_t>(y.size());
    if (x.empty() || y.empty()) return r;
    std::vector<double> d;
    d.reserve(x.size() * y.size());
    for (double yj : y)
        for (double xi : x) d.push_back(yj - xi);
    const size_t nd = d.size();
    r.estimate = std::exp(median(d));
    const int n = static_cast<int>(x.size()), m = static_cast<int>(y.size());
    const int64_t c = mann_whitney_critical(n, m, 1 - confidence, &r.exact);
    if (c == 0) return r;
    r.defined = true;
    r.lower = std::exp(kth(d, static_cast<size_t>(c - 1)));
    r.upper = std::exp(kth(d, nd - static_cast<size_t>(c)));
    r.confidence = r.exact ? 1 - 2 * mann_whitney_cdf(n, m, c - 1) : confidence;
    return r;
}

}  // namespace spmma

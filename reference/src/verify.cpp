// compute_expected and check: the reference values and tolerances of the checked elements, and
// the verdict on a plugin's D.
#include <spmma/reference/gemm.hpp>
#include <spmma/reference/tolerance.hpp>
#include <spmma/reference/verify.hpp>

#include "operand_view.hpp"

#include <spmma/types.hpp>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace spmma::reference {
namespace {

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

}  // namespace

namespace {

// `count` distinct values of [0, bound) including 0 and bound - 1, increasing.
std::vector<int64_t> pick_lines(int64_t bound, int64_t count, uint64_t& state) {
    std::vector<int64_t> out;
    if (count >= bound) {
        for (int64_t i = 0; i < bound; ++i) out.push_back(i);
        return out;
    }
    std::vector<int64_t> chosen = {0};
    if (bound > 1 && count > 1) chosen.push_back(bound - 1);
    std::sort(chosen.begin(), chosen.end());
    while (static_cast<int64_t>(chosen.size()) < count) {
        const auto x = static_cast<int64_t>(splitmix(state) % static_cast<uint64_t>(bound));
        const auto at = std::lower_bound(chosen.begin(), chosen.end(), x);
        if (at == chosen.end() || *at != x) chosen.insert(at, x);
    }
    return chosen;
}

}  // namespace

SampleGrid sample_grid(int64_t m, int64_t n, const VerifyOptions& o) {
    uint64_t state = o.seed ^ 0x5eed5eed5eed5eedull;
    const int64_t want = std::max<int64_t>(1, o.samples);
    int64_t rows = std::min<int64_t>(m, static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(want)))));
    const int64_t cols = std::min<int64_t>(n, (want + rows - 1) / rows);
    rows = std::min<int64_t>(m, (want + cols - 1) / cols);  // a narrow D gets more rows
    SampleGrid g;
    g.rows = pick_lines(m, rows, state);
    g.cols = pick_lines(n, cols, state);
    return g;
}

std::vector<int64_t> sample_indices(int64_t m, int64_t n, const VerifyOptions& o) {
    const SampleGrid g = sample_grid(m, n, o);
    std::vector<int64_t> idx;
    idx.reserve(g.rows.size() * g.cols.size());
    for (const int64_t i : g.rows)
        for (const int64_t j : g.cols) idx.push_back(i * n + j);
    return idx;
}

VerifyMode resolve_mode(const VerifyOptions& options, int64_t m, int64_t n, int64_t k) {
    if (options.mode != VerifyMode::Auto) return options.mode;
    const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) / 2;
    return macs <= options.full_max_macs ? VerifyMode::Full : VerifyMode::Sampled;
}

namespace {

// The value and tolerance of one element from its raw sums.
void finish_element(const detail::OperandView& v, const ToleranceModel& tol, int64_t i, int64_t j, double acc, double abs, int lsb,
                    double& value, double& tolerance) {
    const double c = v.c_value(i, j);
    double pre = 0;
    value = detail::finish(v, i, j, acc, c, &pre);
    if (v.integer) {
        tolerance = 0;
        return;
    }
    ElementTerms t;
    t.value = value;
    t.acc = acc;
    t.abs_sum = abs;
    t.beta_c = v.has_c ? v.beta * c : 0.0;
    t.quantum = detail::quantum_of(lsb);
    t.pre = pre;
    t.scale = v.vector_scale(i, j);
    t.bias = v.bias(i, j);
    tolerance = tol(t);
}

// Smallest magnitude that rounds to infinity in d_type (RNE): max + half the top ulp.
double overflow_threshold(DType d) { return info(d).max_finite + 0.5 * ulp(d, info(d).max_finite); }

}  // namespace

Expected compute_expected(const GemmInput& input, const VerifyOptions& options) {
    const detail::OperandView v(input);
    const ToleranceModel tol(input.problem);
    Expected ex;
    ex.m = v.m;
    ex.n = v.n;
    ex.tolerance_rule = tol.description();
    ex.mode = resolve_mode(options, v.m, v.n, v.k);
    if (ex.mode == VerifyMode::None) throw std::invalid_argument("compute_expected: verification mode 'none' has no reference");

    if (ex.mode == VerifyMode::Full) {
        const size_t count = static_cast<size_t>(v.m * v.n);
        ex.value.resize(count);
        ex.tolerance.resize(count);  // holds the abs sums until the epilogue below
        std::vector<int> row_lsb(static_cast<size_t>(v.m)), col_lsb(static_cast<size_t>(v.n));
        detail::accumulate_full(v, ex.value.data(), v.integer ? nullptr : ex.tolerance.data(), row_lsb.data(), col_lsb.data());
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < v.m; ++i)
            for (int64_t j = 0; j < v.n; ++j) {
                const size_t x = static_cast<size_t>(i * v.n + j);
                const int rl = row_lsb[static_cast<size_t>(i)], cl = col_lsb[static_cast<size_t>(j)];
                const int lsb = (rl == INT_MAX || cl == INT_MAX) ? INT_MAX : rl + cl;
                finish_element(v, tol, i, j, ex.value[x], v.integer ? 0.0 : ex.tolerance[x], lsb, ex.value[x], ex.tolerance[x]);
            }
        return ex;
    }

    ex.index = sample_indices(v.m, v.n, options);
    ex.value.resize(ex.index.size());
    ex.tolerance.resize(ex.index.size());
    // Runs of indices in one row share that row's decoded entries.
    std::vector<size_t> starts;
    for (size_t x = 0; x < ex.index.size(); ++x)
        if (x == 0 || ex.index[x] / v.n != ex.index[x - 1] / v.n) starts.push_back(x);
    starts.push_back(ex.index.size());
    const int64_t runs = static_cast<int64_t>(starts.size()) - 1;
#pragma omp parallel
    {
        std::vector<double> values(static_cast<size_t>(v.entries));
        std::vector<int32_t> columns(static_cast<size_t>(v.entries));
#pragma omp for schedule(dynamic, 1)
        for (int64_t run = 0; run < runs; ++run) {
            const size_t r = static_cast<size_t>(run);
            const int64_t i = ex.index[starts[r]] / v.n;
            v.a_row(i, 0, v.entries, values.data(), columns.data());
            int row_lsb = INT_MAX;
            for (double a : values) row_lsb = std::min(row_lsb, detail::lsb_exponent(a));
            for (size_t x = starts[r]; x < starts[r + 1]; ++x) {
                const int64_t j = ex.index[x] % v.n;
                const auto e = detail::raw_element(v, values.data(), columns.data(), row_lsb, j);
                finish_element(v, tol, i, j, e.acc, e.abs, e.lsb, ex.value[x], ex.tolerance[x]);
            }
        }
    }
    return ex;
}

Verdict check(const GemmInput& input, const Expected& expected, const void* d, int max_report, bool compact) {
    const DType dt = static_cast<DType>(input.problem.d_type);
    if (!d) throw std::invalid_argument("check: no D");
    if (input.problem.m != expected.m || input.problem.n != expected.n) throw std::invalid_argument("check: D and the reference differ in size");
    const bool full = expected.mode == VerifyMode::Full;
    if (compact && full) throw std::invalid_argument("check: compact values are for sampled checks");
    const int64_t count = full ? expected.m * expected.n : static_cast<int64_t>(expected.index.size());
    if (static_cast<int64_t>(expected.value.size()) != count || static_cast<int64_t>(expected.tolerance.size()) != count)
        throw std::invalid_argument("check: the reference holds the wrong number of elements");
    const bool integer = is_integer(dt);
    const double overflow = integer ? 0 : overflow_threshold(dt);
    const size_t report = static_cast<size_t>(std::max(0, max_report));

    Verdict verdict;
    verdict.mode = full ? "full" : "sampled";
    verdict.checked = count;
    verdict.tolerance_rule = expected.tolerance_rule;

    const int threads = omp_get_max_threads();
    std::vector<Verdict> part(static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
    {
        Verdict& mine = part[static_cast<size_t>(omp_get_thread_num())];
        // Static, contiguous chunks in thread order: concatenating the threads' first mismatches
        // keeps index order.
#pragma omp for schedule(static)
        for (int64_t x = 0; x < count; ++x) {
            const int64_t flat = full ? x : expected.index[static_cast<size_t>(x)];
            const double want = expected.value[static_cast<size_t>(x)];
            const double tol = expected.tolerance[static_cast<size_t>(x)];
            const double got = decode(dt, load_code(dt, d, compact ? x : flat));
            bool ok;
            if (integer) {
                ok = got == want;
            } else if (std::isnan(got)) {
                // NOTES: a NaN in D is never verified, not even where the reference has one: a NaN
                // reference vouches for nothing (finite alpha, beta and operands never make one).
                ok = false;
                ++mine.nan_count;
            } else if (std::isnan(want)) {
                ok = false;
            } else if (std::isinf(want)) {
                ok = got == want;
            } else if (std::isinf(got)) {
                // Correct when some value within the tolerance rounds to this infinity.
                ok = std::signbit(got) == std::signbit(want) && std::fabs(want) + tol >= overflow;
            } else {
                ok = std::fabs(got - want) <= tol;
            }
            if (std::isfinite(got) && std::isfinite(want)) {
                const double err = std::fabs(got - want);
                mine.max_abs_error = std::max(mine.max_abs_error, err);
                if (want != 0) mine.max_rel_error = std::max(mine.max_rel_error, err / std::fabs(want));
                if (tol > 0) mine.max_tolerance_ratio = std::max(mine.max_tolerance_ratio, err / tol);
            }
            if (!ok) {
                ++mine.mismatches;
                if (mine.first.size() < report) mine.first.push_back({flat / expected.n, flat % expected.n, got, want, tol});
            }
        }
    }
    for (const auto& p : part) {
        verdict.mismatches += p.mismatches;
        verdict.nan_count += p.nan_count;
        verdict.max_abs_error = std::max(verdict.max_abs_error, p.max_abs_error);
        verdict.max_rel_error = std::max(verdict.max_rel_error, p.max_rel_error);
        verdict.max_tolerance_ratio = std::max(verdict.max_tolerance_ratio, p.max_tolerance_ratio);
        for (const auto& mm : p.first)
            if (verdict.first.size() < report) verdict.first.push_back(mm);
    }
    verdict.passed = verdict.mismatches == 0;
    return verdict;
}

}  // namespace spmma::reference

// Verification: a correct D passes; full and sampled modes catch a planted wrong element, NaN
// (also where the reference is NaN),
// an integer off by one, a wrong index byte; sampled mode checks whole rows and columns; auto
// picks by size; data of small integers is held to the output rounding alone.
#include "make_problem.hpp"

#include <spmma/reference/gemm.hpp>
#include <spmma/reference/tolerance.hpp>
#include <spmma/reference/verify.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace spmma;
using spmma::test::ProblemSpec;
using spmma::test::TestProblem;

namespace {

reference::VerifyOptions options(reference::VerifyMode mode, int64_t samples = 50) {
    reference::VerifyOptions o;
    o.mode = mode;
    o.samples = samples;
    o.seed = 5;
    return o;
}

// D with element (i, j) moved to a value outside its tolerance (by 4 tolerances, at least a
// few ulps / one integer).
std::vector<uint8_t> plant(const TestProblem& t, const reference::Expected& ex, std::vector<uint8_t> d, int64_t i, int64_t j) {
    const DType dt = t.spec.d;
    const int64_t flat = i * t.spec.n + j;
    int64_t x = flat;
    if (ex.mode == reference::VerifyMode::Sampled) {
        auto it = std::lower_bound(ex.index.begin(), ex.index.end(), flat);
        REQUIRE((it != ex.index.end() && *it == flat));
        x = it - ex.index.begin();
    }
    const double want = ex.value[static_cast<size_t>(x)];
    if (is_integer(dt)) {
        store_code(dt, d.data(), flat, encode(dt, want + 1));
    } else {
        const double tol = ex.tolerance[static_cast<size_t>(x)];
        store_code(dt, d.data(), flat, encode(dt, want + 4 * tol + 4 * ulp(dt, want)));
    }
    return d;
}

}  // namespace

TEST_CASE("a correct D (the reference rounded to d_type) passes full and sampled verification for every type combination") {
    for (auto spec : test::all_combinations())
        for (auto values : {test::Values::Uniform, test::Values::SmallInt}) {
            spec.values = values;
            INFO(spec.label());
            const TestProblem t(spec);
            const auto d = reference::reference_d(t.input());
            for (auto mode : {reference::VerifyMode::Full, reference::VerifyMode::Sampled}) {
                const auto ex = reference::compute_expected(t.input(), options(mode));
                const auto v = reference::check(t.input(), ex, d.data());
                INFO(v.tolerance_rule);
                REQUIRE(v.passed);
                REQUIRE(v.mismatches == 0);
                REQUIRE(v.nan_count == 0);
                REQUIRE(v.mode == (mode == reference::VerifyMode::Full ? "full" : "sampled"));
                REQUIRE(v.max_tolerance_ratio <= 1.0);
                if (is_integer(spec.a)) REQUIRE(v.max_abs_error == 0);
            }
        }
}

TEST_CASE("full and sampled expected values equal the naive loop, and sampled is a grid of rows and columns with the edges in it") {
    ProblemSpec s;
    s.m = 41;
    s.n = 33;
    s.k = 68;
    s.beta = 1;
    const TestProblem t(s);
    const auto naive = test::naive_gemm(t);
    const auto full = reference::compute_expected(t.input(), options(reference::VerifyMode::Full));
    REQUIRE(full.index.empty());
    REQUIRE(full.value.size() == naive.size());
    for (size_t x = 0; x < naive.size(); ++x) REQUIRE(full.value[x] == Approx(naive[x]).epsilon(1e-12).margin(1e-12));
    const auto sampled = reference::compute_expected(t.input(), options(reference::VerifyMode::Sampled, 100));
    REQUIRE(std::is_sorted(sampled.index.begin(), sampled.index.end()));
    REQUIRE(std::adjacent_find(sampled.index.begin(), sampled.index.end()) == sampled.index.end());
    for (size_t x = 0; x < sampled.index.size(); ++x) {
        REQUIRE(sampled.value[x] == full.value[static_cast<size_t>(sampled.index[x])]);
        REQUIRE(sampled.tolerance[x] == Approx(full.tolerance[static_cast<size_t>(sampled.index[x])]).epsilon(1e-12));
    }
    // Every sampled row meets every sampled column: R x C elements, 10 x 10 for 100 samples, the
    // first and last row and column among them.
    std::set<int64_t> rows, cols;
    for (auto f : sampled.index) {
        rows.insert(f / s.n);
        cols.insert(f % s.n);
    }
    REQUIRE(rows.size() == 10);
    REQUIRE(cols.size() == 10);
    REQUIRE(sampled.index.size() == rows.size() * cols.size());
    REQUIRE(rows.count(0));
    REQUIRE(rows.count(s.m - 1));
    REQUIRE(cols.count(0));
    REQUIRE(cols.count(s.n - 1));
}

TEST_CASE("the sample grid takes every row or column a narrow D has, and more of the other, for about the samples asked") {
    reference::VerifyOptions o = options(reference::VerifyMode::Sampled, 4096);
    const auto tall = reference::sample_grid(5000, 3, o);
    CHECK(tall.cols == std::vector<int64_t>{0, 1, 2});
    CHECK(tall.rows.size() == 1366);
    const auto square = reference::sample_grid(16384, 16384, o);
    CHECK(square.rows.size() == 64);
    CHECK(square.cols.size() == 64);
    CHECK(reference::sample_grid(16384, 16384, o).rows == square.rows);  // a function of the seed
    o.seed = 6;
    CHECK(reference::sample_grid(16384, 16384, o).rows != square.rows);
}

TEST_CASE("full verification catches a single planted wrong element and reports its coordinates") {
    for (DType a : {DType::F16, DType::BF16, DType::E4M3, DType::S8})
        for (auto values : {test::Values::Uniform, test::Values::SmallInt}) {
            ProblemSpec s;
            s.a = s.b = a;
            s.acc = is_integer(a) ? DType::S32 : DType::F32;
            s.d = is_integer(a) ? DType::S32 : (a == DType::BF16 ? DType::BF16 : DType::F16);
            s.values = values;
            s.beta = 1;
            INFO(s.label());
            const TestProblem t(s);
            const auto ex = reference::compute_expected(t.input(), options(reference::VerifyMode::Full));
            const auto d = plant(t, ex, reference::reference_d(t.input()), 19, 7);
            const auto v = reference::check(t.input(), ex, d.data());
            REQUIRE_FALSE(v.passed);
            REQUIRE(v.mismatches == 1);
            REQUIRE(v.checked == s.m * s.n);
            REQUIRE(v.first.size() == 1);
            REQUIRE(v.first[0].i == 19);
            REQUIRE(v.first[0].j == 7);
            REQUIRE(v.max_abs_error > 0);
            REQUIRE(v.max_rel_error > 0);
            if (!is_integer(a)) REQUIRE(v.max_tolerance_ratio > 1.0);
        }
}

TEST_CASE("sampled verification catches a planted wrong element in a sampled row, column or single sample") {
    ProblemSpec s;
    s.m = 50;
    s.n = 40;
    s.k = 64;
    const TestProblem t(s);
    const auto ex = reference::compute_expected(t.input(), options(reference::VerifyMode::Sampled, 30));
    const auto good = reference::reference_d(t.input());
    for (size_t pick : {size_t{0}, ex.index.size() / 3, ex.index.size() - 1}) {
        const int64_t flat = ex.index[pick];
        const auto d = plant(t, ex, good, flat / s.n, flat % s.n);
        const auto v = reference::check(t.input(), ex, d.data());
        REQUIRE_FALSE(v.passed);
        REQUIRE(v.mismatches == 1);
        REQUIRE(v.first.at(0).i == flat / s.n);
        REQUIRE(v.first.at(0).j == flat % s.n);
    }
}

TEST_CASE("NaN in D where the reference has none always fails, counted apart") {
    for (DType d : {DType::F16, DType::BF16, DType::F32}) {
        ProblemSpec s;
        s.d = d;
        const TestProblem t(s);
        auto out = reference::reference_d(t.input());
        store_code(d, out.data(), 5, encode(d, NAN));
        store_code(d, out.data(), 6 * s.n + 1, encode(d, NAN));
        for (auto mode : {reference::VerifyMode::Full, reference::VerifyMode::Sampled}) {
            auto o = options(mode, s.m * s.n);  // every element sampled
            const auto v = reference::check(t.input(), reference::compute_expected(t.input(), o), out.data());
            REQUIRE_FALSE(v.passed);
            REQUIRE(v.nan_count == 2);
            REQUIRE(v.mismatches == 2);
            REQUIRE(v.first.at(0).j == 5);
            REQUIRE(std::isnan(v.first.at(0).got));
        }
    }
}

TEST_CASE("a D that is NaN everywhere fails even where the reference is NaN too (alpha = NaN)") {
    ProblemSpec s;
    s.alpha = NAN;
    const TestProblem t(s);
    const auto out = reference::reference_d(t.input());
    REQUIRE(std::isnan(decode(s.d, load_code(s.d, out.data(), 0))));
    for (auto mode : {reference::VerifyMode::Full, reference::VerifyMode::Sampled}) {
        const auto v = reference::check(t.input(), reference::compute_expected(t.input(), options(mode)), out.data());
        REQUIRE_FALSE(v.passed);
        REQUIRE(v.mismatches == v.checked);
        REQUIRE(v.nan_count == v.checked);
    }
}

TEST_CASE("integer D must be bit-exact: one element off by one fails") {
    for (bool sat : {false, true}) {
        ProblemSpec s;
        s.a = DType::S4;
        s.b = DType::U4;
        s.pattern = SPMMA_PATTERN_4_8_PAIRWISE;
        s.k = 40;
        s.acc = s.d = DType::S32;
        s.saturate = sat;
        s.alpha = 7;
        s.beta = 1;
        const TestProblem t(s);
        const auto ex = reference::compute_expected(t.input(), options(reference::VerifyMode::Full));
        for (double tol : ex.tolerance) REQUIRE(tol == 0);
        const auto d = plant(t, ex, reference::reference_d(t.input()), 36, 28);
        const auto v = reference::check(t.input(), ex, d.data());
        REQUIRE_FALSE(v.passed);
        REQUIRE(v.mismatches == 1);
        REQUIRE(v.max_abs_error == 1);
        REQUIRE(v.tolerance_rule.find("bit-exact") != std::string::npos);
    }
}

TEST_CASE("auto verification is full up to full_max_macs sparse multiply-adds and sampled above") {
    ProblemSpec s;  // 37 x 29 x 36: 19314 sparse MACs
    const TestProblem t(s);
    auto o = options(reference::VerifyMode::Auto);
    o.full_max_macs = 37.0 * 29 * 36 / 2;
    REQUIRE(reference::compute_expected(t.input(), o).mode == reference::VerifyMode::Full);
    o.full_max_macs -= 1;
    REQUIRE(reference::compute_expected(t.input(), o).mode == reference::VerifyMode::Sampled);
    REQUIRE_THROWS(reference::compute_expected(t.input(), options(reference::VerifyMode::None)));
}

TEST_CASE("small-integer data is exact in every accumulator: the tolerance is half an ulp of d_type at the value") {
    // Unscaled problems: random block scales spread the products over 2^16 and need more bits
    // than the 8/6/4-bit kinds' 14.
    for (auto spec : test::all_combinations()) {
        if (is_integer(spec.a) || spec.scale != DType::None) continue;
        spec.values = test::Values::SmallInt;
        spec.alpha = 2;
        spec.beta = -1;
        INFO(spec.label());
        const TestProblem t(spec);
        const auto ex = reference::compute_expected(t.input(), options(reference::VerifyMode::Full));
        for (size_t x = 0; x < ex.value.size(); ++x) {
            INFO("element " << x << " value " << ex.value[x]);
            REQUIRE(ex.tolerance[x] == 0.5 * ulp(spec.d, ex.value[x]));
        }
    }
}

TEST_CASE("a plugin that multiplies one wrong element of A fails verification") {
    // The plugin's bug: one index byte of one row read as another selection (the wrong column
    // of B is multiplied with two of that row's values). Uniform f16 data with f32 accumulation
    // at k = 256, and small-integer e4m3 data: both caught.
    for (DType a : {DType::F16, DType::E4M3})
        for (auto values : {test::Values::Uniform, test::Values::SmallInt}) {
            ProblemSpec s;
            s.m = 24;
            s.n = 24;
            s.k = 256;
            s.a = s.b = a;
            s.d = DType::F32;
            s.values = values;
            s.seed = 77;
            INFO(s.label());
            const TestProblem t(s);
            TestProblem bug = t;
            uint8_t& idx = bug.a_indices[5 * (256 / 4) + 17];
            idx = idx == 0xe ? 0x4 : 0xe;  // (2,3) <-> (0,1): both kept columns move
            const auto d = reference::reference_d(bug.input());
            const auto v = reference::check(t.input(), reference::compute_expected(t.input(), options(reference::VerifyMode::Full)), d.data());
            REQUIRE_FALSE(v.passed);
            for (const auto& mm : v.first) REQUIRE(mm.i == 5);  // only row 5 is wrong
            REQUIRE(v.mismatches >= s.n / 2);                   // and most of it is caught
        }
}

TEST_CASE("overflow: an infinity in D passes where the reference rounds past d_type's largest value, and only there") {
    ProblemSpec s;
    s.d = DType::F16;
    s.alpha = 3e4;  // much of alpha*acc is past f16's 65504, some of it small
    const TestProblem t(s);
    const auto ex = reference::compute_expected(t.input(), options(reference::VerifyMode::Full));
    const auto d = reference::reference_d(t.input());
    int infinite = 0;
    for (int64_t x = 0; x < s.m * s.n; ++x) infinite += std::isinf(decode(DType::F16, load_code(DType::F16, d.data(), x)));
    REQUIRE(infinite > 0);
    REQUIRE(reference::check(t.input(), ex, d.data()).passed);
    // An infinity where the value is small fails.
    auto bad = d;
    size_t x = 0;
    while (x < ex.value.size() && std::fabs(ex.value[x]) > 1000) ++x;
    REQUIRE(x < ex.value.size());
    store_code(DType::F16, bad.data(), static_cast<int64_t>(x), 0x7c00);
    REQUIRE(reference::check(t.input(), ex, bad.data()).mismatches == 1);
}

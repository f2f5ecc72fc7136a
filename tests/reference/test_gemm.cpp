// The reference GEMM against an independent naive triple loop over the dense A, for every type
// combination, at odd sizes and across every cache-block edge; hand-computed cases for the
// compressed-A and block-scaling semantics; input validation.
#include "make_problem.hpp"

#include <spmma/reference/gemm.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

using namespace spmma;
using spmma::test::ProblemSpec;
using spmma::test::TestProblem;

namespace {

// Both sides sum exactly representable products in double, in different orders.
void require_same(const TestProblem& t, const std::vector<double>& got, const std::vector<double>& got_abs) {
    std::vector<double> want_abs;
    const auto want = test::naive_gemm(t, &want_abs);
    REQUIRE(got.size() == want.size());
    for (size_t x = 0; x < want.size(); ++x) {
        INFO("element (" << x / t.spec.n << ", " << x % t.spec.n << ")");
        if (is_integer(t.spec.a)) {
            REQUIRE(got[x] == want[x]);
        } else {
            const double c = t.spec.beta != 0 ? decode(t.spec.d, load_code(t.spec.d, t.c.data(), static_cast<int64_t>(x))) : 0.0;
            const double scale = std::fabs(t.spec.alpha) * want_abs[x] + std::fabs(t.spec.beta * c);
            REQUIRE(std::fabs(got[x] - want[x]) <= 1e-12 * scale);
        }
        if (!got_abs.empty()) REQUIRE(std::fabs(got_abs[x] - want_abs[x]) <= 1e-12 * want_abs[x]);
    }
}

}  // namespace

TEST_CASE("reference equals a naive triple loop for every type combination at odd sizes (m=37, n=29, k not a multiple of 16)") {
    for (auto spec : test::all_combinations())
        for (auto values : {test::Values::Uniform, test::Values::SmallInt}) {
            spec.values = values;
            INFO(spec.label());
            const TestProblem t(spec);
            std::vector<double> abs;
            const auto got = reference::gemm_full(t.input(), &abs);
            require_same(t, got, abs);
            // One element on its own gives the same value and abs sum.
            double e_abs = 0;
            const double e = reference::gemm_element(t.input(), 17, 23, &e_abs);
            REQUIRE(e == Approx(got[17 * 29 + 23]).epsilon(1e-12));
            REQUIRE(e_abs == Approx(abs[17 * 29 + 23]).epsilon(1e-12));
        }
}

TEST_CASE("reference crosses every cache-block edge (m=37, n=290, k=300) and equals the naive loop") {
    for (DType a : {DType::F16, DType::S8, DType::E2M1}) {
        ProblemSpec s;
        s.m = 37;
        s.n = 290;
        s.k = 300;
        s.a = s.b = a;
        s.acc = is_integer(a) ? DType::S32 : DType::F32;
        s.d = is_integer(a) ? DType::S32 : DType::F32;
        s.alpha = is_integer(a) ? -2 : 0.5;
        s.beta = is_integer(a) ? 1 : 2;
        s.seed = 9;
        INFO(s.label());
        const TestProblem t(s);
        std::vector<double> abs;
        require_same(t, reference::gemm_full(t.input(), &abs), abs);
        require_same(t, reference::gemm_full(t.input()), {});
    }
}

TEST_CASE("the baseline x86-64 kernel body gives bit-identical results to the AVX2+FMA one") {
    for (DType a : {DType::BF16, DType::S8}) {
        ProblemSpec s;
        s.m = 21;
        s.n = 37;
        s.k = 300;
        s.a = s.b = a;
        s.acc = is_integer(a) ? DType::S32 : DType::F32;
        s.d = is_integer(a) ? DType::S32 : DType::F32;
        const TestProblem t(s);
        std::vector<double> abs_fast, abs_base;
        const auto fast = reference::gemm_full(t.input(), &abs_fast);
        setenv("SPMMA_REFERENCE_ISA", "baseline", 1);
        const auto base = reference::gemm_full(t.input(), &abs_base);
        unsetenv("SPMMA_REFERENCE_ISA");
        REQUIRE(fast == base);
        REQUIRE(abs_fast == abs_base);
        require_same(t, base, abs_base);
    }
}

TEST_CASE("integer epilogue: alpha*acc + beta*C in 64 bits, wrapped to 32 bits, or clamped with satfinite") {
    for (bool sat : {false, true}) {
        ProblemSpec s;
        s.a = DType::S8;
        s.b = DType::U8;
        s.acc = s.d = DType::S32;
        s.k = 44;
        s.alpha = 1 << 22;  // |alpha*acc| up to about 2^22 * 22 * 2^15: far outside 32 bits
        s.beta = -(1 << 20);
        s.saturate = sat;
        s.seed = 21;
        INFO(s.label());
        const TestProblem t(s);
        const auto got = reference::gemm_full(t.input());
        require_same(t, got, {});
        int outside = 0;
        for (double v : got) {
            REQUIRE(v >= INT32_MIN);
            REQUIRE(v <= INT32_MAX);
            outside += sat && (v == INT32_MAX || v == INT32_MIN);
        }
        if (sat) REQUIRE(outside > 0);  // the case really clamps
    }
}

TEST_CASE("compressed A: only the kept positions an index byte names are multiplied, in increasing column order") {
    // One row, k = 8 (two 2:4 groups): group 0 keeps columns 1 and 3 (0xd), group 1 keeps 4 and 6
    // (0x8 = positions 0 and 2). Values 2, 3, 5, 7. B column 0 is 1, 10, 100, ..., 10^7.
    ProblemSpec s;
    s.m = 1;
    s.n = 1;
    s.k = 8;
    s.a = s.b = DType::F16;
    s.d = DType::F32;
    TestProblem t(s);
    const double vals[4] = {2, 3, 5, 7};
    for (int x = 0; x < 4; ++x) store_code(DType::F16, t.a_values.data(), x, encode(DType::F16, vals[x]));
    t.a_indices = {0xd, 0x8};
    double p = 1;
    for (int kk = 0; kk < 8; ++kk, p *= 10) store_code(DType::F16, t.b.data(), kk, encode(DType::F16, p / 1000.0));
    // 2*10^1 + 3*10^3 + 5*10^4 + 7*10^6, all over 1000 (f16 rounds B: use the decoded values)
    double want = 0;
    const int cols[4] = {1, 3, 4, 6};
    for (int x = 0; x < 4; ++x) want += vals[x] * decode(DType::F16, load_code(DType::F16, t.b.data(), cols[x]));
    REQUIRE(reference::gemm_full(t.input())[0] == want);

    // Pairwise 4:8 (e2m1, packed): index 0xe keeps pairs 2 and 3, i.e. columns 4, 5, 6, 7.
    s.a = s.b = DType::E2M1;
    s.pattern = SPMMA_PATTERN_4_8_PAIRWISE;
    s.scale = DType::UE8M0;
    s.scale_block = 8;  // not a hardware block size; the reference takes any divisor of k
    TestProblem q(s);
    q.a_indices = {0xe};
    for (int x = 0; x < 4; ++x) store_code(DType::E2M1, q.a_values.data(), x, encode(DType::E2M1, vals[x] / 2));  // 1, 1.5, 2.5->2, 3.5->4
    for (int kk = 0; kk < 8; ++kk) store_code(DType::E2M1, q.b.data(), kk, encode(DType::E2M1, kk < 4 ? 6.0 : 1.0));
    q.scale_a = {127};
    q.scale_b = {128};
    REQUIRE(reference::gemm_full(q.input())[0] == (1 + 1.5 + 2 + 4) * 2.0);
    // 1:2 (tf32): index 1 keeps the second of each pair.
    ProblemSpec r;
    r.m = r.n = 1;
    r.k = 4;
    r.a = r.b = DType::TF32;
    r.d = DType::F32;
    r.pattern = SPMMA_PATTERN_1_2;
    TestProblem u(r);
    u.a_indices = {1, 0};
    store_code(DType::TF32, u.a_values.data(), 0, encode(DType::TF32, 3.0));
    store_code(DType::TF32, u.a_values.data(), 1, encode(DType::TF32, 5.0));
    for (int kk = 0; kk < 4; ++kk) store_code(DType::TF32, u.b.data(), kk, encode(DType::TF32, 1 << kk));
    REQUIRE(reference::gemm_full(u.input())[0] == 3.0 * 2 + 5.0 * 4);
}

TEST_CASE("block scaling: each K block's partial sum is multiplied by scale_A[row][block] * scale_B[column][block]") {
    // e2m1 4:8, k = 64, block 32: 16 kept ones per block, B all ones.
    ProblemSpec s;
    s.m = 1;
    s.n = 2;
    s.k = 64;
    s.a = s.b = DType::E2M1;
    s.d = DType::F32;
    s.pattern = SPMMA_PATTERN_4_8_PAIRWISE;
    s.scale = DType::UE8M0;
    s.scale_block = 32;
    TestProblem t(s);
    for (int64_t x = 0; x < 32; ++x) store_code(DType::E2M1, t.a_values.data(), x, encode(DType::E2M1, 1.0));
    for (int64_t x = 0; x < 128; ++x) store_code(DType::E2M1, t.b.data(), x, encode(DType::E2M1, 1.0));
    t.scale_a = {128, 126};            // 2, 0.5
    t.scale_b = {129, 127, 127, 130};  // column 0: 4, 1; column 1: 1, 8
    const auto d = reference::gemm_full(t.input());
    REQUIRE(d[0] == 16 * 2 * 4 + 16 * 0.5 * 1);
    REQUIRE(d[1] == 16 * 2 * 1 + 16 * 0.5 * 8);
    // ue4m3 scales (nvf4): 1.5 and 0.375.
    s.scale = DType::UE4M3;
    s.scale_block = 16;
    s.n = 1;
    TestProblem u(s);
    for (int64_t x = 0; x < 32; ++x) store_code(DType::E2M1, u.a_values.data(), x, encode(DType::E2M1, 1.0));
    for (int64_t x = 0; x < 64; ++x) store_code(DType::E2M1, u.b.data(), x, encode(DType::E2M1, 1.0));
    const uint8_t s15 = static_cast<uint8_t>(encode(DType::UE4M3, 1.5)), s0375 = static_cast<uint8_t>(encode(DType::UE4M3, 0.375));
    u.scale_a = {s15, s15, s0375, s0375};
    u.scale_b = {s15, s0375, s15, s0375};
    REQUIRE(reference::gemm_full(u.input())[0] == 8 * (1.5 * 1.5 + 1.5 * 0.375 + 0.375 * 1.5 + 0.375 * 0.375));
}

TEST_CASE("floating epilogue: beta = 0 ignores C (even NaN), reference_d rounds alpha*acc + beta*C to d_type to nearest even") {
    ProblemSpec s;
    s.beta = 0;
    s.alpha = 0.3;
    TestProblem t(s);
    auto in = t.input();
    std::vector<uint8_t> nan_c(storage_bytes(DType::F16, s.m * s.n), 0xff);  // all NaN
    in.operands.c = nan_c.data();
    in.operands.c_bytes = nan_c.size();
    const auto v = reference::gemm_full(in);
    for (double x : v) REQUIRE(std::isfinite(x));
    for (DType d : {DType::F16, DType::BF16, DType::F32}) {
        s.d = d;
        s.beta = 0.5;
        const TestProblem u(s);
        const auto value = reference::gemm_full(u.input());
        const auto bytes = reference::reference_d(u.input());
        REQUIRE(bytes.size() == storage_bytes(d, s.m * s.n));
        for (int64_t x = 0; x < s.m * s.n; ++x) REQUIRE(load_code(d, bytes.data(), x) == encode(d, value[static_cast<size_t>(x)]));
    }
}

TEST_CASE("operands that do not match the problem are rejected with the reason") {
    ProblemSpec s;
    TestProblem t(s);
    t.a_indices[3 * 9 + 4] = 0x6;  // (2, 1): not increasing
    REQUIRE_THROWS_WITH(reference::gemm_full(t.input()), Catch::Contains("index byte 0x06 at row 3, group 4"));
    TestProblem u(s);
    auto in = u.input();
    in.operands.b_bytes -= 1;
    REQUIRE_THROWS_WITH(reference::gemm_full(in), Catch::Contains("B has"));
    in = u.input();
    in.problem.k = 34;  // not a multiple of 4
    REQUIRE_THROWS_WITH(reference::gemm_full(in), Catch::Contains("not a multiple"));
    s.beta = 1;
    TestProblem w(s);
    in = w.input();
    in.operands.c = nullptr;
    REQUIRE_THROWS(reference::gemm_full(in));
    in = w.input();
    in.problem.acc_type = SPMMA_S32;
    REQUIRE_THROWS(reference::gemm_full(in));
}

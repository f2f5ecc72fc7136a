// The epilogue of ABI 1.2 in the reference: act(alpha*rs[i]*cs[j]*acc + beta*C + bias) computed
// exactly and rounded once, against values worked out by hand; its tolerance (an f32 epilogue
// passes, a missing scale or bias does not); the activations' slopes the bound assumes.
#include "make_problem.hpp"

#include <spmma/reference/gemm.hpp>
#include <spmma/reference/tolerance.hpp>
#include <spmma/reference/verify.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

using namespace spmma;
using spmma::test::ProblemSpec;
using spmma::test::TestProblem;

namespace {

// 2 x 2 x 4 f16 with A = [[1 2 0 0], [0 0 3 -1]], B columns [1 1 1 1] and [2 0 1 0]: the
// accumulator is [[3 2], [2 3]].
struct HandProblem {
    TestProblem t;
    std::vector<float> rs{2.0f, 0.5f}, cs{1.0f, -3.0f}, bias{1.0f, -2.0f};
    spmma_problem p;
    spmma_operands o;

    HandProblem() : t(spec()) {
        const double a[4] = {1, 2, 3, -1};
        for (int x = 0; x < 4; ++x) store_code(DType::F16, t.a_values.data(), x, encode(DType::F16, a[x]));
        t.a_indices = {0x4, 0xe};  // row 0 keeps columns 0, 1; row 1 columns 2, 3
        const double b[8] = {1, 1, 1, 1, 2, 0, 1, 0};
        for (int x = 0; x < 8; ++x) store_code(DType::F16, t.b.data(), x, encode(DType::F16, b[x]));
        const double c[4] = {4, 8, -4, 0};
        for (int x = 0; x < 4; ++x) store_code(DType::F16, t.c.data(), x, encode(DType::F16, c[x]));
        p = t.problem();
        p.alpha = 0.5;
        p.beta = 0.25;
        p.row_scale = p.col_scale = 1;
        p.bias = SPMMA_BIAS_COL;
        p.bias_type = SPMMA_F32;
        o = t.operands();
        o.row_scale = rs.data();
        o.row_scale_bytes = 8;
        o.col_scale = cs.data();
        o.col_scale_bytes = 8;
        o.bias = bias.data();
        o.bias_bytes = 8;
    }
    static ProblemSpec spec() {
        ProblemSpec s;
        s.m = s.n = 2;
        s.k = 4;
        s.d = DType::F16;
        s.beta = 0.25;
        return s;
    }
    std::vector<double> full(int32_t activation) {
        p.activation = activation;
        return reference::gemm_full({p, o});
    }
};

}  // namespace

TEST_CASE("the epilogue is alpha times the row and column scales times acc, plus beta C, plus the bias, then the activation, as worked out by hand", "[epilogue]") {
    HandProblem h;
    // x00 = 0.5*2*1*3 + 0.25*4 + 1 = 5;    x01 = 0.5*2*(-3)*2 + 0.25*8 - 2 = -6
    // x10 = 0.5*0.5*1*2 - 0.25*4 + 1 = 0.5; x11 = 0.5*0.5*(-3)*3 + 0 - 2 = -4.25
    CHECK(h.full(SPMMA_ACTIVATION_NONE) == std::vector<double>{5, -6, 0.5, -4.25});
    CHECK(h.full(SPMMA_ACTIVATION_RELU) == std::vector<double>{5, 0, 0.5, 0});
    const auto silu = h.full(SPMMA_ACTIVATION_SILU);
    // x / (1 + e^-x): 5 / 1.0067379 = 4.9665356, -6 / 404.42879 = -0.014835738, 0.5 / 1.6065307 = 0.31122967
    CHECK(silu[0] == Approx(4.9665356).epsilon(1e-7));
    CHECK(silu[1] == Approx(-0.014835738).epsilon(1e-7));
    CHECK(silu[2] == Approx(0.31122967).epsilon(1e-7));
    const auto gelu = h.full(SPMMA_ACTIVATION_GELU_TANH);
    // x/2 (1 + tanh(0.7978846 (x + 0.044715 x^3))): at 0.5, tanh(0.4034) = 0.38286; at -4.25 nearly 0
    CHECK(gelu[2] == Approx(0.34571401).epsilon(1e-7));
    CHECK(gelu[0] == Approx(5.0).epsilon(1e-6));
    CHECK(gelu[3] == Approx(-2.0142036e-05).epsilon(1e-6));  // 1 + tanh(-6.13) = 9.5e-6: the cancellation the bound allows for
    // A row bias of D's type reads bias[i]: +1 on row 0, -2 on row 1 instead:
    // x01 = -6 + 2 + 1 = -3, x11 = -2.25 - 2 = -4.25.
    std::vector<uint8_t> row_bias(4);
    store_code(DType::F16, row_bias.data(), 0, encode(DType::F16, 1.0));
    store_code(DType::F16, row_bias.data(), 1, encode(DType::F16, -2.0));
    h.p.bias = SPMMA_BIAS_ROW;
    h.p.bias_type = SPMMA_F16;
    h.o.bias = row_bias.data();
    h.o.bias_bytes = 4;
    CHECK(h.full(SPMMA_ACTIVATION_NONE) == std::vector<double>{5, -3, -2.5, -4.25});
    // The element path agrees.
    CHECK(reference::gemm_element({h.p, h.o}, 0, 1) == -3);
    // One rounding: reference_d is the f16 of each value.
    const auto d = reference::reference_d({h.p, h.o});
    CHECK(decode(DType::F16, load_code(DType::F16, d.data(), 3)) == -4.25);
}

TEST_CASE("the reference refuses an epilogue on an integer problem and epilogue vectors of the wrong size", "[epilogue]") {
    HandProblem h;
    h.o.row_scale_bytes = 4;
    CHECK_THROWS_WITH(reference::gemm_full({h.p, h.o}), Catch::Contains("row_scale has 4 bytes, the problem needs 8"));
    h.o.row_scale_bytes = 8;
    h.o.bias = nullptr;
    CHECK_THROWS_WITH(reference::gemm_full({h.p, h.o}), Catch::Contains("the bias is missing"));
    ProblemSpec s;
    s.a = s.b = DType::S8;
    s.acc = s.d = DType::S32;
    TestProblem t(s);
    spmma_problem p = t.problem();
    p.activation = SPMMA_ACTIVATION_RELU;
    CHECK_THROWS_WITH(reference::gemm_full({p, t.operands()}), Catch::Contains("integer problems take no epilogue"));
}

namespace {

// A random 37 x 29 x 64 problem with every part of the epilogue, and D as a plugin computes it:
// f32 accumulation in order, the epilogue in f32, one rounding (with `drop` a part left out).
enum class Drop { Nothing, RowScale, Bias };
struct RandomEpilogue {
    TestProblem t;
    std::vector<float> rs, cs, bias;
    spmma_problem p;
    spmma_operands o;
    explicit RandomEpilogue(DType a, DType d, int32_t activation) : t(spec(a, d)) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> scale(0.25f, 4.0f), b(-1.0f, 1.0f);
        for (int64_t i = 0; i < t.spec.m; ++i) rs.push_back(scale(rng));
        for (int64_t j = 0; j < t.spec.n; ++j) cs.push_back(scale(rng));
        for (int64_t j = 0; j < t.spec.n; ++j) bias.push_back(b(rng));
        p = t.problem();
        p.row_scale = p.col_scale = 1;
        p.bias = SPMMA_BIAS_COL;
        p.bias_type = SPMMA_F32;
        p.activation = activation;
        o = t.operands();
        o.row_scale = rs.data();
        o.row_scale_bytes = rs.size() * 4;
        o.col_scale = cs.data();
        o.col_scale_bytes = cs.size() * 4;
        o.bias = bias.data();
        o.bias_bytes = bias.size() * 4;
    }
    static ProblemSpec spec(DType a, DType d) {
        ProblemSpec s;
        s.k = 64;
        s.a = s.b = a;
        s.d = d;
        s.alpha = 1.5;
        s.beta = 0.5;
        return s;
    }
    std::vector<uint8_t> plugin_d(Drop drop) const {
        const auto dense = t.dense_a();
        const auto& s = t.spec;
        std::vector<uint8_t> d(storage_bytes(s.d, s.m * s.n));
        for (int64_t i = 0; i < s.m; ++i)
            for (int64_t j = 0; j < s.n; ++j) {
                float acc = 0;
                for (int64_t kk = 0; kk < s.k; ++kk)
                    acc += static_cast<float>(dense[static_cast<size_t>(i * s.k + kk)] * decode(s.b, load_code(s.b, t.b.data(), j * s.k + kk)));
                float x = static_cast<float>(s.alpha) * (drop == Drop::RowScale ? 1.0f : rs[static_cast<size_t>(i)]) * cs[static_cast<size_t>(j)] * acc;
                x += static_cast<float>(s.beta) * static_cast<float>(decode(s.d, load_code(s.d, t.c.data(), i * s.n + j)));
                if (drop != Drop::Bias) x += bias[static_cast<size_t>(j)];
                if (p.activation == SPMMA_ACTIVATION_RELU) x = x > 0 ? x : 0;
                if (p.activation == SPMMA_ACTIVATION_GELU_TANH) x = 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
                if (p.activation == SPMMA_ACTIVATION_SILU) x = x / (1.0f + std::exp(-x));
                store_code(s.d, d.data(), i * s.n + j, encode(s.d, x));
            }
        return d;
    }
};

}  // namespace

TEST_CASE("an f32 epilogue verifies within the epilogue's tolerance, a missing row scale or bias does not", "[epilogue]") {
    for (DType a : {DType::F16, DType::E4M3})
        for (DType d : {DType::F16, DType::BF16, DType::F32})
            for (int32_t act : {SPMMA_ACTIVATION_NONE, SPMMA_ACTIVATION_RELU, SPMMA_ACTIVATION_GELU_TANH, SPMMA_ACTIVATION_SILU}) {
                if (a == DType::F16 && d == DType::BF16) continue;  // f16 inputs write f16 or f32
                const RandomEpilogue r(a, d, act);
                INFO(r.t.spec.label() << " " << spmma_activation_name(act));
                reference::VerifyOptions vo;
                vo.mode = reference::VerifyMode::Full;
                const auto expected = reference::compute_expected({r.p, r.o}, vo);
                CHECK_THAT(expected.tolerance_rule, Catch::Contains("epilogue"));
                const auto good = r.plugin_d(Drop::Nothing);
                const auto v = reference::check({r.p, r.o}, expected, good.data());
                INFO("max tolerance ratio " << v.max_tolerance_ratio);
                CHECK(v.passed);
                CHECK_FALSE(reference::check({r.p, r.o}, expected, r.plugin_d(Drop::RowScale).data()).passed);
                CHECK_FALSE(reference::check({r.p, r.o}, expected, r.plugin_d(Drop::Bias).data()).passed);
            }
}

TEST_CASE("the activations' bounds hold: no slope steeper than the bound's, relu evaluated exactly", "[epilogue]") {
    for (int32_t act : {SPMMA_ACTIVATION_RELU, SPMMA_ACTIVATION_GELU_TANH, SPMMA_ACTIVATION_SILU}) {
        INFO(spmma_activation_name(act));
        const auto bound = reference::activation_bound(act);
        double steepest = 0;
        // plugin.h's formulas, differentiated numerically over [-20, 20].
        for (double x = -20; x <= 20; x += 1.0 / 512) {
            auto act_of = [&](double y) {
                switch (act) {
                    case SPMMA_ACTIVATION_RELU: return y > 0 ? y : 0.0;
                    case SPMMA_ACTIVATION_GELU_TANH: return 0.5 * y * (1 + std::tanh(0.79788456080286535588 * (y + 0.044715 * y * y * y)));
                    default: return y / (1 + std::exp(-y));
                }
            };
            const double h = 1e-6;
            steepest = std::max(steepest, std::fabs(act_of(x + h) - act_of(x - h)) / (2 * h));
        }
        CHECK(steepest <= bound.lipschitz * (1 + 1e-6));  // the difference quotient's own rounding
        CHECK(steepest > bound.lipschitz - 0.01);  // and the bound is not loose
        if (act == SPMMA_ACTIVATION_RELU) CHECK(bound.epsilon == 0);
    }
}

// The tolerance table against simulated accumulators: every plausible hardware accumulation
// (sequential round-to-nearest and truncating f32, exact chunks added with truncation, 14 kept
// bits for the 8/6/4-bit kinds, f16 round-to-nearest and truncating) stays inside the bound on
// zero-mean and one-signed data up to k = 8192, while one wrong product is still caught where
// the accumulator's precision allows it.
#include <spmma/reference/tolerance.hpp>
#include <spmma/types.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace spmma;
using reference::ElementTerms;
using reference::ToleranceModel;

namespace {

enum class Acc { F32Nearest, F32Truncate, F32Chunk16Truncate, Bits14Truncate, F16Nearest, F16Truncate };
const char* acc_name(Acc a) {
    switch (a) {
        case Acc::F32Nearest: return "f32 round-to-nearest, sequential";
        case Acc::F32Truncate: return "f32 truncating, sequential";
        case Acc::F32Chunk16Truncate: return "exact chunks of 16 products, added into f32 with truncation";
        case Acc::Bits14Truncate: return "14 significand bits, truncating, sequential";
        case Acc::F16Nearest: return "f16 round-to-nearest, sequential";
        case Acc::F16Truncate: return "f16 truncating, sequential";
    }
    return "?";
}

// x rounded toward zero to `bits` significand bits (unbounded exponent).
double truncate_bits(double x, int bits) {
    if (x == 0 || !std::isfinite(x)) return x;
    int e;
    const double f = std::frexp(x, &e);
    return std::ldexp(std::trunc(std::ldexp(f, bits)), e - bits);
}
double to_f32_truncating(double x) {
    float f = static_cast<float>(x);
    if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
    return f;
}
double to_f16(double x) { return static_cast<double>(static_cast<_Float16>(x)); }
// f16 truncation: 11 significand bits toward zero (the values stay in f16's normal range).
double to_f16_truncating(double x) { return truncate_bits(x, 11); }

// C then the products in k order, through the accumulator model.
double accumulate(Acc model, double c, const std::vector<double>& p) {
    double acc = c;
    switch (model) {
        case Acc::F32Nearest:
            for (double x : p) acc = static_cast<float>(acc + x);
            break;
        case Acc::F32Truncate:
            for (double x : p) acc = to_f32_truncating(acc + x);
            break;
        case Acc::F32Chunk16Truncate:
            for (size_t s = 0; s < p.size(); s += 16) {
                double chunk = 0;
                for (size_t x = s; x < std::min(p.size(), s + 16); ++x) chunk += p[x];
                acc = to_f32_truncating(acc + chunk);
            }
            break;
        case Acc::Bits14Truncate:
            for (double x : p) acc = truncate_bits(acc + x, 14);
            break;
        case Acc::F16Nearest:
            for (double x : p) acc = to_f16(acc + x);
            break;
        case Acc::F16Truncate:
            for (double x : p) acc = to_f16_truncating(acc + x);
            break;
    }
    return acc;
}

enum class Data { Uniform, Normal, Positive };

struct Case {
    DType in, acc, d;
    std::vector<Acc> models;
};

spmma_problem make(const Case& c, int64_t k, double alpha, double beta) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = p.n = 1;
    p.k = k;
    p.a_type = p.b_type = static_cast<spmma_dtype>(c.in);
    p.acc_type = static_cast<spmma_dtype>(c.acc);
    p.c_type = p.d_type = static_cast<spmma_dtype>(c.d);
    p.pattern = SPMMA_PATTERN_2_4;
    p.alpha = alpha;
    p.beta = beta;
    return p;
}

double draw(Data d, DType t, std::mt19937_64& rng) {
    double x;
    if (d == Data::Normal) x = std::normal_distribution<double>(0, 1)(rng);
    else if (d == Data::Positive) x = std::uniform_real_distribution<double>(0, 1)(rng);
    else x = std::uniform_real_distribution<double>(-1, 1)(rng);
    return decode(t, encode(t, x));
}

}  // namespace

TEST_CASE("simulated hardware accumulators stay inside the tolerance up to k = 8192, on zero-mean and one-signed data") {
    const std::vector<Case> cases = {
        {DType::F16, DType::F32, DType::F32, {Acc::F32Nearest, Acc::F32Truncate, Acc::F32Chunk16Truncate}},
        {DType::BF16, DType::F32, DType::F32, {Acc::F32Nearest, Acc::F32Truncate, Acc::F32Chunk16Truncate}},
        {DType::E4M3, DType::F32, DType::F32, {Acc::F32Truncate, Acc::Bits14Truncate}},
        {DType::E2M1, DType::F32, DType::BF16, {Acc::Bits14Truncate}},
        {DType::F16, DType::F16, DType::F16, {Acc::F16Nearest, Acc::F16Truncate}},
        {DType::E4M3, DType::F16, DType::F16, {Acc::F16Nearest, Acc::F16Truncate}},
    };
    std::mt19937_64 rng(2024);
    double worst = 0;
    for (const auto& c : cases)
        for (int64_t k : {16, 128, 1024, 8192})
            for (Data data : {Data::Uniform, Data::Normal, Data::Positive})
                for (double beta : {0.0, 0.5}) {
                    const double alpha = 1.25;
                    const ToleranceModel tol(make(c, k, alpha, beta));
                    const int elements = k >= 8192 ? 60 : 300;
                    for (int e = 0; e < elements; ++e) {
                        std::vector<double> p(static_cast<size_t>(k / 2));
                        double acc = 0, abs = 0;
                        for (auto& x : p) {
                            x = draw(data, c.in, rng) * draw(data, c.in, rng);
                            acc += x;
                            abs += std::fabs(x);
                        }
                        const double cval = beta != 0 ? draw(Data::Uniform, c.d, rng) * 8 : 0.0;
                        ElementTerms t{alpha * acc + beta * cval, acc, abs, beta * cval, 0.0};
                        const double bound = tol(t);
                        for (Acc model : c.models) {
                            // The epilogue in f32 (f16 for the f16 accumulator), then the output rounding.
                            const double raw = accumulate(model, 0.0, p);
                            double out = static_cast<float>(static_cast<float>(alpha * raw) + static_cast<float>(beta * cval));
                            if (c.acc == DType::F16) out = to_f16(to_f16(alpha * raw) + to_f16(beta * cval));
                            out = decode(c.d, encode(c.d, out));
                            const double ratio = std::fabs(out - t.value) / bound;
                            worst = std::max(worst, ratio);
                            INFO(name(c.in) << " acc " << name(c.acc) << " -> " << name(c.d) << ", k = " << k << ", " << acc_name(model)
                                            << ", data " << static_cast<int>(data) << ", beta " << beta << ": error " << std::fabs(out - t.value)
                                            << ", bound " << bound);
                            REQUIRE(ratio <= 1.0);
                        }
                    }
                }
    INFO("largest error / bound over all simulated accumulators: " << worst);  // 0.80 when written
    REQUIRE(worst > 0.05);  // the simulation really rounds
}

TEST_CASE("one wrong product is outside the tolerance for f32 accumulation of 16-bit inputs up to k = 4096") {
    // The product a*b replaced by a*b' (b' another draw): how often is the change larger than
    // the bound? Nearly always while the bound is well below a typical product.
    std::mt19937_64 rng(99);
    for (int64_t k : {64, 512, 4096}) {
        const Case c{DType::F16, DType::F32, DType::F32, {}};
        const ToleranceModel tol(make(c, k, 1.0, 0.0));
        int caught = 0;
        const int trials = 400;
        for (int e = 0; e < trials; ++e) {
            double acc = 0, abs = 0, a = 0, b = 0;
            for (int64_t x = 0; x < k / 2; ++x) {
                a = draw(Data::Uniform, c.in, rng);
                b = draw(Data::Uniform, c.in, rng);
                acc += a * b;
                abs += std::fabs(a * b);
            }
            const double wrong = std::fabs(a * (draw(Data::Uniform, c.in, rng) - b));
            caught += wrong > tol(ElementTerms{acc, acc, abs, 0.0, 0.0});
        }
        INFO("k = " << k << ": caught " << caught << " of " << trials);
        REQUIRE(caught >= trials * (k <= 512 ? 0.97 : 0.85));
    }
}

TEST_CASE("tolerance table: integers bit-exact, every floating rule has an accumulator epsilon and exact bits") {
    for (const auto& r : reference::tolerance_table()) {
        INFO(r.name);
        if (r.bit_exact) continue;
        REQUIRE(r.acc_epsilon > 0);
        REQUIRE(r.acc_epsilon < 1e-2);
        REQUIRE(r.exact_bits >= 11);
        REQUIRE(r.epilogue_epsilon > 0);
    }
    spmma_problem p{};
    p.k = 64;
    p.a_type = p.b_type = SPMMA_S8;
    p.acc_type = p.d_type = SPMMA_S32;
    REQUIRE(reference::tolerance_rule(p).bit_exact);
    REQUIRE(ToleranceModel(p)(ElementTerms{1e9, 1e9, 1e9, 0, 0}) == 0);
    p.a_type = p.b_type = SPMMA_BF16;
    p.acc_type = SPMMA_F32;
    p.d_type = SPMMA_BF16;
    REQUIRE(reference::tolerance_rule(p).acc_epsilon == 0x1p-23);
    p.a_type = p.b_type = SPMMA_E5M2;
    REQUIRE(reference::tolerance_rule(p).exact_bits == 14);
    p.acc_type = SPMMA_F16;
    p.d_type = SPMMA_F16;
    REQUIRE(reference::tolerance_rule(p).acc_epsilon == 0x1p-10);
}

TEST_CASE("exact regime: products on a 2^q grid whose |sums| fit the accumulator get half an ulp of d_type, others the full bound") {
    spmma_problem p{};
    p.k = 64;
    p.a_type = p.b_type = SPMMA_F16;
    p.acc_type = SPMMA_F32;
    p.d_type = SPMMA_F16;
    p.alpha = 1;
    const ToleranceModel tol(p);
    // 32 products of integers: S = 1000, quantum 1 -> exact in f32 (24 bits).
    ElementTerms t{123, 123, 1000, 0, 1.0};
    REQUIRE(tol.exact(t));
    REQUIRE(tol(t) == 0.5 * ulp(DType::F16, 123));
    t.abs_sum = 0x1p25;  // partial sums may need 26 bits
    REQUIRE_FALSE(tol.exact(t));
    REQUIRE(tol(t) > 0.5 * ulp(DType::F16, 123));
    t.abs_sum = 1000;
    t.quantum = 0;  // unknown grid
    REQUIRE_FALSE(tol.exact(t));
    // The f16 accumulator keeps 11 bits: S = 3000 on a grid of 1 is not exact there.
    p.acc_type = SPMMA_F16;
    const ToleranceModel h(p);
    REQUIRE_FALSE(h.exact(ElementTerms{123, 123, 3000, 0, 1.0}));
    REQUIRE(h.exact(ElementTerms{123, 123, 2000, 0, 1.0}));
}

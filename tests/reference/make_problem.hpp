// Test operands without the core: canonical buffers (plugin.h layouts) filled with random codes
// of random values and random valid index bytes, plus an independent dense decoding of them.
#pragma once

#include <spmma/reference/verify.hpp>
#include <spmma/types.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace spmma::test {

enum class Values { Uniform, SmallInt };

struct ProblemSpec {
    int64_t m = 37, n = 29, k = 36;
    DType a = DType::F16, b = DType::F16, acc = DType::F32, d = DType::F16;
    spmma_pattern pattern = SPMMA_PATTERN_2_4;
    bool saturate = false;
    DType scale = DType::None;
    int scale_block = 0;
    double alpha = 1.0, beta = 0.0;
    Values values = Values::Uniform;
    uint64_t seed = 1;

    std::string label() const {
        std::string s = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " + name(a) + "*" + name(b) + "+" +
                        name(acc) + "->" + name(d) + " " + spmma_pattern_name(pattern);
        if (saturate) s += " sat";
        if (scale != DType::None) s += std::string(" ") + name(scale) + "/" + std::to_string(scale_block);
        s += " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta);
        s += values == Values::SmallInt ? " int" : " uniform";
        return s;
    }
};

class TestProblem {
public:
    explicit TestProblem(const ProblemSpec& s) : spec(s) {
        std::mt19937_64 rng(s.seed);
        const int g = spmma_pattern_group(s.pattern);
        a_values.assign(storage_bytes(s.a, s.m * s.k / 2), 0);
        a_indices.assign(static_cast<size_t>(s.m * (s.k / g)), 0);
        for (int64_t x = 0; x < s.m * s.k / 2; ++x) store_code(s.a, a_values.data(), x, random_code(s.a, rng));
        for (auto& idx : a_indices) idx = random_index(s.pattern, rng);
        b.assign(storage_bytes(s.b, s.k * s.n), 0);
        for (int64_t x = 0; x < s.k * s.n; ++x) store_code(s.b, b.data(), x, random_code(s.b, rng));
        if (s.beta != 0) {
            c.assign(storage_bytes(s.d, s.m * s.n), 0);
            for (int64_t x = 0; x < s.m * s.n; ++x) store_code(s.d, c.data(), x, random_code(s.d, rng));
        }
        if (s.scale != DType::None) {
            const int64_t blocks = s.k / s.scale_block;
            scale_a.resize(static_cast<size_t>(s.m * blocks));
            scale_b.resize(static_cast<size_t>(s.n * blocks));
            for (auto& x : scale_a) x = static_cast<uint8_t>(random_scale(s.scale, rng));
            for (auto& x : scale_b) x = static_cast<uint8_t>(random_scale(s.scale, rng));
        }
    }

    spmma_problem problem() const {
        spmma_problem p{};
        p.struct_size = sizeof p;
        p.m = spec.m;
        p.n = spec.n;
        p.k = spec.k;
        p.a_type = static_cast<spmma_dtype>(spec.a);
        p.b_type = static_cast<spmma_dtype>(spec.b);
        p.c_type = static_cast<spmma_dtype>(spec.d);
        p.d_type = static_cast<spmma_dtype>(spec.d);
        p.acc_type = static_cast<spmma_dtype>(spec.acc);
        p.pattern = spec.pattern;
        p.saturate = spec.saturate ? 1 : 0;
        p.scale_type = static_cast<spmma_dtype>(spec.scale);
        p.scale_block = spec.scale == DType::None ? 0 : spec.scale_block;
        p.alpha = spec.alpha;
        p.beta = spec.beta;
        return p;
    }

    spmma_operands operands() const {
        spmma_operands o{};
        o.struct_size = sizeof o;
        o.a_values = a_values.data();
        o.a_values_bytes = a_values.size();
        o.a_indices = a_indices.data();
        o.a_indices_bytes = a_indices.size();
        o.b = b.data();
        o.b_bytes = b.size();
        o.c = c.empty() ? nullptr : c.data();
        o.c_bytes = c.size();
        o.scale_a = scale_a.empty() ? nullptr : scale_a.data();
        o.scale_a_bytes = scale_a.size();
        o.scale_b = scale_b.empty() ? nullptr : scale_b.data();
        o.scale_b_bytes = scale_b.size();
        return o;
    }

    reference::GemmInput input() const { return {problem(), operands()}; }

    // Dense A (m x k, zeros in place), decoded, from the index bytes as plugin.h describes them.
    std::vector<double> dense_a() const {
        const int g = spmma_pattern_group(spec.pattern);
        std::vector<double> out(static_cast<size_t>(spec.m * spec.k), 0.0);
        int64_t src = 0;
        for (int64_t i = 0; i < spec.m; ++i)
            for (int64_t grp = 0; grp < spec.k / g; ++grp) {
                const uint8_t idx = a_indices[static_cast<size_t>(i * (spec.k / g) + grp)];
                std::vector<int> pos;
                if (spec.pattern == SPMMA_PATTERN_1_2) pos = {idx & 1};
                else if (spec.pattern == SPMMA_PATTERN_2_4) pos = {idx & 3, (idx >> 2) & 3};
                else pos = {2 * (idx & 3), 2 * (idx & 3) + 1, 2 * ((idx >> 2) & 3), 2 * ((idx >> 2) & 3) + 1};
                for (int p : pos) out[static_cast<size_t>(i * spec.k + grp * g + p)] = decode(spec.a, load_code(spec.a, a_values.data(), src++));
            }
        return out;
    }

    ProblemSpec spec;
    std::vector<uint8_t> a_values, a_indices, b, c, scale_a, scale_b;

private:
    uint32_t random_code(DType t, std::mt19937_64& rng) const {
        if (t == DType::S32) return encode(t, std::uniform_int_distribution<int>(-1000, 1000)(rng));
        double v;
        if (spec.values == Values::SmallInt) {
            const int lo = info(t).is_signed ? -3 : 0;
            v = std::uniform_int_distribution<int>(lo, 3)(rng);
        } else if (is_integer(t)) {
            const double lo = info(t).is_signed ? -info(t).max_finite - 1 : 0;
            v = std::uniform_int_distribution<int>(static_cast<int>(lo), static_cast<int>(info(t).max_finite))(rng);
        } else {
            const double range = (t == DType::E2M1 || t == DType::E2M3 || t == DType::E3M2) ? 4.0 : 1.0;
            v = std::uniform_real_distribution<double>(-range, range)(rng);
        }
        uint32_t code = encode(t, v);
        if (v != 0 && decode(t, code) == 0) code = encode(t, v > 0 ? 1.0 : -1.0);  // never flush to zero
        return code;
    }
    static uint32_t random_scale(DType t, std::mt19937_64& rng) {
        // Powers of two 2^-4..2^4 (ue8m0) or 0.25..8 with mantissa bits (ue4m3).
        if (t == DType::UE8M0) return static_cast<uint32_t>(127 + std::uniform_int_distribution<int>(-4, 4)(rng));
        return encode(t, std::uniform_real_distribution<double>(0.25, 8.0)(rng));
    }
    static uint8_t random_index(spmma_pattern p, std::mt19937_64& rng) {
        if (p == SPMMA_PATTERN_1_2) return static_cast<uint8_t>(rng() & 1);
        static const uint8_t pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};  // (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
        return pairs[rng() % 6];
    }
};

// The naive triple loop over the dense A: exact double sums (integers in int64), the epilogue
// of plugin.h written out again. Returns the final values (floats before the conversion to
// d_type; integers wrapped or clamped) and, in abs, sum |a*b| with scales.
inline std::vector<double> naive_gemm(const TestProblem& t, std::vector<double>* abs = nullptr) {
    const auto& s = t.spec;
    const auto a = t.dense_a();
    std::vector<double> out(static_cast<size_t>(s.m * s.n));
    if (abs) abs->assign(out.size(), 0.0);
    for (int64_t i = 0; i < s.m; ++i)
        for (int64_t j = 0; j < s.n; ++j) {
            double sum = 0, sum_abs = 0;
            int64_t isum = 0;
            for (int64_t kk = 0; kk < s.k; ++kk) {
                double x = a[static_cast<size_t>(i * s.k + kk)];
                double y = decode(s.b, load_code(s.b, t.b.data(), j * s.k + kk));
                if (s.scale != DType::None) {
                    const int64_t blocks = s.k / s.scale_block, blk = kk / s.scale_block;
                    x *= decode(s.scale, t.scale_a[static_cast<size_t>(i * blocks + blk)]);
                    y *= decode(s.scale, t.scale_b[static_cast<size_t>(j * blocks + blk)]);
                }
                sum += x * y;
                sum_abs += std::fabs(x * y);
                if (is_integer(s.a)) isum += static_cast<int64_t>(x) * static_cast<int64_t>(y);
            }
            const double c = s.beta != 0 ? decode(s.d, load_code(s.d, t.c.data(), i * s.n + j)) : 0.0;
            double v;
            if (is_integer(s.a)) {
                const int64_t r = static_cast<int64_t>(s.alpha) * isum + static_cast<int64_t>(s.beta) * static_cast<int64_t>(c);
                if (s.saturate) v = static_cast<double>(std::min<int64_t>(INT32_MAX, std::max<int64_t>(INT32_MIN, r)));
                else v = static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(r))));
            } else {
                v = s.alpha * sum + s.beta * c;
            }
            out[static_cast<size_t>(i * s.n + j)] = v;
            if (abs) (*abs)[static_cast<size_t>(i * s.n + j)] = sum_abs;
        }
    return out;
}

// Every type combination the DESIGN.md table allows, at odd sizes (k a multiple of the group,
// not of 16, where the scale block allows).
inline std::vector<ProblemSpec> all_combinations() {
    std::vector<ProblemSpec> out;
    const auto add = [&](DType a, DType b, DType acc, DType d, spmma_pattern p, int64_t k) {
        ProblemSpec s;
        s.a = a;
        s.b = b;
        s.acc = acc;
        s.d = d;
        s.pattern = p;
        s.k = k;
        out.push_back(s);
        return &out.back();
    };
    for (DType d : {DType::F16, DType::F32, DType::BF16}) add(DType::F16, DType::F16, DType::F32, d, SPMMA_PATTERN_2_4, 36);
    add(DType::F16, DType::F16, DType::F16, DType::F16, SPMMA_PATTERN_2_4, 44);
    for (DType d : {DType::BF16, DType::F32}) add(DType::BF16, DType::BF16, DType::F32, d, SPMMA_PATTERN_2_4, 36);
    add(DType::TF32, DType::TF32, DType::F32, DType::F32, SPMMA_PATTERN_1_2, 38);
    const DType small[] = {DType::E4M3, DType::E5M2, DType::E3M2, DType::E2M3, DType::E2M1};
    for (DType a : small)
        for (DType b : small) add(a, b, DType::F32, DType::BF16, SPMMA_PATTERN_2_4, 52);
    for (DType a : small) add(a, a, DType::F16, DType::F16, SPMMA_PATTERN_2_4, 36);
    add(DType::E4M3, DType::E5M2, DType::F32, DType::F32, SPMMA_PATTERN_2_4, 36);
    add(DType::E5M2, DType::E4M3, DType::F32, DType::F16, SPMMA_PATTERN_2_4, 36);
    // Block-scaled: mxf8f6f4 (ue8m0, 2:4), mxf4 (e2m1 pairwise 4:8, ue8m0), nvf4 (e2m1 4:8,
    // ue4m3 or ue8m0).
    // Blocks of 16, 32 and 64 elements of k (the dense and the sparse instructions' blocks).
    for (DType a : small)
        for (int blk : {32, 64}) {
            auto* s = add(a, a == DType::E2M1 ? DType::E4M3 : a, DType::F32, DType::BF16, SPMMA_PATTERN_2_4, blk == 32 ? 96 : 192);
            s->scale = DType::UE8M0;
            s->scale_block = blk;
        }
    for (DType sc : {DType::UE8M0, DType::UE4M3})
        for (int blk : {16, 32, 64}) {
            auto* s = add(DType::E2M1, DType::E2M1, DType::F32, DType::F32, SPMMA_PATTERN_4_8_PAIRWISE, blk == 16 ? 80 : 3 * blk);
            s->scale = sc;
            s->scale_block = blk;
        }
    // Integers: 2:4 for 8-bit, pairwise 4:8 for 4-bit, wrap and satfinite.
    for (bool sat : {false, true}) {
        for (auto [a, b] : {std::pair{DType::S8, DType::S8}, {DType::S8, DType::U8}, {DType::U8, DType::S8}, {DType::U8, DType::U8}})
            add(a, b, DType::S32, DType::S32, SPMMA_PATTERN_2_4, 36)->saturate = sat;
        for (auto [a, b] : {std::pair{DType::S4, DType::S4}, {DType::S4, DType::U4}, {DType::U4, DType::S4}, {DType::U4, DType::U4}})
            add(a, b, DType::S32, DType::S32, SPMMA_PATTERN_4_8_PAIRWISE, 40)->saturate = sat;
    }
    uint64_t seed = 100;
    for (auto& s : out) {
        s.seed = seed++;
        if (is_integer(s.a)) {
            s.alpha = 3;
            s.beta = -2;
        } else {
            s.alpha = 1.5;
            s.beta = -0.75;
        }
    }
    return out;
}

}  // namespace spmma::test

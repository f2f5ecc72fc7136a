// The model's arithmetic: exact products, one rounding of the exact sum, s32 wrap / satfinite,
// IEEE specials. (PTX leaves order and rounding of the accumulation unspecified; these tests pin
// what the model promises, see mma_sp.hpp.)
#include "ptx_fragments.hpp"

#include <spmma/isa/exact_accumulator.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace spmma::isa;
using spmma::DType;

namespace {

// A tile whose row 0 keeps its first two columns (values a0, a1), B column 0 holding b0, b1 in
// those rows, C[0][0] = c; everything else zero. Returns D[0][0] as bits.
// (tf32 keeps one column per 2-wide chunk: there the second kept column is 2.)
// Kept elements not named hold fill (0, or -0 where a test needs every term to be -0).
uint32_t d00(const MmaSp& f, double a0, double a1, double b0, double b1, uint32_t c_bits, double fill = 0.0) {
    ptxfrag::Tile tl;
    tl.form = f;
    tl.k = f.k;
    const int cw = ptxfrag::chunk_w(f);
    tl.kept_cols.assign(16, {});
    tl.kept_code.assign(16, {});
    for (int row = 0; row < 16; ++row)
        for (int chunk = 0; chunk < f.k / cw; ++chunk)
            for (int j = 0; j < cw / 2; ++j) {
                tl.kept_cols[row].push_back(chunk * cw + j);
                tl.kept_code[row].push_back(spmma::encode(f.a, fill));
            }
    tl.kept_code[0][0] = spmma::encode(f.a, a0);
    tl.kept_code[0][1] = spmma::encode(f.a, a1);
    REQUIRE(spmma::decode(f.a, tl.kept_code[0][0]) == a0);
    REQUIRE(spmma::decode(f.a, tl.kept_code[0][1]) == a1);
    tl.b_code.assign(f.k * 8, 0);
    tl.b_code[tl.kept_cols[0][0] * 8 + 0] = spmma::encode(f.b, b0);
    tl.b_code[tl.kept_cols[0][1] * 8 + 0] = spmma::encode(f.b, b1);
    tl.c_bits.assign(128, 0);
    tl.c_bits[0] = c_bits;
    const MmaSpResult r = mma_sp(f, ptxfrag::pack(tl));
    REQUIRE(r.undefined.empty());
    return ptxfrag::unpack_d(f, r)[0];
}

const MmaSp kF16F32{16, DType::F16, DType::F16, DType::F32, DType::F32, true};
const MmaSp kF16F16{16, DType::F16, DType::F16, DType::F16, DType::F16, true};
const MmaSp kTf32{8, DType::TF32, DType::TF32, DType::F32, DType::F32, true};
const MmaSp kS8{32, DType::S8, DType::S8, DType::S32, DType::S32, true};
const MmaSp kS8Sat{32, DType::S8, DType::S8, DType::S32, DType::S32, true, true};

uint32_t f32(float v) { return spmma::f32_bits(v); }

}  // namespace

TEST_CASE("mma.sp arithmetic: f32 accumulation is the exact sum rounded once") {
    // 1 + 2^-24 + 2^-24: rounded after each add it stays 1; the exact sum 1 + 2^-23 is an f32.
    CHECK(d00(kF16F32, 0x1p-12, 0x1p-12, 0x1p-12, 0x1p-12, f32(1.0f)) == f32(1.0f + 0x1p-23f));
    // one tie: 1 + 2^-24 rounds to even (1); just above the tie rounds up
    CHECK(d00(kF16F32, 0x1p-12, 0.0, 0x1p-12, 1.0, f32(1.0f)) == f32(1.0f));
    CHECK(d00(kF16F32, 0x1p-12, 0x1p-14, 0x1p-12, 0x1p-14, f32(1.0f)) == f32(1.0f + 0x1p-23f));
    // cancellation keeps the small term: 2^15*2^15 - 2^15*2^15 + 2^-24
    CHECK(d00(kF16F32, 32768.0, -32768.0, 32768.0, 32768.0, f32(0x1p-24f)) == f32(0x1p-24f));
}

TEST_CASE("mma.sp arithmetic: f16 accumulation rounds the exact sum once to f16") {
    const uint32_t c2048 = spmma::encode(DType::F16, 2048.0);
    CHECK(d00(kF16F16, 1.0, 0.0, 1.0, 0.0, c2048) == spmma::encode(DType::F16, 2048.0));   // 2049: tie to even
    CHECK(d00(kF16F16, 1.0, 0x1p-10, 1.0, 1.0, c2048) == spmma::encode(DType::F16, 2050.0));  // above the tie
    CHECK(d00(kF16F16, 256.0, 256.0, 256.0, 0.0, 0) == 0x7c00);  // 65536 overflows to +inf
}

TEST_CASE("mma.sp arithmetic: s32 wraps, or clamps with .satfinite") {
    const uint32_t max = 0x7fff'ffff, min = 0x8000'0000;
    CHECK(d00(kS8, 1.0, 0.0, 1.0, 0.0, max) == min);
    CHECK(d00(kS8Sat, 1.0, 0.0, 1.0, 0.0, max) == max);
    CHECK(d00(kS8, -128.0, -128.0, 127.0, 127.0, min) == static_cast<uint32_t>(INT32_MIN - 32512LL + 4294967296LL));
    CHECK(d00(kS8Sat, -128.0, -128.0, 127.0, 127.0, min) == min);
    CHECK(d00(kS8, 100.0, -100.0, 100.0, 100.0, 42) == 42u);
}

TEST_CASE("mma.sp arithmetic: tf32 drops the low 13 bits, sums can overflow to infinity") {
    CHECK(d00(kTf32, 0x1p100, 0.0, 0x1p100, 0.0, 0) == f32(std::numeric_limits<float>::infinity()));
    CHECK(d00(kTf32, -0x1p100, 0x1p100, 0x1p100, 0x1p100, f32(3.0f)) == f32(3.0f));
}

TEST_CASE("mma.sp arithmetic: NaN and infinities follow IEEE, NaN written canonical") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(d00(kF16F32, inf, 1.0, 1.0, 1.0, 0) == f32(std::numeric_limits<float>::infinity()));
    CHECK(d00(kF16F32, inf, inf, 1.0, -1.0, 0) == 0x7fff'ffffu);           // inf - inf
    CHECK(d00(kF16F32, 0.0, 1.0, inf, 1.0, 0) == 0x7fff'ffffu);            // 0 * inf
    CHECK(d00(kF16F32, 1.0, 1.0, 1.0, 1.0, 0x7fc0'0001u) == 0x7fff'ffffu);  // NaN in C
    CHECK(d00(kF16F16, inf, inf, 1.0, -1.0, 0) == 0x7fffu);
}

TEST_CASE("mma.sp arithmetic: an infinity in a B row no kept element points at does not reach D") {
    // row 0 keeps columns 0,1 of chunk 0; B[2][0] = inf is never multiplied by row 0
    ptxfrag::Tile tl;
    const MmaSp f = kF16F32;
    std::mt19937 rng(1);
    tl = ptxfrag::random_tile(f, rng);
    for (int chunk = 0; chunk < 4; ++chunk) {
        tl.kept_cols[0][2 * chunk] = 4 * chunk;
        tl.kept_cols[0][2 * chunk + 1] = 4 * chunk + 1;
    }
    tl.b_code[2 * 8 + 0] = 0x7c00;  // +inf
    const MmaSpResult r = mma_sp(f, ptxfrag::pack(tl));
    const auto d = ptxfrag::unpack_d(f, r);
    REQUIRE(r.undefined.empty());
    CHECK(std::isfinite(spmma::f32_from_bits(d[0])));
    int reached = 0;
    for (int m = 1; m < 16; ++m)
        for (size_t j = 0; j < tl.kept_cols[m].size(); ++j)
            if (tl.kept_cols[m][j] == 2) {
                CHECK_FALSE(std::isfinite(spmma::f32_from_bits(d[m * 8])));
                ++reached;
            }
    CHECK(reached > 0);
}

TEST_CASE("mma.sp arithmetic: a zero sum is -0 only when every term is -0") {
    CHECK(d00(kF16F32, -0.0, -0.0, 1.0, 1.0, f32(-0.0f), -0.0) == 0x8000'0000u);
    CHECK(d00(kF16F32, -0.0, -0.0, 1.0, 1.0, f32(0.0f), -0.0) == 0u);
    CHECK(d00(kF16F32, -0.0, -0.0, 1.0, 1.0, f32(-0.0f), 0.0) == 0u);
    CHECK(d00(kF16F32, 1.0, -1.0, 1.0, 1.0, f32(-0.0f)) == 0u);
}

TEST_CASE("ExactAccumulator: exact over the whole double range, rounded once, signed zero kept apart") {
    ExactAccumulator s;
    s.add(0x1p1000);
    s.add(0x1p-1074);  // the least subnormal double
    s.add(-0x1p1000);
    CHECK(s.round(53, -1022, 0x1.fffffffffffffp1023) == 0x1p-1074);
    ExactAccumulator t;
    for (int i = 0; i < 1000; ++i) t.add(0.1);
    for (int i = 0; i < 1000; ++i) t.add(-0.1);
    t.add(1.0);
    CHECK(t.round_f32() == 1.0);
    ExactAccumulator u;
    u.add(1.0);
    u.add(0x1p-24);   // exactly half an f32 ulp of 1: ties to even, down to 1
    CHECK(u.round_f32() == 1.0);
    u.add(0x1p-80);   // a bit far below the half decides the tie: up
    CHECK(u.round_f32() == 1.0 + 0x1p-23);
    ExactAccumulator big;
    big.add(0x1.fffffep127);
    big.add(0x1p103);   // FLT_MAX + half ulp: ties to even, i.e. to infinity
    CHECK(std::isinf(big.round_f32()));
    ExactAccumulator z;
    z.add(-0.0);
    z.add(-0.0);
    CHECK(z.all_terms_negative_zero());
    z.add(0.0);
    CHECK_FALSE(z.all_terms_negative_zero());
    CHECK_FALSE(ExactAccumulator{}.all_terms_negative_zero());
}

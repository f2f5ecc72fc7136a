// Float codecs: every code point of every <= 16-bit float type against the independent
// definition, encode/decode round trips, round-to-nearest-even at every midpoint, overflow and
// saturation, and wide checks of f16/bf16/tf32 against independent conversions.
#include "independent.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace spmma;
using spmma::test::FloatSpec;
using spmma::test::Top;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

uint32_t sign_bit(const FloatSpec& s) { return s.has_sign ? 1u << (s.exponent_bits + s.mantissa_bits) : 0u; }

// Positive codes whose value is finite, in increasing value (= increasing code).
std::vector<uint32_t> positive_finite_codes(const FloatSpec& s) {
    std::vector<uint32_t> out;
    const uint32_t end = sign_bit(s) ? sign_bit(s) : (1u << test::code_bits(s));
    for (uint32_t c = 0; c < end; ++c)
        if (std::isfinite(test::spec_decode(s, c))) out.push_back(c);
    return out;
}

bool same_value(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

uint16_t f16_bits_of(_Float16 h) {
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
}

_Float16 f16_from(uint16_t u) {
    _Float16 h;
    std::memcpy(&h, &u, 2);
    return h;
}

// bf16 from f32 bits by the integer round-to-nearest-even trick (finite inputs).
uint32_t bf16_rne_from_f32_bits(uint32_t u) { return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; }

// tf32 (as f32 bits, low 13 bits zero) by the same trick at bit 13.
uint32_t tf32_rne_from_f32_bits(uint32_t u) { return (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu; }

}  // namespace

TEST_CASE("decode of every code point of every <=16-bit float type equals the sign/exponent/mantissa definition") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const uint32_t codes = 1u << test::code_bits(s);
        for (uint32_t c = 0; c < codes; ++c) {
            INFO("code " << c);
            REQUIRE(same_value(decode(s.type, c), test::spec_decode(s, c)));
        }
    }
}

TEST_CASE("decode_table holds the decoded value of every storage code, padding bits ignored") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const auto& table = decode_table(s.type);
        const uint32_t storage_codes = 1u << info(s.type).storage_bits;
        REQUIRE(table.size() == storage_codes);
        const uint32_t meaningful = (1u << test::code_bits(s)) - 1;
        for (uint32_t c = 0; c < storage_codes; ++c) {
            INFO("code " << c);
            REQUIRE(same_value(table[c], static_cast<float>(test::spec_decode(s, c & meaningful))));
        }
    }
}

TEST_CASE("encode(decode(c)) == c for every non-NaN code of every <=16-bit float type") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const uint32_t codes = 1u << test::code_bits(s);
        int checked = 0;
        for (uint32_t c = 0; c < codes; ++c) {
            const double v = test::spec_decode(s, c);
            if (std::isnan(v)) continue;
            INFO("code " << c << " value " << v);
            REQUIRE(encode(s.type, v) == c);
            ++checked;
        }
        // Every code is a value but the NaNs: 2 (e4m3), 1 (ue4m3), 0 (e3m2, e2m3, e2m1),
        // 2 * (2^m - 1) for the IEEE-like types.
        int nans = 0;
        if (s.top == Top::OnlyAllOnesNan) nans = s.has_sign ? 2 : 1;
        if (s.top == Top::Ieee) nans = 2 * ((1 << s.mantissa_bits) - 1);
        REQUIRE(checked == static_cast<int>(codes) - nans);
    }
}

TEST_CASE("encode rounds every midpoint between adjacent codes to the even code, and nudges to the nearer one") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const auto codes = positive_finite_codes(s);
        for (size_t x = 0; x + 1 < codes.size(); ++x) {
            const uint32_t lo = codes[x], hi = codes[x + 1];
            REQUIRE(hi == lo + 1);  // positive codes are ordered like their values
            const double vlo = test::spec_decode(s, lo), vhi = test::spec_decode(s, hi);
            const double mid = 0.5 * (vlo + vhi);  // exact in double
            const uint32_t even = (lo & 1u) == 0 ? lo : hi;
            INFO("between codes " << lo << " and " << hi << " (" << vlo << ", " << vhi << ")");
            REQUIRE(encode(s.type, mid) == even);
            REQUIRE(encode(s.type, std::nextafter(mid, kInf)) == hi);
            REQUIRE(encode(s.type, std::nextafter(mid, -kInf)) == lo);
            if (s.has_sign) {
                REQUIRE(encode(s.type, -mid) == (even | sign_bit(s)));
                REQUIRE(encode(s.type, -std::nextafter(mid, kInf)) == (hi | sign_bit(s)));
                // -0.0 keeps its sign; a negative value rounding to zero gives -0.
                REQUIRE(encode(s.type, -std::nextafter(mid, -kInf)) == (lo | sign_bit(s)));
            }
        }
    }
}

TEST_CASE("values past the largest finite value: IEEE-like types round to infinity from max + half an ulp, the others saturate") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const auto codes = positive_finite_codes(s);
        const uint32_t max_code = codes.back();
        const double max = test::spec_decode(s, max_code);
        REQUIRE(info(s.type).max_finite == max);
        const double spacing = max - test::spec_decode(s, codes[codes.size() - 2]);
        const double half_past = max + spacing / 2;
        const uint32_t inf_code = (((1u << s.exponent_bits) - 1) << s.mantissa_bits);
        const uint32_t overflow = s.top == Top::Ieee ? inf_code : max_code;
        REQUIRE(encode(s.type, std::nextafter(half_past, 0.0)) == max_code);
        REQUIRE(encode(s.type, half_past) == overflow);  // a tie: max's mantissa is odd
        REQUIRE(encode(s.type, 1e300) == overflow);
        REQUIRE(encode(s.type, kInf) == overflow);
        if (s.has_sign) {
            REQUIRE(encode(s.type, -half_past) == (overflow | sign_bit(s)));
            REQUIRE(encode(s.type, -kInf) == (overflow | sign_bit(s)));
        } else {
            REQUIRE(encode(s.type, -1.0) == 0u);  // unsigned: negatives clamp to zero
            REQUIRE(encode(s.type, -kInf) == 0u);
        }
    }
}

TEST_CASE("encode: NaN gives a NaN code where the format has one, +max where it has none") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const uint32_t c = encode(s.type, kNan);
        if (s.top == Top::AllFinite) REQUIRE(c == positive_finite_codes(s).back());
        else REQUIRE(std::isnan(test::spec_decode(s, c)));
    }
}

TEST_CASE("encode: below half the smallest subnormal is a signed zero, just above is the smallest subnormal") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const double tiny = test::spec_decode(s, 1);  // smallest subnormal
        REQUIRE(tiny == std::pow(2.0, 1 - s.bias - s.mantissa_bits));
        REQUIRE(encode(s.type, tiny / 2) == 0u);
        REQUIRE(encode(s.type, std::nextafter(tiny / 2, 1.0)) == 1u);
        REQUIRE(encode(s.type, 1e-300) == 0u);
        REQUIRE(encode(s.type, 0.0) == 0u);
        if (s.has_sign) {
            REQUIRE(encode(s.type, -tiny / 2) == sign_bit(s));
            REQUIRE(encode(s.type, -0.0) == sign_bit(s));
        }
    }
}

TEST_CASE("f16 codec agrees with the compiler's _Float16 on every code and on 2 million random doubles") {
    for (uint32_t c = 0; c < 65536; ++c) {
        INFO("code " << c);
        REQUIRE(same_value(decode(DType::F16, c), static_cast<double>(f16_from(static_cast<uint16_t>(c)))));
    }
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> exponent(-27.0, 17.0), mantissa(1.0, 2.0);
    for (int r = 0; r < 2000000; ++r) {
        double x = std::ldexp(mantissa(rng), static_cast<int>(std::floor(exponent(rng))));
        if (r & 1) x = -x;
        if (r % 5 == 0) x = std::nearbyint(x * 4096.0) / 4096.0;  // more exact ties
        INFO("x = " << x);
        REQUIRE(encode(DType::F16, x) == f16_bits_of(static_cast<_Float16>(x)));
    }
}

TEST_CASE("bf16 codec: every code is the top half of an f32, encode matches integer round-to-nearest-even of f32 bits") {
    for (uint32_t c = 0; c < 65536; ++c) {
        INFO("code " << c);
        REQUIRE(same_value(decode(DType::BF16, c), static_cast<double>(f32_from_bits(c << 16))));
    }
    std::mt19937 rng(11);
    for (int r = 0; r < 2000000; ++r) {
        uint32_t u = rng();
        if ((u & 0x7f800000u) == 0x7f800000u) continue;                   // inf/NaN elsewhere
        if (r % 3 == 0) u = (u & 0xffff0000u) | 0x8000u;                  // exact ties
        const uint32_t want = bf16_rne_from_f32_bits(u);
        INFO("f32 bits " << u);
        REQUIRE(encode(DType::BF16, f32_from_bits(u)) == want);
    }
}

TEST_CASE("encode rounds the exact double once: no double rounding through f32") {
    // 1 + 2^-8 + 2^-40 rounds to 1 + 2^-8 in f32, a bf16 tie that would go down to 1.0; rounded
    // once it is above the tie and goes up to 1 + 2^-7.
    REQUIRE(encode(DType::BF16, 1.0 + 0x1p-8 + 0x1p-40) == 0x3f81u);
    REQUIRE(encode(DType::F16, 1.0 + 0x1p-11 + 0x1p-40) == 0x3c01u);
    REQUIRE(encode(DType::TF32, 1.0 + 0x1p-11 + 0x1p-40) == 0x3f802000u);
    REQUIRE(encode(DType::E4M3, 1.0 + 0x1p-4 + 0x1p-40) == 0x39u);
}

TEST_CASE("tf32: every one of the 2^19 code points decodes, and round-trips, as f32 bits with 10 fraction bits") {
    const FloatSpec tf32{DType::TF32, 8, 10, 127, true, Top::Ieee};
    for (uint32_t c = 0; c < (1u << 19); ++c) {
        const uint32_t bits = c << 13;  // sign, 8 exponent bits, 10 fraction bits at the top
        const double v = test::spec_decode(tf32, c);
        INFO("tf32 code " << c);
        REQUIRE(same_value(decode(DType::TF32, bits), v));
        REQUIRE(same_value(v, static_cast<double>(f32_from_bits(bits))));
        if (!std::isnan(v)) REQUIRE(encode(DType::TF32, v) == bits);
    }
}

TEST_CASE("tf32: decode drops the low 13 bits of any f32 pattern (what the instruction does), encode rounds to nearest even") {
    std::mt19937 rng(13);
    for (int r = 0; r < 2000000; ++r) {
        uint32_t u = rng();
        if ((u & 0x7f800000u) == 0x7f800000u) continue;
        INFO("f32 bits " << u);
        REQUIRE(same_value(decode(DType::TF32, u), static_cast<double>(f32_from_bits(u & ~0x1fffu))));
        if (r % 3 == 0) u = (u & ~0x1fffu) | 0x1000u;  // exact ties
        REQUIRE(encode(DType::TF32, f32_from_bits(u)) == tf32_rne_from_f32_bits(u));
    }
    REQUIRE(encode(DType::TF32, 3.5e38) == 0x7f800000u);  // past tf32's max + half ulp: infinity
    REQUIRE(encode(DType::TF32, -kInf) == 0xff800000u);
    REQUIRE(std::isnan(decode(DType::TF32, encode(DType::TF32, kNan))));
}

TEST_CASE("f32 codec is the bit pattern, and encode from double rounds to nearest even") {
    REQUIRE(encode(DType::F32, 1.0 + 0x1p-24) == 0x3f800000u);
    REQUIRE(encode(DType::F32, 1.0 + 3 * 0x1p-24) == 0x3f800002u);
    REQUIRE(encode(DType::F32, 1e39) == 0x7f800000u);
    REQUIRE(decode(DType::F32, 0x00000001u) == 0x1p-149);
    REQUIRE(std::isnan(decode(DType::F32, 0x7fc00000u)));
    std::mt19937 rng(17);
    for (int r = 0; r < 100000; ++r) {
        const uint32_t u = rng();
        if ((u & 0x7f800000u) == 0x7f800000u) continue;
        REQUIRE(encode(DType::F32, decode(DType::F32, u)) == u);
    }
}

TEST_CASE("type table: max_finite is the largest finite code's value, epsilon is 2^-mantissa_bits") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const auto& ti = info(s.type);
        REQUIRE(ti.mantissa_bits == s.mantissa_bits);
        REQUIRE(ti.epsilon == std::pow(2.0, -s.mantissa_bits));
        REQUIRE(ti.max_finite == test::spec_decode(s, positive_finite_codes(s).back()));
        REQUIRE(ti.is_signed == s.has_sign);
        REQUIRE(ti.bits == test::code_bits(s));
    }
    REQUIRE(info(DType::F32).max_finite == static_cast<double>(std::numeric_limits<float>::max()));
    REQUIRE(info(DType::TF32).max_finite == static_cast<double>(f32_from_bits(0x7f7fe000u)));
}

TEST_CASE("ulp is the spacing of adjacent codes at every finite code of every <=16-bit float type") {
    for (const auto& s : test::float_specs()) {
        INFO(name(s.type));
        const auto codes = positive_finite_codes(s);
        for (size_t x = 0; x + 1 < codes.size(); ++x) {
            const double v = test::spec_decode(s, codes[x]);
            const double gap = test::spec_decode(s, codes[x + 1]) - v;
            INFO("value " << v);
            REQUIRE(ulp(s.type, v) == gap);
            REQUIRE(ulp(s.type, -v) == gap);
            REQUIRE(ulp(s.type, std::nextafter(test::spec_decode(s, codes[x + 1]), 0.0)) == gap);
        }
        REQUIRE(min_normal(s.type) == std::pow(2.0, 1 - s.bias));
    }
    REQUIRE(ulp(DType::F32, 1.0) == 0x1p-23);
    REQUIRE(ulp(DType::F32, 0.0) == 0x1p-149);
    REQUIRE(ulp(DType::TF32, 1.0) == 0x1p-10);
    REQUIRE(ulp(DType::F16, 1e9) == 32.0);  // past max: the top binade's spacing
}

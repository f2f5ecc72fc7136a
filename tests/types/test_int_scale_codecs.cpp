// Integer and scale codecs: every code of s8/u8/s4/u4 and ue8m0, two's complement, rounding half
// to even, saturation; s32 spot checks.
#include <spmma/types.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

using namespace spmma;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

struct IntSpec {
    DType type;
    int bits;
    bool is_signed;
};
const IntSpec kInts[] = {{DType::S8, 8, true}, {DType::U8, 8, false}, {DType::S4, 4, true}, {DType::U4, 4, false}};

// Two's complement by arithmetic: codes at or above 2^(bits-1) are code - 2^bits.
double int_value(const IntSpec& s, uint32_t code) {
    const double half = std::pow(2.0, s.bits - 1);
    return (s.is_signed && code >= half) ? static_cast<double>(code) - 2 * half : static_cast<double>(code);
}
}  // namespace

TEST_CASE("every code of s8, u8, s4, u4 decodes to its two's complement / unsigned value and round-trips") {
    for (const auto& s : kInts) {
        INFO(name(s.type));
        const auto& table = decode_table(s.type);
        REQUIRE(table.size() == (1u << info(s.type).storage_bits));
        for (uint32_t c = 0; c < (1u << s.bits); ++c) {
            INFO("code " << c);
            REQUIRE(decode(s.type, c) == int_value(s, c));
            REQUIRE(table[c] == static_cast<float>(int_value(s, c)));
            REQUIRE(encode(s.type, int_value(s, c)) == c);
        }
        const double lo = s.is_signed ? -std::pow(2.0, s.bits - 1) : 0.0;
        const double hi = std::pow(2.0, s.is_signed ? s.bits - 1 : s.bits) - 1;
        REQUIRE(info(s.type).max_finite == hi);
        REQUIRE(decode(s.type, encode(s.type, hi + 100)) == hi);   // saturate high
        REQUIRE(decode(s.type, encode(s.type, lo - 100)) == lo);   // saturate low
        REQUIRE(decode(s.type, encode(s.type, kInf)) == hi);
        REQUIRE(decode(s.type, encode(s.type, -kInf)) == lo);
        REQUIRE(encode(s.type, kNan) == 0u);
    }
}

TEST_CASE("integer encode rounds half to even") {
    REQUIRE(decode(DType::S8, encode(DType::S8, 2.5)) == 2);
    REQUIRE(decode(DType::S8, encode(DType::S8, 3.5)) == 4);
    REQUIRE(decode(DType::S8, encode(DType::S8, -2.5)) == -2);
    REQUIRE(decode(DType::S8, encode(DType::S8, -3.5)) == -4);
    REQUIRE(decode(DType::S8, encode(DType::S8, 2.5000001)) == 3);
    REQUIRE(decode(DType::U4, encode(DType::U4, 14.5)) == 14);
    REQUIRE(decode(DType::U4, encode(DType::U4, 15.5)) == 15);  // saturates
    REQUIRE(decode(DType::S4, encode(DType::S4, -7.5)) == -8);
    REQUIRE(decode(DType::S32, encode(DType::S32, 1e12)) == 2147483647.0);
    REQUIRE(decode(DType::S32, encode(DType::S32, -1e12)) == -2147483648.0);
    REQUIRE(decode(DType::S32, encode(DType::S32, 0.5)) == 0.0);
}

TEST_CASE("s32 codes are two's complement 32-bit integers") {
    REQUIRE(decode(DType::S32, 0x80000000u) == -2147483648.0);
    REQUIRE(decode(DType::S32, 0xffffffffu) == -1.0);
    REQUIRE(decode(DType::S32, 0x7fffffffu) == 2147483647.0);
    std::mt19937 rng(3);
    for (int r = 0; r < 100000; ++r) {
        const uint32_t c = rng();
        const double v = decode(DType::S32, c);
        REQUIRE(v == static_cast<double>(static_cast<int32_t>(c)));
        REQUIRE(encode(DType::S32, v) == c);
    }
}

TEST_CASE("ue8m0: every code is 2^(code-127), 0xff is NaN, encode rounds to the nearest power of two and saturates") {
    const auto& table = decode_table(DType::UE8M0);
    for (uint32_t c = 0; c < 255; ++c) {
        INFO("code " << c);
        const double v = std::pow(2.0, static_cast<double>(c) - 127.0);
        REQUIRE(decode(DType::UE8M0, c) == v);
        REQUIRE(static_cast<double>(table[c]) == static_cast<double>(static_cast<float>(v)));
        REQUIRE(encode(DType::UE8M0, v) == c);
        if (c < 254) {
            // Between 2^e and 2^(e+1) the midpoint is 1.5 * 2^e: a tie of the zero-bit
            // significand goes to the even significand, i.e. up to 2^(e+1).
            REQUIRE(encode(DType::UE8M0, 1.5 * v) == c + 1);
            REQUIRE(encode(DType::UE8M0, std::nextafter(1.5 * v, 0.0)) == c);
        }
    }
    REQUIRE(std::isnan(decode(DType::UE8M0, 0xffu)));
    REQUIRE(std::isnan(table[0xff]));
    REQUIRE(encode(DType::UE8M0, kNan) == 0xffu);
    REQUIRE(encode(DType::UE8M0, kInf) == 0xfeu);      // no infinity: the largest scale
    REQUIRE(encode(DType::UE8M0, 1e300) == 0xfeu);
    REQUIRE(encode(DType::UE8M0, 0.0) == 0u);          // no zero: the smallest scale, 2^-127
    REQUIRE(encode(DType::UE8M0, -4.0) == 0u);
    REQUIRE(encode(DType::UE8M0, 1e-300) == 0u);
    REQUIRE(info(DType::UE8M0).max_finite == std::pow(2.0, 127));
}

TEST_CASE("ue4m3 ignores bit 7 (the ABI stores it as zero) and never encodes it") {
    for (uint32_t c = 0; c < 128; ++c) {
        const double v = decode(DType::UE4M3, c);
        if (std::isnan(v)) {
            REQUIRE(c == 0x7fu);
            continue;
        }
        REQUIRE(decode(DType::UE4M3, c | 0x80u) == v);
        REQUIRE(encode(DType::UE4M3, v) == c);
        REQUIRE(encode(DType::UE4M3, -v) == 0u);
    }
    REQUIRE(info(DType::UE4M3).storage_bits == 8);
}

TEST_CASE("parse_dtype and name are inverses for every type") {
    for (const auto& t : all_types()) {
        INFO(name(t.type));
        auto parsed = parse_dtype(name(t.type));
        REQUIRE(parsed.has_value());
        REQUIRE(*parsed == t.type);
        REQUIRE(info(t.type).type == t.type);
        REQUIRE(info(t.type).storage_bits == spmma_dtype_storage_bits(static_cast<spmma_dtype>(t.type)));
    }
    REQUIRE_FALSE(parse_dtype("fp16").has_value());
    REQUIRE_FALSE(parse_dtype("none").has_value());
}

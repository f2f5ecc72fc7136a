// An independent definition of every small format, written from the format descriptions (sign,
// exponent, mantissa fields, bias, what the top exponent code means), NOT from the codec: the
// tests decode every code point with it and compare.
#pragma once

#include <spmma/types.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace spmma::test {

enum class Top { Ieee, OnlyAllOnesNan, AllFinite };

struct FloatSpec {
    DType type;
    int exponent_bits;
    int mantissa_bits;
    int bias;
    bool has_sign;
    Top top;
};

// From the format definitions (IEEE 754 binary16/binary32, bfloat16, NVIDIA tf32, OCP MX/FP8:
// e4m3 "fn", e5m2 IEEE-like, e3m2/e2m3/e2m1 all finite, ue4m3 = unsigned e4m3).
inline const std::vector<FloatSpec>& float_specs() {
    static const std::vector<FloatSpec> specs = {
        {DType::F16, 5, 10, 15, true, Top::Ieee},        {DType::BF16, 8, 7, 127, true, Top::Ieee},
        {DType::E4M3, 4, 3, 7, true, Top::OnlyAllOnesNan}, {DType::E5M2, 5, 2, 15, true, Top::Ieee},
        {DType::E3M2, 3, 2, 3, true, Top::AllFinite},    {DType::E2M3, 2, 3, 1, true, Top::AllFinite},
        {DType::E2M1, 2, 1, 1, true, Top::AllFinite},    {DType::UE4M3, 4, 3, 7, false, Top::OnlyAllOnesNan},
    };
    return specs;
}

inline int code_bits(const FloatSpec& s) { return (s.has_sign ? 1 : 0) + s.exponent_bits + s.mantissa_bits; }

// (-1)^s * 2^(E - bias) * (1 + M / 2^m) for normal codes, (-1)^s * 2^(1 - bias) * (M / 2^m)
// for E == 0; computed with pow() and division.
inline double spec_decode(const FloatSpec& s, uint32_t code) {
    const uint32_t M = code % (1u << s.mantissa_bits);
    const uint32_t E = (code >> s.mantissa_bits) % (1u << s.exponent_bits);
    const bool negative = s.has_sign && ((code >> (s.mantissa_bits + s.exponent_bits)) & 1u) != 0;
    const uint32_t E_top = (1u << s.exponent_bits) - 1;
    const uint32_t M_top = (1u << s.mantissa_bits) - 1;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    double magnitude;
    if (s.top == Top::Ieee && E == E_top) {
        magnitude = (M == 0) ? inf : nan;
    } else if (s.top == Top::OnlyAllOnesNan && E == E_top && M == M_top) {
        magnitude = nan;
    } else {
        const double fraction = static_cast<double>(M) / std::pow(2.0, s.mantissa_bits);
        if (E == 0) magnitude = std::pow(2.0, 1 - s.bias) * fraction;
        else magnitude = std::pow(2.0, static_cast<double>(E) - s.bias) * (1.0 + fraction);
    }
    return negative ? -magnitude : magnitude;
}

}  // namespace spmma::test

// Exact summation of doubles with one final rounding, for the instruction models: the sum of
// every term is kept exactly in a fixed-point accumulator (bits of weight 2^-320 .. 2^319),
// then rounded once to f32 or f16, round-to-nearest-even. Infinities and NaN follow IEEE: any NaN,
// or +inf with -inf, gives NaN; otherwise any infinity gives that infinity. An exact zero is -0
// only when every term was -0.
#pragma once

#include <array>
#include <cstdint>

namespace spmma::isa {

class ExactSum {
public:
    // Adds v exactly. Throws std::range_error for a finite v with a set bit below 2^-320 or
    // |v| >= 2^300 (the instruction models' terms stay within 2^-290 .. 2^280).
    void add(double v);
    // The exact sum rounded to the nearest double by round-to-odd: rounding this once more to any
    // format of at most 51 significant bits (f32, f16, bf16) gives the correctly rounded sum.
    double to_odd_double() const;
    float to_f32() const;          // round to nearest even; overflow goes to infinity
    uint32_t to_f32_bits() const;  // NaN as the canonical 0x7fffffff
    uint16_t to_f16_bits() const;  // round to nearest even; NaN as 0x7fff

private:
    static constexpr int kLimbs = 20;      // 32-bit limbs held in int64 (carries fold in at the end)
    static constexpr int kLsbExp = -320;   // weight of bit 0 of limb 0
    std::array<int64_t, kLimbs> limbs_{};
    bool nan_ = false, pos_inf_ = false, neg_inf_ = false;
    bool all_neg_zero_ = true;
    bool any_term_ = false;
};

}  // namespace spmma::isa

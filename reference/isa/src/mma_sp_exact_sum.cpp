// Exact summation with one final rounding (see mma_sp_exact_sum.hpp).
#include <spmma/isa/mma_sp_exact_sum.hpp>

#include <spmma/types.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace spmma::isa {

void ExactSum::add(double v) {
    any_term_ = true;
    if (!(v == 0.0 && std::signbit(v))) all_neg_zero_ = false;
    if (std::isnan(v)) { nan_ = true; return; }
    if (std::isinf(v)) { (v > 0 ? pos_inf_ : neg_inf_) = true; return; }
    if (v == 0.0) return;
    int e;
    const double frac = std::frexp(std::fabs(v), &e);             // |v| = frac * 2^e, frac in [0.5, 1)
    auto mant = static_cast<uint64_t>(std::ldexp(frac, 53));  // exact: 53-bit integer
    int lsb = e - 53;                                       // |v| = mant * 2^lsb
    const int zeros = __builtin_ctzll(mant);                // only the set bits must fit
    mant >>= zeros;
    lsb += zeros;
    if (lsb < kLsbExp || e > 300) throw std::range_error("ExactSum: term outside 2^-320 .. 2^300");
    const int offset = lsb - kLsbExp;
    const int limb = offset / 32, shift = offset % 32;
    const unsigned __int128 wide = static_cast<unsigned __int128>(mant) << shift;  // < 2^85
    const int64_t sign = v < 0 ? -1 : 1;
    for (int i = 0; i < 3 && limb + i < kLimbs; ++i)
        limbs_[limb + i] += sign * static_cast<int64_t>((wide >> (32 * i)) & 0xffffffffu);
}

// NOTES: the limbs are normalized (carries folded, each limb in [0, 2^32)) on a copy; a negative
// total shows as a negative top carry, and is negated to get the magnitude. Then the top 53 bits
// are taken, and the last of them is forced to 1 when any lower bit is set (round-to-odd).
double ExactSum::to_odd_double() const {
    if (nan_ || (pos_inf_ && neg_inf_)) return std::numeric_limits<double>::quiet_NaN();
    if (pos_inf_) return std::numeric_limits<double>::infinity();
    if (neg_inf_) return -std::numeric_limits<double>::infinity();
    std::array<int64_t, kLimbs> l = limbs_;
    auto normalize = [&](std::array<int64_t, kLimbs>& x) {
        int64_t carry = 0;
        for (int i = 0; i < kLimbs; ++i) {
            int64_t v = x[i] + carry;
            carry = v >> 32;  // arithmetic shift: floor division by 2^32
            x[i] = v - (carry << 32);
        }
        return carry;  // 0 or negative (-1...) for a negative total
    };
    bool negative = normalize(l) < 0;
    if (negative) {
        for (auto& x : l) x = -x;
        const int64_t top = normalize(l);
        (void)top;  // the magnitude now fits: top == 0
    }
    int hi = kLimbs - 1;
    while (hi >= 0 && l[hi] == 0) --hi;
    if (hi < 0) return (any_term_ && all_neg_zero_) ? -0.0 : 0.0;
    // Magnitude bits: gather the top limbs into 128 bits, then keep 53.
    const int top_bit = 63 - __builtin_clzll(static_cast<uint64_t>(l[hi]));  // 0..31 within limb hi
    unsigned __int128 acc = 0;
    int taken = 0;      // limbs gathered
    for (int i = hi; i >= 0 && taken < 3; --i, ++taken) acc = (acc << 32) | static_cast<uint64_t>(l[i]);
    bool sticky = false;
    for (int i = hi - taken; i >= 0; --i) sticky |= l[i] != 0;
    const int width = top_bit + 1 + 32 * (taken - 1);  // significant bits in acc
    const int drop = width - 53;
    uint64_t mant;
    if (drop > 0) {
        sticky |= (acc & ((static_cast<unsigned __int128>(1) << drop) - 1)) != 0;
        mant = static_cast<uint64_t>(acc >> drop);
    } else {
        mant = static_cast<uint64_t>(acc << -drop);
    }
    if (sticky) mant |= 1;
    const int lsb_exp = kLsbExp + 32 * (hi - taken + 1) + drop;  // weight of mant's bit 0
    const double mag = std::ldexp(static_cast<double>(mant), lsb_exp);
    return negative ? -mag : mag;
}

float ExactSum::to_f32() const {
    const double d = to_odd_double();
    // At or beyond FLT_MAX + half an ulp, nearest-even goes to infinity (explicit: the cast of an
    // out-of-range double is not defined by C++).
    constexpr float kInf = std::numeric_limits<float>::infinity();
    if (std::fabs(d) >= 0x1.ffffffp127) return d > 0 ? kInf : -kInf;
    return static_cast<float>(d);
}

uint32_t ExactSum::to_f32_bits() const {
    const float f = to_f32();
    return std::isnan(f) ? 0x7fffffffu : f32_bits(f);
}

uint16_t ExactSum::to_f16_bits() const {
    const double d = to_odd_double();
    return std::isnan(d) ? 0x7fff : static_cast<uint16_t>(encode(DType::F16, d));
}

}  // namespace spmma::isa

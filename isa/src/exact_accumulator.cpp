// Exact accumulation with one rounding (see exact_accumulator.hpp).
#include <spmma/isa/exact_accumulator.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace spmma::isa {

void ExactAccumulator::add_at(Big& b, uint64_t mant, int bit) {
    int limb = bit / 64;
    const int sh = bit % 64;
    const uint64_t parts[2] = {mant << sh, sh ? (mant >> (64 - sh)) : 0};
    if (limb < lo_) lo_ = limb;
    uint64_t carry = 0;
    for (int i = 0; limb < kLimbs && (i < 2 || carry); ++i, ++limb) {
        const uint64_t v = i < 2 ? parts[i] : 0;
        const uint64_t s = b[limb] + v;
        const uint64_t c1 = s < v;
        const uint64_t s2 = s + carry;
        carry = c1 + (s2 < s);
        b[limb] = s2;
        if (limb > hi_) hi_ = limb;
    }
}

void ExactAccumulator::add(double v) {
    any_term_ = true;
    if (!(v == 0.0 && std::signbit(v))) all_neg_zero_ = false;
    if (std::isnan(v)) { nan_ = true; return; }
    if (std::isinf(v)) { (v > 0 ? pos_inf_ : neg_inf_) = true; return; }
    if (v == 0.0) return;
    // |v| = mant * 2^exp exactly, from the IEEE fields (subnormals: exponent field 0, no
    // implicit bit).
    uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    const int field = static_cast<int>((u >> 52) & 0x7FF);
    const uint64_t frac = u & ((uint64_t(1) << 52) - 1);
    const uint64_t mant = field ? frac | (uint64_t(1) << 52) : frac;
    const int exp = (field ? field : 1) - 1075;
    add_at(v > 0 ? pos_ : neg_, mant, exp - kMinExp);
}

// NOTES: magnitude |pos - neg| by schoolbook subtraction over the limbs the terms reached, then
// keep the bits from the leading one down to the quantum of the target format at that binade (or
// its subnormal quantum), and round half to even on the bits below.
double ExactAccumulator::round(int precision, int emin, double max_finite) const {
    if (is_nan()) return std::numeric_limits<double>::quiet_NaN();
    if (pos_inf_) return std::numeric_limits<double>::infinity();
    if (neg_inf_) return -std::numeric_limits<double>::infinity();
    if (hi_ < lo_) return 0.0;
    const Big* a = &pos_;
    const Big* b = &neg_;
    bool negative = false;
    for (int i = hi_; i >= lo_; --i)
        if ((*a)[i] != (*b)[i]) { negative = (*a)[i] < (*b)[i]; break; }
    if (negative) std::swap(a, b);
    Big m;  // valid at lo_ .. hi_; zero elsewhere
    uint64_t borrow = 0;
    for (int i = lo_; i <= hi_; ++i) {
        const uint64_t d = (*a)[i] - (*b)[i];
        const uint64_t b1 = (*a)[i] < (*b)[i];
        m[i] = d - borrow;
        borrow = b1 | (d < borrow);
    }
    int top = -1;
    for (int i = hi_; i >= lo_ && top < 0; --i)
        if (m[i]) top = i * 64 + 63 - __builtin_clzll(m[i]);
    if (top < 0) return 0.0;
    auto word = [&](int i) -> uint64_t { return i < lo_ || i > hi_ ? 0 : m[i]; };
    auto bit_at = [&](int i) -> uint64_t { return i < 0 ? 0 : (word(i / 64) >> (i % 64)) & 1u; };
    // Bits [from, from + count) of the magnitude as an integer (count <= 64; bits below 0 are 0).
    auto bits = [&](int from, int count) -> uint64_t {
        if (count <= 0) return 0;
        uint64_t r = 0;
        if (from < 0) {
            for (int i = from + count - 1; i >= from; --i) r = (r << 1) | bit_at(i);
            return r;
        }
        const int w = from / 64, sh = from % 64;
        r = word(w) >> sh;
        if (sh && sh + count > 64) r |= word(w + 1) << (64 - sh);
        return count == 64 ? r : r & ((uint64_t(1) << count) - 1);
    };
    int q = top + kMinExp - (precision - 1);             // weight of the last kept bit
    if (q < emin - (precision - 1)) q = emin - (precision - 1);
    const int qb = q - kMinExp;
    uint64_t mant = bits(qb, top - qb + 1);
    const uint64_t half = bit_at(qb - 1);
    bool sticky = false;  // any bit below the half bit
    const int sb = qb - 1;
    if (sb > 0) {
        for (int i = lo_; i < sb / 64 && !sticky; ++i) sticky = word(i) != 0;
        if (!sticky && sb % 64) sticky = (word(sb / 64) & ((uint64_t(1) << (sb % 64)) - 1)) != 0;
    }
    if (half && (sticky || (mant & 1))) ++mant;
    double r = std::ldexp(static_cast<double>(mant), q);
    if (r > max_finite) r = std::numeric_limits<double>::infinity();
    return negative ? -r : r;
}

double ExactAccumulator::round_f32() const { return round(24, -126, 3.4028234663852886e38); }
double ExactAccumulator::round_f16() const { return round(11, -14, 65504.0); }

}  // namespace spmma::isa

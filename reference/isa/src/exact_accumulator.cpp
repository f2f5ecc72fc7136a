// Exact accumulation with one rounding (see exact_accumulator.hpp).
#include <spmma/isa/exact_accumulator.hpp>

#include <cmath>
#include <limits>
#include <utility>

namespace spmma::isa {

void ExactAccumulator::add_at(Big& b, uint64_t mant, int bit) {
    int limb = bit / 64;
    const int sh = bit % 64;
    const uint64_t parts[2] = {mant << sh, sh ? (mant >> (64 - sh)) : 0};
    uint64_t carry = 0;
    for (int i = 0; limb < kLimbs && (i < 2 || carry); ++i, ++limb) {
        const uint64_t v = i < 2 ? parts[i] : 0;
        const uint64_t s = b[limb] + v;
        const uint64_t c1 = s < v;
        const uint64_t s2 = s + carry;
        carry = c1 + (s2 < s);
        b[limb] = s2;
    }
}

void ExactAccumulator::add(double v) {
    any_term_ = true;
    if (!(v == 0.0 && std::signbit(v))) all_neg_zero_ = false;
    if (std::isnan(v)) { nan_ = true; return; }
    if (std::isinf(v)) { (v > 0 ? pos_inf_ : neg_inf_) = true; return; }
    if (v == 0.0) return;
    int e;
    const double f = std::frexp(std::fabs(v), &e);               // |v| = f * 2^e, f in [0.5, 1)
    const auto mant = static_cast<uint64_t>(std::ldexp(f, 53));  // exact: at most 53 significant bits
    add_at(v > 0 ? pos_ : neg_, mant, e - 53 - kMinExp);
}

// NOTES: magnitude |pos - neg| by schoolbook subtraction, then keep the bits from the leading one
// down to the quantum of the target format at that binade (or its subnormal quantum), and round
// half to even on the bits below.
double ExactAccumulator::round(int precision, int emin, double max_finite) const {
    if (is_nan()) return std::numeric_limits<double>::quiet_NaN();
    if (pos_inf_) return std::numeric_limits<double>::infinity();
    if (neg_inf_) return -std::numeric_limits<double>::infinity();
    Big a = pos_, b = neg_;
    bool negative = false;
    for (int i = kLimbs - 1; i >= 0; --i)
        if (a[i] != b[i]) { negative = a[i] < b[i]; break; }
    if (negative) std::swap(a, b);
    Big m{};
    uint64_t borrow = 0;
    for (int i = 0; i < kLimbs; ++i) {
        const uint64_t d = a[i] - b[i];
        const uint64_t b1 = a[i] < b[i];
        m[i] = d - borrow;
        borrow = b1 | (d < borrow);
    }
    int top = -1;
    for (int i = kLimbs - 1; i >= 0 && top < 0; --i)
        if (m[i]) top = i * 64 + 63 - __builtin_clzll(m[i]);
    if (top < 0) return 0.0;
    auto bit = [&](int i) -> uint64_t { return i < 0 ? 0 : (m[i / 64] >> (i % 64)) & 1u; };
    int q = top + kMinExp - (precision - 1);             // weight of the last kept bit
    if (q < emin - (precision - 1)) q = emin - (precision - 1);
    const int qb = q - kMinExp;
    uint64_t mant = 0;
    for (int i = top; i >= qb; --i) mant = (mant << 1) | bit(i);
    const uint64_t half = bit(qb - 1);
    bool sticky = false;  // any bit below the half bit
    const int sb = qb - 1;
    if (sb > 0) {
        for (int i = 0; i < sb / 64 && !sticky; ++i) sticky = m[i] != 0;
        if (!sticky && sb % 64) sticky = (m[sb / 64] & ((uint64_t(1) << (sb % 64)) - 1)) != 0;
    }
    if (half && (sticky || (mant & 1))) ++mant;
    double r = std::ldexp(static_cast<double>(mant), q);
    if (r > max_finite) r = std::numeric_limits<double>::infinity();
    return negative ? -r : r;
}

double ExactAccumulator::round_f32() const { return round(24, -126, 3.4028234663852886e38); }
double ExactAccumulator::round_f16() const { return round(11, -14, 65504.0); }

}  // namespace spmma::isa

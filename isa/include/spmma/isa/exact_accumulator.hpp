// The arithmetic the instruction models share (mma.sp, wgmma.mma_async.sp, tcgen05.mma.sp): an
// exact accumulator (every addend kept exactly, order-independent) rounded once to the
// accumulator format. The PTX text leaves accumulation order and intermediate rounding
// unspecified; one exact sum with one rounding is the order-free answer the models give.
// NOTES: it covers every finite double, which tf32 subnormal products (2^-272) and block-scaled
// products (ue8m0 2^-127 squared times subnormal elements) need.
#pragma once

#include <array>
#include <cstdint>

namespace spmma::isa {

class ExactAccumulator {
public:
    // Adds a double exactly (NaN poisons the sum; +inf with -inf gives NaN).
    void add(double v);
    bool is_nan() const { return nan_ || (pos_inf_ && neg_inf_); }
    // At least one term was added and every term was -0: the IEEE sum is -0 (round() gives +0
    // for every exact zero; a model whose hardware keeps the sign of zero asks this).
    bool all_terms_negative_zero() const { return any_term_ && all_neg_zero_; }
    // The exact sum rounded to nearest-even to a binary format with `precision` significand
    // bits (implicit bit included), minimum normal exponent `emin`, largest finite `max_finite`;
    // overflow gives +-inf, NaN gives NaN, an exact zero gives +0. Returned exactly as a double.
    double round(int precision, int emin, double max_finite) const;
    double round_f32() const;  // 24, -126
    double round_f16() const;  // 11, -14

private:
    // Fixed point: bit 0 of limb 0 weighs 2^kMinExp; covers every double.
    static constexpr int kMinExp = -1152;
    static constexpr int kLimbs = 36;  // 2304 bits
    using Big = std::array<uint64_t, kLimbs>;
    void add_at(Big& b, uint64_t mant, int bit);
    Big pos_{}, neg_{};
    // NOTES: the limbs any term reached (lo_ .. hi_, carries included; empty while hi_ < lo_):
    // outside them both sums are zero, so rounding looks at a few limbs, not all 36 (the
    // emulated GEMMs round millions of sums).
    int lo_ = kLimbs, hi_ = -1;
    bool nan_ = false, pos_inf_ = false, neg_inf_ = false;
    bool any_term_ = false, all_neg_zero_ = true;
};

}  // namespace spmma::isa

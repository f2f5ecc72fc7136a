// encode() for hot loops: the same code points as spmma::encode (types.hpp), computed with
// integer operations on the double's bits instead of frexp/ldexp/nearbyint, so that operand
// generation runs at a few nanoseconds per element. tests/types checks it against encode() on
// every type, at random and at the edges (ties, binade carries, subnormals, overflow, NaN).
//
// NOTES: the rounding is the same as encode_minifloat's: the quantum of |v|'s binade (the
// subnormal one below the smallest normal), |v| / quantum rounded half to even, the fields
// rebuilt from that integer so a carry moves to the next binade. Here |v| / quantum is the
// double's 53-bit significand shifted right, and the shifted-out bits decide the rounding.
#pragma once

#include <spmma/types.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace spmma {

// How a type is encoded: f32 by the hardware conversion, the small floats (and tf32) by the
// minifloat rounding, integers by rounding and clamping, the rest (ue8m0) by encode().
enum class EncodeKind { F32, Mini, Tf32, Int, Other };

// A minifloat's mantissa bits and smallest normal exponent as compile-time constants (the shifts
// then take immediates): MiniFormat<10, -14> is f16. encode_mini<F> needs man_bits() == F's.
template <int ManBits, int Emin>
struct MiniFormat {
    static constexpr int man_bits = ManBits, emin = Emin;
};

class FastEncoder {
public:
    explicit FastEncoder(DType t);
    EncodeKind kind() const { return kind_; }

    // encode() for a type of kind K (kind() == K): hot loops pick K once, outside the loop.
    template <EncodeKind K>
    [[gnu::always_inline]] uint32_t encode_as(double v) const {
        if constexpr (K == EncodeKind::F32) {
            const float f = static_cast<float>(v);
            uint32_t u;
            std::memcpy(&u, &f, 4);
            return u;
        } else if constexpr (K == EncodeKind::Mini) {
            return mini(v);
        } else if constexpr (K == EncodeKind::Tf32) {
            const uint32_t c = mini(v);
            return ((c >> 18) << 31) | (((c >> 10) & 0xff) << 23) | ((c & 0x3ff) << 13);
        } else if constexpr (K == EncodeKind::Int) {
            return integer(v);
        } else {
            return encode(type_, v);
        }
    }

    // The minifloat rounding with this type's format fixed at compile time (the generation loops
    // pick the format once; man_bits() and emin() say which). Tf32 spreads the code into f32 bits.
    template <class Format, bool Tf32 = false>
    [[gnu::always_inline]] uint32_t encode_mini(double v) const {
        const uint32_t c = mini_with<Format>(v);
        if constexpr (Tf32) return ((c >> 18) << 31) | (((c >> 10) & 0xff) << 23) | ((c & 0x3ff) << 13);
        return c;
    }
    int man_bits() const { return man_bits_; }
    int emin() const { return emin_; }

    // The constants encode_as<K> works with, for encoders that do the same arithmetic several
    // elements at a time (core's batch generator); tests hold both to the same codes.
    struct Constants {
        int man_bits, emin;
        bool has_sign, ieee;
        uint32_t sign_bit, max_code, inf_code, nan_code;
        uint64_t max_bits;
        double int_lo, int_hi;
        uint32_t int_mask;
    };
    Constants constants() const {
        return {man_bits_, emin_, has_sign_, ieee_, sign_bit_, max_code_, inf_code_, nan_code_, max_bits_, int_lo_, int_hi_, int_mask_};
    }

    uint32_t operator()(double v) const {
        switch (kind_) {
            case EncodeKind::F32: return encode_as<EncodeKind::F32>(v);
            case EncodeKind::Mini: return encode_as<EncodeKind::Mini>(v);
            case EncodeKind::Tf32: return encode_as<EncodeKind::Tf32>(v);
            case EncodeKind::Int: return encode_as<EncodeKind::Int>(v);
            case EncodeKind::Other: break;
        }
        return encode(type_, v);
    }

private:
    using Kind = EncodeKind;

    struct RuntimeFormat {
        int man_bits, emin;
    };
    [[gnu::always_inline]] uint32_t mini(double v) const { return mini_with(v, RuntimeFormat{man_bits_, emin_}); }
    template <class Format>
    [[gnu::always_inline]] uint32_t mini_with(double v) const { return mini_with(v, Format{}); }

    // Format has man_bits and emin (runtime members, or constants).
    template <class Format>
    [[gnu::always_inline]] uint32_t mini_with(double v, const Format& f) const {
        const int man_bits = f.man_bits, emin = f.emin;
        uint64_t bits;
        std::memcpy(&bits, &v, 8);
        const uint64_t abs_bits = bits & ~(1ull << 63);
        if (abs_bits > 0x7ff0000000000000ull) return nan_code_;           // NaN
        const bool neg = bits >> 63;
        if (!has_sign_ && neg) return 0;                                    // unsigned: clamp to 0
        const uint32_t sign = neg ? sign_bit_ : 0u;                         // sign_bit_ is 0 when unsigned
        if (abs_bits == 0) return sign;
        if (abs_bits > max_bits_) return sign | overflow(abs_bits);
        const int dexp = static_cast<int>(abs_bits >> 52);
        if (dexp == 0) return sign;  // below 2^-1022: under half the smallest subnormal of every format
        const int e = dexp - 1023;
        const int binade = e > emin ? e : emin;
        const int shift = binade - man_bits - e + 52;  // >= 52 - man_bits > 0
        if (shift >= 64) return sign;
        const uint64_t sig = (abs_bits & ((1ull << 52) - 1)) | (1ull << 52);
        uint64_t units = sig >> shift;
        const uint64_t rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        units += static_cast<uint64_t>((rem > half) | ((rem == half) & (units & 1)));  // half to even, without a branch
        // Below 2^man_bits only at the subnormal binade (exponent field 0, units 0 included);
        // 2^(man_bits+1) is a carry into the next binade. Selects, not branches: fp8's carries
        // and subnormals are common enough to mispredict.
        const bool sub = units < (1ull << man_bits);
        const bool carry = units == (1ull << (man_bits + 1));
        const int exp_field = sub ? 0 : binade - emin + 1 + static_cast<int>(carry);
        units >>= static_cast<int>(carry);
        uint32_t code = (static_cast<uint32_t>(exp_field) << man_bits) | (static_cast<uint32_t>(units) & ((1u << man_bits) - 1));
        if (code > max_code_) code = ieee_ ? inf_code_ : max_code_;
        return sign | code;
    }
    uint32_t overflow(uint64_t abs_bits) const;  // |v| above the largest finite value
    uint32_t integer(double v) const {
        if (std::isnan(v)) return 0;
        const double r = std::nearbyint(v);
        const double c = r < int_lo_ ? int_lo_ : (r > int_hi_ ? int_hi_ : r);
        return static_cast<uint32_t>(static_cast<int64_t>(c)) & int_mask_;
    }

    DType type_;
    Kind kind_ = Kind::Other;
    // minifloats (and tf32 as s e8 m10)
    int man_bits_ = 0, emin_ = 0;
    bool has_sign_ = true, ieee_ = false;
    uint32_t sign_bit_ = 0, max_code_ = 0, inf_code_ = 0, nan_code_ = 0;
    uint64_t max_bits_ = 0;      // bits of the largest finite value as a double
    uint64_t inf_from_bits_ = 0; // ieee: |v| at or above this rounds to infinity (max + half an ulp)
    // integers
    double int_lo_ = 0, int_hi_ = 0;
    uint32_t int_mask_ = 0;
};

}  // namespace spmma

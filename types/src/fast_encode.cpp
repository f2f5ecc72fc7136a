// FastEncoder's constants, derived from the reference codec (types.cpp) so the two cannot
// disagree about a format.
#include <spmma/fast_encode.hpp>

#include <limits>

namespace spmma {
namespace {

uint64_t bits_of(double v) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
}

}  // namespace

FastEncoder::FastEncoder(DType t) : type_(t) {
    const TypeInfo& ti = info(t);
    constexpr double inf = std::numeric_limits<double>::infinity();
    switch (t) {
        case DType::F32: kind_ = Kind::F32; return;
        case DType::UE8M0: case DType::None: kind_ = Kind::Other; return;
        case DType::TF32: {
            // tf32 is rounded as the minifloat s e8 m10 and then spread into f32 bits.
            kind_ = Kind::Tf32;
            man_bits_ = 10;
            emin_ = -126;
            sign_bit_ = 1u << 18;
            max_code_ = (254u << 10) | 0x3ffu;
            inf_code_ = 255u << 10;
            nan_code_ = (255u << 10) | 0x200u;
            ieee_ = true;
            max_bits_ = bits_of(ti.max_finite);
            inf_from_bits_ = bits_of(ti.max_finite + std::ldexp(1.0, 127 - 10 - 1));
            return;
        }
        default: break;
    }
    if (ti.cls == TypeClass::Integer) {
        kind_ = Kind::Int;
        int_hi_ = ti.max_finite;
        int_lo_ = ti.is_signed ? -(ti.max_finite + 1) : 0.0;
        int_mask_ = ti.bits == 32 ? 0xffffffffu : (1u << ti.bits) - 1;
        return;
    }
    kind_ = Kind::Mini;
    man_bits_ = ti.mantissa_bits;
    emin_ = std::ilogb(min_normal(t));
    has_sign_ = ti.is_signed;
    sign_bit_ = has_sign_ ? 1u << (ti.bits - 1) : 0u;
    max_code_ = encode(t, ti.max_finite);
    nan_code_ = encode(t, std::numeric_limits<double>::quiet_NaN());
    ieee_ = std::isinf(decode(t, encode(t, inf)));
    inf_code_ = ieee_ ? encode(t, inf) : max_code_;
    max_bits_ = bits_of(ti.max_finite);
    inf_from_bits_ = bits_of(ti.max_finite + 0.5 * ulp(t, ti.max_finite));
}

uint32_t FastEncoder::overflow(uint64_t abs_bits) const {
    // Positive doubles order like their bits.
    if (ieee_ && abs_bits >= inf_from_bits_) return inf_code_;
    return max_code_;
}

}  // namespace spmma

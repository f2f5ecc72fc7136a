// Internal: the counter-based generator behind every operand (operands.cpp). One Drawer per
// (distribution, type, seed, stream); value(index) is draw()'s definition, inlined for the
// generation loops.
#pragma once

#include <spmma/core/problem.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace spmma::detail {

enum Stream : uint64_t {
    kStreamA = 1, kStreamB = 2, kStreamC = 3, kStreamScaleA = 4, kStreamScaleB = 5,
    kStreamRowScale = 6, kStreamColScale = 7, kStreamBias = 8,  // the epilogue's vectors
};

inline uint64_t mix(uint64_t x) {  // splitmix64 finalizer
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// [0, 1); through int64 (exact below 2^53), which converts in one instruction where uint64 takes a branch.
inline double unit(uint64_t b) { return static_cast<double>(static_cast<int64_t>(b >> 11)) * 0x1p-53; }

// Half-width of the uniform range for a float type: +-1 for wide types, wider for the 6/4-bit
// ones so their few code points are all used.
inline double float_range(DType t) {
    if (info(t).cls != TypeClass::Float) return 1.0;
    switch (t) {
        case DType::E2M1: return 6.0;
        case DType::E2M3: return 4.0;
        case DType::E3M2: return 8.0;
        default: return 1.0;
    }
}

class Drawer {
public:
    Drawer(Distribution d, DType t, uint64_t seed, uint64_t stream)
        : dist_(d), type_(t), key_(mix(mix(seed) ^ (stream * 0x632be59bd9b4e019ull))), range_(float_range(t)) {
        const TypeInfo& ti = info(t);
        integer_ = ti.cls == TypeClass::Integer;
        is_signed_ = ti.is_signed;
        max_ = ti.max_finite;
    }

    // The raw 64 bits of draw `n` (0 or 1) of element `index`.
    uint64_t bits(uint64_t index, uint64_t n = 0) const { return mix(key_ ^ (index * 4 + n)); }

    Distribution distribution() const { return dist_; }
    DType type() const { return type_; }
    uint64_t key() const { return key_; }
    double range() const { return range_; }
    double max() const { return max_; }
    bool integer() const { return integer_; }
    // The lowest value of an int draw (-3 or 0), and of a uniform draw into an integer type.
    double int_lo() const { return is_signed_ ? -3 : 0; }
    double uniform_int_lo() const { return is_signed_ ? -(max_ + 1) : 0.0; }

    // operator() for distribution D: hot loops pick D once, outside the loop.
    template <Distribution D>
    double value(uint64_t index) const {
        const double u = unit(bits(index));
        if constexpr (D == Distribution::Int) {
            const int lo = static_cast<int>(int_lo());
            return lo + static_cast<int>(u * (4 - lo));
        } else if constexpr (D == Distribution::Uniform) {
            if (integer_) {
                if (type_ == DType::S32) return std::nearbyint((2.0 * u - 1.0) * 65536.0);
                const double lo = uniform_int_lo();
                return floor_of(lo + u * (max_ - lo + 1));
            }
            return (2.0 * u - 1.0) * range_;
        } else {
            return (*this)(index);
        }
    }

    double operator()(uint64_t index) const {
        const double u = unit(bits(index));
        if (dist_ == Distribution::Int) {
            // Small integers: exact in every operand type and in every accumulator.
            const int lo = static_cast<int>(int_lo());
            return lo + static_cast<int>(u * (4 - lo));
        }
        double x;
        if (dist_ == Distribution::Uniform) {
            x = 2.0 * u - 1.0;  // [-1, 1)
        } else {
            const double u2 = unit(bits(index, 1));
            x = std::sqrt(-2.0 * std::log1p(-u)) * std::cos(6.283185307179586 * u2);  // N(0, 1)
        }
        if (integer_) {
            if (type_ == DType::S32) return std::nearbyint(x * 65536.0);
            const double lo = uniform_int_lo();
            if (dist_ == Distribution::Uniform) return floor_of(lo + u * (max_ - lo + 1));
            return std::clamp(std::nearbyint(x * max_ / 4.0 + (is_signed_ ? 0 : max_ / 2)), lo, max_);
        }
        return x * range_;
    }

private:
    // std::floor without a library call, exact for |y| < 2^62.
    static double floor_of(double y) {
        const auto t = static_cast<int64_t>(y);
        return static_cast<double>(static_cast<double>(t) > y ? t - 1 : t);
    }

    Distribution dist_;
    DType type_;
    uint64_t key_;
    double range_;
    bool integer_ = false, is_signed_ = false;
    double max_ = 0;
};

}  // namespace spmma::detail

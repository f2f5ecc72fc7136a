// Element types: the table, the codecs, canonical buffer access.
#include <spmma/types.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>

namespace spmma {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// NOTES: one table for every type; max_finite and epsilon follow from the format and are
// written out here so tests can check them against the codec.
constexpr std::array<TypeInfo, 17> kTypes{{
    {DType::None, 0, 0, TypeClass::Float, false, 0, 0, 0},
    {DType::F32, 32, 32, TypeClass::Float, true, 23, 3.4028234663852886e38, 0x1p-23},
    {DType::F16, 16, 16, TypeClass::Float, true, 10, 65504.0, 0x1p-10},
    {DType::BF16, 16, 16, TypeClass::Float, true, 7, 3.3895313892515355e38, 0x1p-7},
    {DType::TF32, 32, 32, TypeClass::Float, true, 10, 3.4011621342146535e38, 0x1p-10},
    {DType::E4M3, 8, 8, TypeClass::Float, true, 3, 448.0, 0x1p-3},
    {DType::E5M2, 8, 8, TypeClass::Float, true, 2, 57344.0, 0x1p-2},
    {DType::E3M2, 6, 8, TypeClass::Float, true, 2, 28.0, 0x1p-2},
    {DType::E2M3, 6, 8, TypeClass::Float, true, 3, 7.5, 0x1p-3},
    {DType::E2M1, 4, 4, TypeClass::Float, true, 1, 6.0, 0x1p-1},
    {DType::UE8M0, 8, 8, TypeClass::Scale, false, 0, 0x1p127, 1.0},
    {DType::UE4M3, 7, 8, TypeClass::Scale, false, 3, 448.0, 0x1p-3},  // bit 7 unused (zero)
    {DType::S8, 8, 8, TypeClass::Integer, true, 0, 127.0, 0},
    {DType::U8, 8, 8, TypeClass::Integer, false, 0, 255.0, 0},
    {DType::S4, 4, 4, TypeClass::Integer, true, 0, 7.0, 0},
    {DType::U4, 4, 4, TypeClass::Integer, false, 0, 15.0, 0},
    {DType::S32, 32, 32, TypeClass::Integer, true, 0, 2147483647.0, 0},
}};

// How a small float format spends its top exponent code.
enum class Special {
    Ieee,    // all-ones exponent: inf (mantissa 0) or NaN
    FnNan,   // only all-ones exponent and mantissa is NaN; no infinity (e4m3, ue4m3)
    Finite,  // every code is a finite number (e3m2, e2m3, e2m1)
};

struct Format {
    int exp_bits;
    int man_bits;
    int bias;
    bool has_sign;
    Special special;
};

Format format_of(DType t) {
    switch (t) {
        case DType::F32: return {8, 23, 127, true, Special::Ieee};
        case DType::TF32: return {8, 10, 127, true, Special::Ieee};
        case DType::F16: return {5, 10, 15, true, Special::Ieee};
        case DType::BF16: return {8, 7, 127, true, Special::Ieee};
        case DType::E4M3: return {4, 3, 7, true, Special::FnNan};
        case DType::E5M2: return {5, 2, 15, true, Special::Ieee};
        case DType::E3M2: return {3, 2, 3, true, Special::Finite};
        case DType::E2M3: return {2, 3, 1, true, Special::Finite};
        case DType::E2M1: return {2, 1, 1, true, Special::Finite};
        case DType::UE4M3: return {4, 3, 7, false, Special::FnNan};
        default: throw std::logic_error("format_of: not a small float type");
    }
}

double decode_minifloat(const Format& f, uint32_t code) {
    const uint32_t man_mask = (1u << f.man_bits) - 1;
    const uint32_t exp_mask = (1u << f.exp_bits) - 1;
    const uint32_t man = code & man_mask;
    const uint32_t exp = (code >> f.man_bits) & exp_mask;
    const bool neg = f.has_sign && ((code >> (f.man_bits + f.exp_bits)) & 1u);
    double v;
    if (f.special == Special::Ieee && exp == exp_mask) {
        v = man ? std::numeric_limits<double>::quiet_NaN() : kInf;
    } else if (f.special == Special::FnNan && exp == exp_mask && man == man_mask) {
        v = std::numeric_limits<double>::quiet_NaN();
    } else if (exp == 0) {
        v = std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits);
    } else {
        v = std::ldexp(static_cast<double>(man | (1u << f.man_bits)),
                       static_cast<int>(exp) - f.bias - f.man_bits);
    }
    return neg ? -v : v;
}

uint32_t max_finite_code(const Format& f) {
    const uint32_t exp_mask = (1u << f.exp_bits) - 1;
    const uint32_t man_mask = (1u << f.man_bits) - 1;
    switch (f.special) {
        case Special::Ieee: return ((exp_mask - 1) << f.man_bits) | man_mask;
        case Special::FnNan: return (exp_mask << f.man_bits) | (man_mask - 1);
        case Special::Finite: return (exp_mask << f.man_bits) | man_mask;
    }
    return 0;
}

uint32_t nan_code(const Format& f) {
    const uint32_t exp_mask = (1u << f.exp_bits) - 1;
    const uint32_t man_mask = (1u << f.man_bits) - 1;
    switch (f.special) {
        case Special::Ieee: return (exp_mask << f.man_bits) | (1u << (f.man_bits - 1));
        case Special::FnNan: return (exp_mask << f.man_bits) | man_mask;
        case Special::Finite: return max_finite_code(f);  // no NaN: +max, documented
    }
    return 0;
}

// NOTES: rounding is done on the exact double: pick the quantum (spacing of representable
// values) at |v|'s binade, round |v|/quantum half-to-even, and rebuild the fields from the
// rounded integer. A carry into the next binade falls out of the rebuild.
uint32_t encode_minifloat(const Format& f, double v) {
    const int sign_shift = f.man_bits + f.exp_bits;
    if (std::isnan(v)) return nan_code(f);
    const bool neg = std::signbit(v);
    if (neg && !f.has_sign) return 0;  // unsigned formats: negatives clamp to zero
    const uint32_t sign = (neg && f.has_sign) ? (1u << sign_shift) : 0u;
    const double a = std::fabs(v);
    const double max = decode_minifloat(f, max_finite_code(f));
    const uint32_t exp_mask = (1u << f.exp_bits) - 1;
    if (a == 0.0) return sign;
    if (std::isinf(a) || a > max) {
        if (f.special == Special::Ieee) {
            // RNE: values at or above max + half an ulp go to infinity.
            const double half_ulp = std::ldexp(1.0, static_cast<int>(exp_mask - 1) - f.bias - f.man_bits - 1);
            if (std::isinf(a) || a >= max + half_ulp) return sign | (exp_mask << f.man_bits);
        }
        return sign | max_finite_code(f);
    }
    const int emin = 1 - f.bias;
    int e;
    std::frexp(a, &e);  // a = frac * 2^e, frac in [0.5, 1)
    int binade = e - 1;
    if (binade < emin) binade = emin;
    const double quantum = std::ldexp(1.0, binade - f.man_bits);
    const double r = std::nearbyint(a / quantum);  // default rounding mode: half to even
    uint64_t units = static_cast<uint64_t>(r);     // value = units * quantum
    if (units == 0) return sign;
    // Rebuild: units in [2^m, 2^(m+1)] for normals (2^(m+1) is a carry), < 2^m for subnormals.
    int exp_field = binade - emin + 1;
    if (units < (1ull << f.man_bits)) {
        exp_field = 0;  // subnormal (only possible at binade == emin)
    } else if (units == (1ull << (f.man_bits + 1))) {
        units >>= 1;
        exp_field += 1;
    }
    const uint32_t man = static_cast<uint32_t>(units) & ((1u << f.man_bits) - 1);
    uint32_t code = (static_cast<uint32_t>(exp_field) << f.man_bits) | man;
    if (code > max_finite_code(f)) code = (f.special == Special::Ieee) ? (exp_mask << f.man_bits) : max_finite_code(f);
    return sign | code;
}

int64_t int_min(DType t) {
    switch (t) {
        case DType::S8: return -128;
        case DType::S4: return -8;
        case DType::S32: return std::numeric_limits<int32_t>::min();
        default: return 0;
    }
}

}  // namespace

std::span<const TypeInfo> all_types() { return {kTypes.data() + 1, kTypes.size() - 1}; }

const TypeInfo& info(DType t) {
    const auto i = static_cast<size_t>(t);
    if (i >= kTypes.size()) throw std::invalid_argument("unknown element type code " + std::to_string(i));
    return kTypes[i];
}

std::optional<DType> parse_dtype(std::string_view s) {
    for (const auto& t : all_types())
        if (s == name(t.type)) return t.type;
    return std::nullopt;
}

size_t storage_bytes(DType t, int64_t count) {
    const auto bits = static_cast<uint64_t>(info(t).storage_bits) * static_cast<uint64_t>(count);
    return static_cast<size_t>((bits + 7) / 8);
}

uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float f32_from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

double decode(DType t, uint32_t code) {
    switch (t) {
        case DType::F32: return f32_from_bits(code);
        case DType::TF32: return f32_from_bits(code & ~0x1fffu);
        case DType::UE8M0: return (code & 0xff) == 0xff ? std::numeric_limits<double>::quiet_NaN()
                                                        : std::ldexp(1.0, static_cast<int>(code & 0xff) - 127);
        case DType::S8: return static_cast<int8_t>(code & 0xff);
        case DType::U8: return code & 0xff;
        case DType::S4: return static_cast<int>((code & 0xf) ^ 0x8) - 8;
        case DType::U4: return code & 0xf;
        case DType::S32: return static_cast<int32_t>(code);
        case DType::None: throw std::invalid_argument("decode: no type");
        default: return decode_minifloat(format_of(t), code & ((1u << info(t).bits) - 1));
    }
}

uint32_t encode(DType t, double v) {
    switch (t) {
        case DType::F32: return f32_bits(static_cast<float>(v));
        case DType::TF32: {
            const uint32_t c = encode_minifloat(format_of(t), v);  // s e8 m10
            return ((c >> 18) << 31) | (((c >> 10) & 0xff) << 23) | ((c & 0x3ff) << 13);
        }
        case DType::UE8M0: {
            if (std::isnan(v)) return 0xff;
            if (!(v > 0)) return 0;        // no zero: the smallest scale, 2^-127
            if (std::isinf(v)) return 0xfe;  // no infinity: saturate to 2^127
            int e;
            const double frac = std::frexp(v, &e);  // v = frac * 2^e, frac in [0.5,1)
            // Nearest power of two, ties (frac == 0.75, i.e. 1.5 * 2^(e-1)) to the even mantissa,
            // which for a zero-bit mantissa means rounding up.
            int p = (frac >= 0.75) ? e : e - 1;
            p = std::max(-127, std::min(127, p));
            return static_cast<uint32_t>(p + 127);
        }
        case DType::S8: case DType::U8: case DType::S4: case DType::U4: case DType::S32: {
            const auto& ti = info(t);
            double r = std::isnan(v) ? 0.0 : std::nearbyint(v);
            r = std::max(static_cast<double>(int_min(t)), std::min(ti.max_finite, r));
            const auto i = static_cast<int64_t>(r);
            const uint32_t mask = ti.bits == 32 ? 0xffffffffu : ((1u << ti.bits) - 1);
            return static_cast<uint32_t>(i) & mask;
        }
        case DType::None: throw std::invalid_argument("encode: no type");
        default: return encode_minifloat(format_of(t), v);
    }
}

double min_normal(DType t) { return std::ldexp(1.0, 1 - format_of(t).bias); }

double ulp(DType t, double x) {
    const Format f = format_of(t);
    const double a = std::fabs(x);
    const double max = decode_minifloat(f, max_finite_code(f));
    int binade = 1 - f.bias;  // emin: subnormals share the smallest normal binade's spacing
    if (a >= max) {
        std::frexp(max, &binade);
        binade -= 1;
    } else if (a > 0) {
        int e;
        std::frexp(a, &e);  // a = frac * 2^e, frac in [0.5, 1): binade e - 1
        binade = std::max(binade, e - 1);
    }
    return std::ldexp(1.0, binade - f.man_bits);
}

const std::vector<float>& decode_table(DType t) {
    static std::array<std::vector<float>, kTypes.size()> tables;
    static std::array<std::once_flag, kTypes.size()> once;
    const auto& ti = info(t);
    if (ti.storage_bits > 16) throw std::invalid_argument(std::string("decode_table: ") + name(t) + " is wider than 16 bits");
    const auto i = static_cast<size_t>(t);
    std::call_once(once[i], [&] {
        const uint32_t n = 1u << ti.storage_bits;
        const uint32_t mask = (1u << ti.bits) - 1;
        tables[i].resize(n);
        for (uint32_t c = 0; c < n; ++c) tables[i][c] = static_cast<float>(decode(t, c & mask));
    });
    return tables[i];
}

uint32_t load_code(DType t, const void* buffer, int64_t index) {
    const auto* p = static_cast<const uint8_t*>(buffer);
    switch (info(t).storage_bits) {
        case 4: return (p[index >> 1] >> ((index & 1) * 4)) & 0xf;
        case 8: return p[index];
        case 16: { uint16_t v; std::memcpy(&v, p + index * 2, 2); return v; }
        case 32: { uint32_t v; std::memcpy(&v, p + index * 4, 4); return v; }
        default: throw std::invalid_argument("load_code: no storage for this type");
    }
}

void store_code(DType t, void* buffer, int64_t index, uint32_t code) {
    auto* p = static_cast<uint8_t*>(buffer);
    switch (info(t).storage_bits) {
        case 4: {
            const int shift = static_cast<int>(index & 1) * 4;
            uint8_t& b = p[index >> 1];
            b = static_cast<uint8_t>((b & ~(0xf << shift)) | ((code & 0xf) << shift));
            return;
        }
        case 8: p[index] = static_cast<uint8_t>(code); return;
        case 16: { const auto v = static_cast<uint16_t>(code); std::memcpy(p + index * 2, &v, 2); return; }
        case 32: std::memcpy(p + index * 4, &code, 4); return;
        default: throw std::invalid_argument("store_code: no storage for this type");
    }
}

uint8_t to_f8f6f4_container(DType t, uint32_t code) {
    switch (t) {
        case DType::E2M1: return static_cast<uint8_t>((code & 0xf) << 2);
        case DType::E3M2: case DType::E2M3: return static_cast<uint8_t>(code & 0x3f);
        case DType::E4M3: case DType::E5M2: return static_cast<uint8_t>(code);
        default: throw std::invalid_argument(std::string("no f8f6f4 container for ") + name(t));
    }
}

uint32_t from_f8f6f4_container(DType t, uint8_t c) {
    switch (t) {
        case DType::E2M1: return (c >> 2) & 0xf;
        case DType::E3M2: case DType::E2M3: return c & 0x3f;
        case DType::E4M3: case DType::E5M2: return c;
        default: throw std::invalid_argument(std::string("no f8f6f4 container for ") + name(t));
    }
}

}  // namespace spmma

// Element types: names, storage, and bit-exact codecs (encode with round-to-nearest-even,
// decode exactly). The one place that knows what a code point of each type means.
#pragma once

#include <spmma/plugin.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spmma {

enum class DType : int32_t {
    None = SPMMA_DTYPE_NONE,
    F32 = SPMMA_F32,
    F16 = SPMMA_F16,
    BF16 = SPMMA_BF16,
    TF32 = SPMMA_TF32,
    E4M3 = SPMMA_E4M3,
    E5M2 = SPMMA_E5M2,
    E3M2 = SPMMA_E3M2,
    E2M3 = SPMMA_E2M3,
    E2M1 = SPMMA_E2M1,
    UE8M0 = SPMMA_UE8M0,
    UE4M3 = SPMMA_UE4M3,
    S8 = SPMMA_S8,
    U8 = SPMMA_U8,
    S4 = SPMMA_S4,
    U4 = SPMMA_U4,
    S32 = SPMMA_S32,
};

enum class TypeClass { Float, Integer, Scale };

struct TypeInfo {
    DType type;
    int bits;             // meaningful bits of one element (4, 6, 7 for ue4m3, 8, 16, 32)
    int storage_bits;     // bits one element occupies in a canonical buffer (4, 8, 16, 32)
    TypeClass cls;
    bool is_signed;
    int mantissa_bits;    // explicit fraction bits of floats (10 for f16); 0 for integers
    double max_finite;    // largest finite value
    double epsilon;       // 2^-mantissa_bits for floats, 0 for integers
};

// Every type, in the order of the ABI's constants.
std::span<const TypeInfo> all_types();
const TypeInfo& info(DType t);
inline const char* name(DType t) { return spmma_dtype_name(static_cast<spmma_dtype>(t)); }
std::optional<DType> parse_dtype(std::string_view s);
inline bool is_float(DType t) { return info(t).cls == TypeClass::Float; }
inline bool is_integer(DType t) { return info(t).cls == TypeClass::Integer; }

// Bytes of `count` elements in a canonical buffer (4-bit types two per byte, rounded up).
size_t storage_bytes(DType t, int64_t count);

// ---- codecs --------------------------------------------------------------------------------
// A code is the element's bit pattern in the low `bits` bits (f32/tf32/s32: all 32).

// The exact value of a code. NaN codes give NaN; TF32 drops the low 13 mantissa bits first
// (what the instruction does). Integer codes give their integer value.
double decode(DType t, uint32_t code);

// The code nearest to v: round-to-nearest-even; formats without infinity saturate to their
// largest finite value (NaN goes to NaN where the format has one, else to +max); integers
// round half to even and saturate. TF32 rounds to 10 fraction bits, stored as f32 bits.
uint32_t encode(DType t, double v);

// Spacing of the representable values of float type t (f32, tf32, f16, bf16, e4m3, e5m2,
// e3m2, e2m3, e2m1, ue4m3) at magnitude |x|: 2^(e - mantissa_bits) for |x| in [2^e, 2^(e+1)),
// the subnormal spacing below the smallest normal, the top binade's spacing at and above the
// largest finite value. Throws for other types.
double ulp(DType t, double x);

// Smallest positive normal value of float type t (2^-14 for f16). Throws for other types.
double min_normal(DType t);

// Decoded value of every code of an <= 16-bit type, index = code (size 2^storage_bits).
// Built once, thread-safe.
const std::vector<float>& decode_table(DType t);

// ---- canonical buffers ---------------------------------------------------------------------
uint32_t load_code(DType t, const void* buffer, int64_t index);
void store_code(DType t, void* buffer, int64_t index, uint32_t code);

// f8f6f4 8-bit container (kind::f8f6f4 / kind::mxf8f6f4): e2m1 sits in bits 5..2, e3m2/e2m3 in
// bits 5..0, 8-bit types as they are.
uint8_t to_f8f6f4_container(DType t, uint32_t code);
uint32_t from_f8f6f4_container(DType t, uint8_t container);

// f32 <-> bits without aliasing trouble.
uint32_t f32_bits(float f);
float f32_from_bits(uint32_t u);

}  // namespace spmma

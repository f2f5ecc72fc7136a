// How a tensor's elements are stored in a weight file (safetensors' dtype, a .npy descr), and
// how a stored tensor becomes an operand of one of spmma's types: bit for bit, through a view of
// its bytes (compressed-tensors' int8 view of FP8, ml_dtypes' raw bf16 in .npy), or converted by
// value with round-to-nearest-even.
#pragma once

#include <spmma/types.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace spmma::weights {

enum class StoredType {
    Bool, U8, I8, U16, I16, F16, BF16, U32, I32, F32, U64, I64, F64, F8_E4M3, F8_E5M2, F8_E8M0,
    Raw8,   // one byte whose meaning the file does not say (.npy "<V1": ml_dtypes' float8 types)
    Raw16,  // two bytes whose meaning the file does not say (.npy "<V2": ml_dtypes' bfloat16)
};

// safetensors' dtype name ("F16", "F8_E4M3"); "V1" / "V2" for the raw types.
const char* name(StoredType s);
int element_bytes(StoredType s);
// A safetensors dtype string; nullopt when it is not one of the types above (the raw types are
// not safetensors dtypes).
std::optional<StoredType> parse_safetensors_dtype(std::string_view s);
// A .npy descr, little-endian or byte-order free: "<f2" "<f4" "<f8" "|i1" "|u1" "<u2" "<i2"
// "<i4" "<u4" "<i8" "<u8" "|b1" and ml_dtypes' raw "<V1" "<V2" (also written "|V1", "|V2");
// nullopt for anything else (big-endian, structured, strings, objects).
std::optional<StoredType> parse_npy_descr(std::string_view descr);

// The spmma type whose codes the stored elements are, as they are: F16, BF16, F32, F8_E4M3 ->
// e4m3, F8_E5M2 -> e5m2, F8_E8M0 -> ue8m0, I8 -> s8, U8 -> u8; DType::None for the rest.
DType natural_type(StoredType s);

// The operand type a stored tensor runs as when no type is asked for: its own, tf32 for f32,
// the checkpoint's int8 view (e4m3, config.json) for 1-byte integers; None when no operand type
// holds it as it is (raw bytes, wider integers, f64, ue8m0).
DType run_type(StoredType s, DType int8_view);

enum class Reading {
    Bits,     // the stored codes are the operand's codes
    View,     // the stored bytes are the operand's codes under another name (int8 -> e4m3)
    Convert,  // each value decoded and encoded as the operand type (round to nearest even)
};
struct ReadPlan {
    Reading how = Reading::Bits;
    DType source = DType::None;  // the type the stored codes are decoded as
};

// How a tensor stored as `s` becomes an operand of type `t`, or why it cannot (nullopt and
// `why`): floats to any float type (bit for bit when the same); s8 / u8 as they are; 1-byte
// integers and Raw8 viewed as e4m3 / e5m2 (compressed-tensors stores FP8 through an int8
// view, ml_dtypes writes "<V1"); U16, I16 and Raw16 viewed as bf16 / f16 (ml_dtypes' "<V2").
// Integers are never converted by value: a float weight as s8 needs a quantization scale.
std::optional<ReadPlan> plan_read(StoredType s, DType t, std::string* why);

}  // namespace spmma::weights

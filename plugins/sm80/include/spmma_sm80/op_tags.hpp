// The operand-type combinations the sm80 kernels are built for: one constexpr description per
// combination, named like the kernels' type part. The host registry and the device Op structs
// (device/mma_ops.cuh) both read these, so a kernel's types are written down once.
#pragma once

#include <spmma/plugin.h>
#include <spmma_sm80/layout.hpp>

namespace spmma_sm80 {

struct OpInfo {
    spmma_dtype a, b, acc;
    bool satfinite;
    Family family;
    int min_sm;         // 80, or 89 for e4m3/e5m2
    const char* label;  // the type part of kernel names: "f16f16_f32", "s8u8_s32_sat"
};

namespace tags {
// 16-bit floats: m16n8k32.
constexpr OpInfo F16F16_F32{SPMMA_F16, SPMMA_F16, SPMMA_F32, false, kFamilyF16, 80, "f16f16_f32"};
constexpr OpInfo F16F16_F16{SPMMA_F16, SPMMA_F16, SPMMA_F16, false, kFamilyF16, 80, "f16f16_f16"};
constexpr OpInfo BF16BF16_F32{SPMMA_BF16, SPMMA_BF16, SPMMA_F32, false, kFamilyF16, 80, "bf16bf16_f32"};
// tf32: m16n8k16, 1:2.
constexpr OpInfo TF32TF32_F32{SPMMA_TF32, SPMMA_TF32, SPMMA_F32, false, kFamilyTF32, 80, "tf32tf32_f32"};
// 8-bit integers: m16n8k64.
constexpr OpInfo S8S8_S32{SPMMA_S8, SPMMA_S8, SPMMA_S32, false, kFamily8, 80, "s8s8_s32"};
constexpr OpInfo S8U8_S32{SPMMA_S8, SPMMA_U8, SPMMA_S32, false, kFamily8, 80, "s8u8_s32"};
constexpr OpInfo U8S8_S32{SPMMA_U8, SPMMA_S8, SPMMA_S32, false, kFamily8, 80, "u8s8_s32"};
constexpr OpInfo U8U8_S32{SPMMA_U8, SPMMA_U8, SPMMA_S32, false, kFamily8, 80, "u8u8_s32"};
constexpr OpInfo S8S8_S32_SAT{SPMMA_S8, SPMMA_S8, SPMMA_S32, true, kFamily8, 80, "s8s8_s32_sat"};
constexpr OpInfo S8U8_S32_SAT{SPMMA_S8, SPMMA_U8, SPMMA_S32, true, kFamily8, 80, "s8u8_s32_sat"};
constexpr OpInfo U8S8_S32_SAT{SPMMA_U8, SPMMA_S8, SPMMA_S32, true, kFamily8, 80, "u8s8_s32_sat"};
constexpr OpInfo U8U8_S32_SAT{SPMMA_U8, SPMMA_U8, SPMMA_S32, true, kFamily8, 80, "u8u8_s32_sat"};
// 4-bit integers: m16n8k128, pairwise 4:8.
constexpr OpInfo S4S4_S32{SPMMA_S4, SPMMA_S4, SPMMA_S32, false, kFamily4, 80, "s4s4_s32"};
constexpr OpInfo S4U4_S32{SPMMA_S4, SPMMA_U4, SPMMA_S32, false, kFamily4, 80, "s4u4_s32"};
constexpr OpInfo U4S4_S32{SPMMA_U4, SPMMA_S4, SPMMA_S32, false, kFamily4, 80, "u4s4_s32"};
constexpr OpInfo U4U4_S32{SPMMA_U4, SPMMA_U4, SPMMA_S32, false, kFamily4, 80, "u4u4_s32"};
constexpr OpInfo S4S4_S32_SAT{SPMMA_S4, SPMMA_S4, SPMMA_S32, true, kFamily4, 80, "s4s4_s32_sat"};
constexpr OpInfo S4U4_S32_SAT{SPMMA_S4, SPMMA_U4, SPMMA_S32, true, kFamily4, 80, "s4u4_s32_sat"};
constexpr OpInfo U4S4_S32_SAT{SPMMA_U4, SPMMA_S4, SPMMA_S32, true, kFamily4, 80, "u4s4_s32_sat"};
constexpr OpInfo U4U4_S32_SAT{SPMMA_U4, SPMMA_U4, SPMMA_S32, true, kFamily4, 80, "u4u4_s32_sat"};
// 8-bit floats: m16n8k64, sm_89 and newer.
constexpr OpInfo E4M3E4M3_F32{SPMMA_E4M3, SPMMA_E4M3, SPMMA_F32, false, kFamily8, 89, "e4m3e4m3_f32"};
constexpr OpInfo E4M3E5M2_F32{SPMMA_E4M3, SPMMA_E5M2, SPMMA_F32, false, kFamily8, 89, "e4m3e5m2_f32"};
constexpr OpInfo E5M2E4M3_F32{SPMMA_E5M2, SPMMA_E4M3, SPMMA_F32, false, kFamily8, 89, "e5m2e4m3_f32"};
constexpr OpInfo E5M2E5M2_F32{SPMMA_E5M2, SPMMA_E5M2, SPMMA_F32, false, kFamily8, 89, "e5m2e5m2_f32"};
}  // namespace tags

}  // namespace spmma_sm80

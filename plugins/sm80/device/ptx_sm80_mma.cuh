// PTX wrappers for the sparse warp-level MMA the sm80 plugin issues:
//   PTX ISA 9.7.14.6.3 mma.sp / mma.sp::ordered_metadata (fragments: 9.7.14.6.2),
// and one dense form (9.7.14.5.14) that bench/sm80's throughput probe compares them with.
// One wrapper per instruction form; `Ordered` picks mma.sp::ordered_metadata (true) or mma.sp
// (false), `Sel` is the sparsity selector (an immediate). C and D share registers: the
// wrappers accumulate in place. Every form takes four A and four B registers (see layout.hpp).
#pragma once

#include <cstdint>

namespace spmma_sm80::ptx {

// The operand list shared by the 4-register (f32 / s32) accumulator forms.
#define SPMMA_SP_ARGS4                                                                        \
    " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, %13;\n"
#define SPMMA_SP_OPERANDS(D, CONSTRAINT)                                                      \
    : CONSTRAINT(D[0]), CONSTRAINT(D[1]), CONSTRAINT(D[2]), CONSTRAINT(D[3])                  \
    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), \
      "r"(e), "n"(Sel)

// Emits the form `mnemonic_tail` (".sync.aligned.m16n8kK.row.col....") in both variants.
#define SPMMA_SP_ASM4(mnemonic_tail, D, CONSTRAINT)                                          \
    if constexpr (Ordered) {                                                                  \
        asm("mma.sp::ordered_metadata" mnemonic_tail SPMMA_SP_ARGS4 SPMMA_SP_OPERANDS(D, CONSTRAINT)); \
    } else {                                                                                  \
        asm("mma.sp" mnemonic_tail SPMMA_SP_ARGS4 SPMMA_SP_OPERANDS(D, CONSTRAINT));         \
    }

using A4 = uint32_t[4];
using B4 = uint32_t[4];

// PTX ISA 9.7.14.6.3 mma.sp{::ordered_metadata}.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
template <bool Ordered, int Sel>
__device__ __forceinline__ void mma_sp_m16n8k32_f32_f16(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
    SPMMA_SP_ASM4(".sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", d, "+f")
}

// PTX ISA 9.7.14.6.3 mma.sp{::ordered_metadata}.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32
template <bool Ordered, int Sel>
__device__ __forceinline__ void mma_sp_m16n8k32_f32_bf16(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
    SPMMA_SP_ASM4(".sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32", d, "+f")
}

// PTX ISA 9.7.14.6.3 mma.sp{::ordered_metadata}.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32
template <bool Ordered, int Sel>
__device__ __forceinline__ void mma_sp_m16n8k16_f32_tf32(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
    SPMMA_SP_ASM4(".sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", d, "+f")
}

// PTX ISA 9.7.14.6.3 mma.sp{::ordered_metadata}.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16
// (f16 accumulators: two registers of two halves each).
template <bool Ordered, int Sel>
__device__ __forceinline__ void mma_sp_m16n8k32_f16_f16(uint32_t (&d)[2], const A4& a, const B4& b, uint32_t e) {
#define SPMMA_SP_F16_TAIL                                                                       \
    ".sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%0, %1}, %10, %11;\n" \
    : "+r"(d[0]), "+r"(d[1])                                                                    \
    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e), "n"(Sel)
    if constexpr (Ordered) {
        asm("mma.sp::ordered_metadata" SPMMA_SP_F16_TAIL);
    } else {
        asm("mma.sp" SPMMA_SP_F16_TAIL);
    }
#undef SPMMA_SP_F16_TAIL
}

// PTX ISA 9.7.14.6.3 mma.sp{::ordered_metadata}.sync.aligned.m16n8k64.row.col.f32.<a>.<b>.f32,
// a, b in {e4m3, e5m2} (sm_89 and newer). AE5/BE5: the operand is e5m2 (else e4m3).
template <bool Ordered, int Sel, bool AE5, bool BE5>
__device__ __forceinline__ void mma_sp_m16n8k64_f32_f8(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
    if constexpr (!AE5 && !BE5) {
        SPMMA_SP_ASM4(".sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32", d, "+f")
    } else if constexpr (!AE5 && BE5) {
        SPMMA_SP_ASM4(".sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32", d, "+f")
    } else if constexpr (AE5 && !BE5) {
        SPMMA_SP_ASM4(".sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32", d, "+f")
    } else {
        SPMMA_SP_ASM4(".sync.aligned.m16n8k64.row.col.f32.e5m2.e5m2.f32", d, "+f")
    }
}

// PTX ISA 9.7.14.6.3 mma.sp{::ordered_metadata}.sync.aligned.m16n8k64.row.col{.satfinite}
// .s32.<a>.<b>.s32, a, b in {s8, u8}. AU/BU: the operand is unsigned.
template <bool Ordered, int Sel, bool AU, bool BU, bool Sat>
__device__ __forceinline__ void mma_sp_m16n8k64_s32_i8(int32_t (&d)[4], const A4& a, const B4& b, uint32_t e) {
#define SPMMA_SP_I8(SAT, AT, BT) SPMMA_SP_ASM4(".sync.aligned.m16n8k64.row.col" SAT ".s32." AT "." BT ".s32", d, "+r")
    if constexpr (Sat) {
        if constexpr (!AU && !BU) { SPMMA_SP_I8(".satfinite", "s8", "s8") }
        else if constexpr (!AU && BU) { SPMMA_SP_I8(".satfinite", "s8", "u8") }
        else if constexpr (AU && !BU) { SPMMA_SP_I8(".satfinite", "u8", "s8") }
        else { SPMMA_SP_I8(".satfinite", "u8", "u8") }
    } else {
        if constexpr (!AU && !BU) { SPMMA_SP_I8("", "s8", "s8") }
        else if constexpr (!AU && BU) { SPMMA_SP_I8("", "s8", "u8") }
        else if constexpr (AU && !BU) { SPMMA_SP_I8("", "u8", "s8") }
        else { SPMMA_SP_I8("", "u8", "u8") }
    }
#undef SPMMA_SP_I8
}

// PTX ISA 9.7.14.6.3 mma.sp{::ordered_metadata}.sync.aligned.m16n8k128.row.col{.satfinite}
// .s32.<a>.<b>.s32, a, b in {s4, u4} (A pairwise 4:8). AU/BU: the operand is unsigned.
template <bool Ordered, int Sel, bool AU, bool BU, bool Sat>
__device__ __forceinline__ void mma_sp_m16n8k128_s32_i4(int32_t (&d)[4], const A4& a, const B4& b, uint32_t e) {
#define SPMMA_SP_I4(SAT, AT, BT) SPMMA_SP_ASM4(".sync.aligned.m16n8k128.row.col" SAT ".s32." AT "." BT ".s32", d, "+r")
    if constexpr (Sat) {
        if constexpr (!AU && !BU) { SPMMA_SP_I4(".satfinite", "s4", "s4") }
        else if constexpr (!AU && BU) { SPMMA_SP_I4(".satfinite", "s4", "u4") }
        else if constexpr (AU && !BU) { SPMMA_SP_I4(".satfinite", "u4", "s4") }
        else { SPMMA_SP_I4(".satfinite", "u4", "u4") }
    } else {
        if constexpr (!AU && !BU) { SPMMA_SP_I4("", "s4", "s4") }
        else if constexpr (!AU && BU) { SPMMA_SP_I4("", "s4", "u4") }
        else if constexpr (AU && !BU) { SPMMA_SP_I4("", "u4", "s4") }
        else { SPMMA_SP_I4("", "u4", "u4") }
    }
#undef SPMMA_SP_I4
}

// PTX ISA 9.7.14.5.14 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (dense; the plugin's
// kernels do not issue it: bench/sm80's throughput probe compares mma.sp against it).
__device__ __forceinline__ void mma_m16n8k16_f32_f16(float (&d)[4], const A4& a, const uint32_t (&b)[2]) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

#undef SPMMA_SP_ASM4
#undef SPMMA_SP_OPERANDS
#undef SPMMA_SP_ARGS4

}  // namespace spmma_sm80::ptx

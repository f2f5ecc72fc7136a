// PTX wrappers for the sm_120a sparse warp-level MMA forms the sm120a plugin issues:
//   PTX ISA 9.7.14.6.3 mma.sp::ordered_metadata with .kind (fragments: 9.7.14.6.2; block
//   scaling: 9.7.14.3). One wrapper per instruction form; the operand types pick the mnemonic at
// compile time. C and D share registers (the wrappers accumulate in place); the sparsity
// selector is 0 (the only one for 16 metadata chunks a row); the scale selectors
// {byte-id, thread-id} are immediates (template arguments), as layout.hpp assigns them.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>

namespace spmma_sm120a::ptx {

using A4 = uint32_t[4];
using B4 = uint32_t[4];

// Expands X(a_name, b_name) for the compile-time operand types AT, BT (spmma_dtype values).
#define SPMMA_SM120A_ON_B(BT, X, an)                                  \
    if constexpr (BT == SPMMA_E4M3) {                                 \
        X(an, "e4m3")                                                 \
    } else if constexpr (BT == SPMMA_E5M2) {                          \
        X(an, "e5m2")                                                 \
    } else if constexpr (BT == SPMMA_E3M2) {                          \
        X(an, "e3m2")                                                 \
    } else if constexpr (BT == SPMMA_E2M3) {                          \
        X(an, "e2m3")                                                 \
    } else {                                                          \
        static_assert(BT == SPMMA_E2M1, "B must be an f8f6f4 type"); \
        X(an, "e2m1")                                                 \
    }
#define SPMMA_SM120A_ON_AB(AT, BT, X)                                 \
    if constexpr (AT == SPMMA_E4M3) {                                 \
        SPMMA_SM120A_ON_B(BT, X, "e4m3")                              \
    } else if constexpr (AT == SPMMA_E5M2) {                          \
        SPMMA_SM120A_ON_B(BT, X, "e5m2")                              \
    } else if constexpr (AT == SPMMA_E3M2) {                          \
        SPMMA_SM120A_ON_B(BT, X, "e3m2")                              \
    } else if constexpr (AT == SPMMA_E2M3) {                          \
        SPMMA_SM120A_ON_B(BT, X, "e2m3")                              \
    } else {                                                          \
        static_assert(AT == SPMMA_E2M1, "A must be an f8f6f4 type"); \
        SPMMA_SM120A_ON_B(BT, X, "e2m1")                              \
    }

// Operand lists: f32 accumulators (4 registers), a, b, metadata; then, block-scaled, the scale
// words and their immediate selectors.
#define SPMMA_SM120A_ARGS_F32 " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0"
#define SPMMA_SM120A_IO_F32                                                                    \
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                           \
    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), \
      "r"(e)
#define SPMMA_SM120A_ARGS_SCALE ", %13, {%14, %15}, %16, {%17, %18};\n"
#define SPMMA_SM120A_IN_SCALE , "r"(sa), "n"(BidA), "n"(TidA), "r"(sb), "n"(BidB), "n"(TidB)

// PTX ISA 9.7.14.6.3 mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4
// .f32.<a>.<b>.f32 (a, b in e4m3, e5m2, e3m2, e2m3, e2m1, each in an 8-bit container). SASS:
// QMMA.SP.16864.F32.<A>.<B>.
template <spmma_dtype AT, spmma_dtype BT>
__device__ __forceinline__ void mma_sp_f8f6f4_f32(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
#define SPMMA_SM120A_X(an, bn)                                                                              \
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32." an "." bn ".f32" \
        SPMMA_SM120A_ARGS_F32 ";\n" SPMMA_SM120A_IO_F32);
    SPMMA_SM120A_ON_AB(AT, BT, SPMMA_SM120A_X)
#undef SPMMA_SM120A_X
}

// PTX ISA 9.7.14.6.3 mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4
// .f16.<a>.<b>.f16: f16 accumulators, two registers of two halves each. SASS: QMMA.SP.16864.F16.
template <spmma_dtype AT, spmma_dtype BT>
__device__ __forceinline__ void mma_sp_f8f6f4_f16(uint32_t (&d)[2], const A4& a, const B4& b, uint32_t e) {
#define SPMMA_SM120A_X(an, bn)                                                                              \
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f16." an "." bn ".f16"   \
        " {%0, %1}, {%2, %3, %4, %5}, {%6, %7, %8, %9}, {%0, %1}, %10, 0;\n"                            \
        : "+r"(d[0]), "+r"(d[1])                                                                        \
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e));
    SPMMA_SM120A_ON_AB(AT, BT, SPMMA_SM120A_X)
#undef SPMMA_SM120A_X
}

// PTX ISA 9.7.14.6.3 mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4
// .block_scale.scale_vec::1X.f32.<a>.<b>.f32.ue8m0 (scales: 9.7.14.3; byte-id 0..3, thread-id-a
// 0..1, thread-id-b 0..3). SASS: QMMA.SF.SP.16864.F32.<A>.<B>.E8.
template <spmma_dtype AT, spmma_dtype BT, int BidA, int TidA, int BidB, int TidB>
__device__ __forceinline__ void mma_sp_mxf8f6f4(float (&d)[4], const A4& a, const B4& b, uint32_t e, uint32_t sa,
                                                uint32_t sb) {
    static_assert(BidA >= 0 && BidA < 4 && BidB >= 0 && BidB < 4 && TidA >= 0 && TidA < 2 && TidB >= 0 && TidB < 4,
                  "scale_vec::1X selectors: byte-id 0..3, thread-id-a 0..1, thread-id-b 0..3 (PTX Table 37)");
#define SPMMA_SM120A_X(an, bn)                                                                                   \
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32." \
        an "." bn ".f32.ue8m0" SPMMA_SM120A_ARGS_F32 SPMMA_SM120A_ARGS_SCALE SPMMA_SM120A_IO_F32                \
            SPMMA_SM120A_IN_SCALE);
    SPMMA_SM120A_ON_AB(AT, BT, SPMMA_SM120A_X)
#undef SPMMA_SM120A_X
}

// PTX ISA 9.7.14.6.3 mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4
// .block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0 (packed e2m1, pairwise 4:8; byte-id 0 or 2).
// SASS: OMMA.SF.SP.168128.F32.E2M1.E2M1.E8.
template <int BidA, int TidA, int BidB, int TidB>
__device__ __forceinline__ void mma_sp_mxf4(float (&d)[4], const A4& a, const B4& b, uint32_t e, uint32_t sa, uint32_t sb) {
    static_assert((BidA == 0 || BidA == 2) && (BidB == 0 || BidB == 2) && TidA >= 0 && TidA < 2 && TidB >= 0 && TidB < 4,
                  "scale_vec::2X selectors: byte-id 0 or 2 (PTX Table 37)");
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"
        SPMMA_SM120A_ARGS_F32 SPMMA_SM120A_ARGS_SCALE SPMMA_SM120A_IO_F32 SPMMA_SM120A_IN_SCALE);
}

// PTX ISA 9.7.14.6.3 mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4
// .block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0. SASS: OMMA.SF.SP.168128.F32.E2M1.E2M1.E8.
template <int BidA, int TidA, int BidB, int TidB>
__device__ __forceinline__ void mma_sp_mxf4nvf4_2x_ue8m0(float (&d)[4], const A4& a, const B4& b, uint32_t e, uint32_t sa,
                                                         uint32_t sb) {
    static_assert((BidA == 0 || BidA == 2) && (BidB == 0 || BidB == 2) && TidA >= 0 && TidA < 2 && TidB >= 0 && TidB < 4,
                  "scale_vec::2X selectors: byte-id 0 or 2 (PTX Table 37)");
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"
        SPMMA_SM120A_ARGS_F32 SPMMA_SM120A_ARGS_SCALE SPMMA_SM120A_IO_F32 SPMMA_SM120A_IN_SCALE);
}

// PTX ISA 9.7.14.6.3 mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4
// .block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 (byte-id 0). SASS:
// OMMA.SF.SP.168128.F32.E2M1.E2M1.UE4M3.4X.
template <int BidA, int TidA, int BidB, int TidB>
__device__ __forceinline__ void mma_sp_mxf4nvf4_4x_ue4m3(float (&d)[4], const A4& a, const B4& b, uint32_t e, uint32_t sa,
                                                         uint32_t sb) {
    static_assert(BidA == 0 && BidB == 0 && TidA >= 0 && TidA < 2 && TidB >= 0 && TidB < 4,
                  "scale_vec::4X selectors: byte-id 0 (PTX Table 37)");
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"
        SPMMA_SM120A_ARGS_F32 SPMMA_SM120A_ARGS_SCALE SPMMA_SM120A_IO_F32 SPMMA_SM120A_IN_SCALE);
}

#undef SPMMA_SM120A_IN_SCALE
#undef SPMMA_SM120A_ARGS_SCALE
#undef SPMMA_SM120A_IO_F32
#undef SPMMA_SM120A_ARGS_F32
#undef SPMMA_SM120A_ON_AB
#undef SPMMA_SM120A_ON_B

}  // namespace spmma_sm120a::ptx

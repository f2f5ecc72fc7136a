// THE two descriptor helpers of the sm100a plugin, used by the kernels (per instruction) and by
// the host and the tests (which run them through the tcgen05 instruction model):
//   - the instruction descriptor (PTX ISA 9.7.16.4.2, Table "Instruction descriptor format for
//     .kind::tf32, .kind::f16, .kind::f8f6f4 and .kind::i8" and the one for .kind::mxf8f6f4,
//     .kind::mxf4, .kind::mxf4nvf4);
//   - the shared-memory matrix descriptor (PTX ISA 9.7.16.4.1, Table "Shared memory descriptor
//     layout").
// Constexpr, no CUDA headers.
#pragma once

#include <spmma_sm100a/kind.hpp>

#include <cstdint>

namespace spmma_sm100a {

// ---- instruction descriptor ------------------------------------------------------------------
// Element type codes of the atype/btype fields.
enum class TypeCode : uint32_t {
    F16 = 0, BF16 = 1, TF32 = 2,                       // kind::f16 / tf32
    E4M3 = 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5,  // kind::f8f6f4 / mxf8f6f4
    U8 = 0, S8 = 1,                                    // kind::i8
    E2M1_MXF4 = 1,                                     // kind::mxf4 / mxf4nvf4
};
// D type codes (kind::tf32/f16/f8f6f4/i8 only; block-scaled kinds accumulate in f32).
enum class DCode : uint32_t { F16 = 0, F32 = 1, S32 = 2 };

struct InstrDesc {
    Kind kind = Kind::F16;
    uint32_t a_type = 0, b_type = 0;  // TypeCode values
    DCode d = DCode::F32;
    int m = 128;                      // 64, 128, 256 (cta_group::2)
    int n = 256;                      // multiple of 8 (16 for cta_group::2), <= 256
    int selector = 0;                 // sparsity selector, 0..3
    bool saturate = false;            // kind::i8
    bool scale_ue8m0 = true;          // block-scaled kinds: scale type ue8m0 (else ue4m3)
    int scale_a_id = 0, scale_b_id = 0;

    // Sparse, K-major A and B (no transpose), no negation.
    //   non-scaled: 1..0 selector, 2 sparse, 3 saturate, 5..4 dtype, 9..7 atype, 12..10 btype,
    //               15/16 transpose A/B (0), 22..17 N>>3, 28..24 M>>4
    //   scaled:     1..0 selector, 2 sparse, 5..4 scale-B id, 9..7 atype, 12..10 btype
    //               (mxf4*: 11..10), 22..17 N>>3, 23 scale type (1 ue8m0), 28..27 M>>7,
    //               30..29 scale-A id, 31 K (0: the sparse K of the kind)
    SPMMA_SM100A_HD constexpr uint32_t encode() const {
        uint32_t v = (static_cast<uint32_t>(selector) & 3u) | (1u << 2) | ((a_type & 7u) << 7) |
                     ((b_type & 7u) << 10) | ((static_cast<uint32_t>(n) >> 3 & 0x3fu) << 17);
        if (is_block_scaled(kind)) {
            v |= (static_cast<uint32_t>(scale_b_id) & 3u) << 4;
            v |= (scale_ue8m0 ? 1u : 0u) << 23;
            v |= (static_cast<uint32_t>(m) >> 7 & 3u) << 27;
            v |= (static_cast<uint32_t>(scale_a_id) & 3u) << 29;
        } else {
            v |= (saturate ? 1u : 0u) << 3;
            v |= (static_cast<uint32_t>(d) & 3u) << 4;
            v |= (static_cast<uint32_t>(m) >> 4 & 0x1fu) << 24;
        }
        return v;
    }
};

// The fields an instruction changes from the kernel's base descriptor: the sparsity selector
// (bits 1..0) and, for block-scaled kinds, the scale-factor ids (bits 30..29 for A, 5..4 for B).
SPMMA_SM100A_HD constexpr uint32_t idesc_with_selector(uint32_t base, int selector) {
    return (base & ~3u) | (static_cast<uint32_t>(selector) & 3u);
}
SPMMA_SM100A_HD constexpr uint32_t idesc_with_scale_ids(uint32_t base, int a_id, int b_id) {
    return (base & ~((3u << 29) | (3u << 4))) | ((static_cast<uint32_t>(a_id) & 3u) << 29) |
           ((static_cast<uint32_t>(b_id) & 3u) << 4);
}

// ---- shared-memory descriptor ----------------------------------------------------------------
// Swizzle field (bits 63..61): 0 none, 1 128B with 32B atomicity, 2 128B, 4 64B, 6 32B.
enum class SmemSwizzle : uint32_t { None = 0, B128_Atom32 = 1, B128 = 2, B64 = 4, B32 = 6 };

// Byte address of the start, leading- and stride-dimension byte offsets (multiples of 16), base
// offset 0 (the swizzle patterns start at their natural 1024/512/256-byte boundaries: stage
// buffers are 1024-byte aligned), relative LBO mode.
//   bits 13..0 start >> 4, 29..16 LBO >> 4, 45..32 SBO >> 4, 48..46 = 0b001, 51..49 base offset,
//   52 LBO mode, 63..61 swizzle
SPMMA_SM100A_HD constexpr uint64_t smem_desc(uint32_t start, uint32_t lbo, uint32_t sbo, SmemSwizzle sw) {
    return (static_cast<uint64_t>((start & 0x3ffffu) >> 4)) | (static_cast<uint64_t>((lbo & 0x3ffffu) >> 4) << 16) |
           (static_cast<uint64_t>((sbo & 0x3ffffu) >> 4) << 32) | (1ull << 46) |
           (static_cast<uint64_t>(sw) << 61);
}

// The descriptors of the kernel's operands (K-major canonical layouts, PTX ISA 9.7.16.4.1 and
// 9.7.16.3 "Major-ness supported by strides"):
//   A stage: rows of 64 bytes, 64-byte swizzle: 8-row groups 512 bytes apart (SBO), LBO unused
//            (16); instruction `step` starts `step * 32` bytes into each row.
//   B stage: rows of 128 bytes, 128-byte swizzle: SBO 1024, LBO unused (16); step * 64 bytes.
//   metadata / scale tile (tcgen05.cp source): rows of 16 bytes, no swizzle: the 8-row core
//            matrices 128 bytes apart (SBO), one 16-byte column (LBO unused, 16).
SPMMA_SM100A_HD constexpr uint64_t a_desc(uint32_t a_stage, int step) {
    return smem_desc(a_stage + static_cast<uint32_t>(step * kInstrARowBytes), 16, 8 * kStageARowBytes, SmemSwizzle::B64);
}
SPMMA_SM100A_HD constexpr uint64_t b_desc(uint32_t b_stage, int step) {
    return smem_desc(b_stage + static_cast<uint32_t>(step * kInstrBRowBytes), 16, 8 * kStageBRowBytes, SmemSwizzle::B128);
}
SPMMA_SM100A_HD constexpr uint64_t rows16_desc(uint32_t start) { return smem_desc(start, 16, 128, SmemSwizzle::None); }

// ---- tensor-memory addresses (PTX ISA 9.7.16.1.1: lane in bits 31..16, column in 15..0) -------
SPMMA_SM100A_HD constexpr uint32_t tmem_addr(uint32_t lane, uint32_t column) { return (lane << 16) | column; }

// Metadata operand of instruction `step` whose stage slot starts at column `slot` (a multiple of
// 4): the address and the sparsity selector. NOTES: kinds with one metadata column per
// instruction (f16, tf32) name the even column of the pair and select the column with the
// selector (PTX "Sparsity selector" figures for M = 128: the selector picks the sub-column);
// the others read two columns from the named one with selector 0.
struct MetaOperand {
    uint32_t column;
    int selector;
};
SPMMA_SM100A_HD constexpr MetaOperand meta_operand(Kind k, uint32_t slot, int step) {
    return traits(k).meta_cols == 1 ? MetaOperand{slot + static_cast<uint32_t>(step & ~1), step & 1}
                                    : MetaOperand{slot + static_cast<uint32_t>(2 * step), 0};
}

}  // namespace spmma_sm100a

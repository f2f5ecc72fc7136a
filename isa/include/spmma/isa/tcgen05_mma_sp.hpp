// Bit-level CPU model of tcgen05.mma.sp (sm_100a), PTX ISA 9.7.16.10.9.2, cta_group::1, A and B
// from shared memory through descriptors, metadata (and block scales) in tensor memory, D in
// tensor memory:
//   tcgen05.mma.sp.cta_group::1.kind   [d-tmem], a-desc, b-desc, [sp-meta-tmem], idesc,
//                                      {disable-output-lane}, enable-input-d {, scale-input-d};
//   tcgen05.mma.sp.cta_group::1.kind.block_scale.scale_vec::NX
//                                      [d-tmem], a-desc, b-desc, [sp-meta-tmem], idesc,
//                                      [scale-A-tmem], [scale-B-tmem], enable-input-d;
// Kinds: f16 (f16/bf16, K=32), tf32 (K=16), f8f6f4 (e4m3/e5m2/e3m2/e2m3/e2m1, K=64), i8 (s8/u8,
// K=64), mxf8f6f4 (as f8f6f4, one ue8m0 scale per row/column: scale_vec::1X), mxf4 and mxf4nvf4
// (packed e2m1, K=128, scale_vec::2X ue8m0 / 4X ue8m0 or ue4m3).
// What the model reads and writes (M = 128, cta_group::1 -- layout D; M = 64 is reported as not
// modelled, its metadata layout exists only as a figure):
//   - A (M x K/2 stored elements) and B (N x K) from shared memory through the tcgen05 smem
//     descriptors (smem.hpp), K-major or MN-major per the idesc transpose bits. Element formats
//     in shared memory (PTX 9.7.16.10.4): 8/16/32-bit as they are; e2m1 / e3m2 / e2m3 of
//     kind::f8f6f4 and mxf8f6f4 as 16 elements bit-packed per 16-byte chunk plus padding (the
//     TMA 16U4_ALIGN16B / 16U6_ALIGN16B image, NOT one element per byte); e2m1 of mxf4* packed
//     two per byte.
//   - metadata: kind::f16 / tf32 use one column, tmem_column(sp-meta-tmem) + sparsity selector;
//     row m, chunk c (8 per row) in lane (m%8) + 8*(c/4) + 16*(m/16), bits
//     16*((m/8)%2) + 4*(c%4) + 3..0. The 8-bit kinds and mxf4* use two columns: row m in lane m,
//     chunk c (16 per row) in column c/8, bits 4*(c%8) + 3..0. In a 4-bit field, bits 1..0 give
//     the position (chunk of 4) of the first stored element, bits 3..2 of the second; tf32:
//     0b0100 = position 0, 0b1110 = position 1 of a 2-chunk; mxf4*: the two 2-element pairs.
//     Only the values the PTX text lists as meaningful are accepted (others reported).
//   - block scales: scale factor i (0..NX-1) of A row m at lane m, column col(scale-A) + m/32,
//     byte (scale-A id + i); of B column n at lane 32p + n%32, column col(scale-B) + n/32, byte
//     (scale-B id + i), where p = the 32-lane partition of the D row being computed. The text
//     requires the scales duplicated to all four partitions; a mismatch is reported. One scale
//     covers K/NX logical K: 64 for mxf8f6f4 (1X) and mxf4 (2X), 32 for mxf4nvf4 4X.
//   - D: row m in lane m, column col(d-tmem) + n; f16 in bits 15..0 of its cell.
// Arithmetic is as in wgmma_sp.hpp: exact products (including the block scales), exact sum,
// one rounding to the accumulator type; s32 wraps or saturates (idesc saturate bit).
// Undefined inputs (reserved idesc bits or values, fields inconsistent with .kind, invalid
// metadata, descriptor problems, tensor-memory addresses out of range) are returned as strings;
// when the instruction cannot be interpreted at all nothing is written.
#pragma once

#include <spmma/isa/smem.hpp>
#include <spmma/types.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace spmma::isa {

// ---- tensor memory (PTX ISA 9.7.16.7 "Tensor Memory") -----------------------------------------
// 128 lanes x 512 columns of 32-bit cells per CTA. An address is (lane << 16) | column.
struct TensorMemory {
    static constexpr int kLanes = 128;
    static constexpr int kColumns = 512;
    std::vector<uint32_t> cells = std::vector<uint32_t>(size_t(kLanes) * kColumns, 0);

    uint32_t& at(int lane, int column);
    uint32_t at(int lane, int column) const;
};
inline uint32_t tmem_address(int lane, int column) { return (uint32_t(lane) << 16) | uint32_t(column); }
inline int tmem_lane(uint32_t addr) { return int(addr >> 16); }
inline int tmem_column(uint32_t addr) { return int(addr & 0xffff); }

enum class Tcgen05Kind { F16, TF32, F8F6F4, I8, MXF8F6F4, MXF4, MXF4NVF4 };
const char* name(Tcgen05Kind k);
inline bool is_block_scaled(Tcgen05Kind k) {
    return k == Tcgen05Kind::MXF8F6F4 || k == Tcgen05Kind::MXF4 || k == Tcgen05Kind::MXF4NVF4;
}
// K of the sparse shape (logical, uncompressed): 32 f16, 16 tf32, 64 f8f6f4/i8/mxf8f6f4, 128 mxf4*.
int tcgen05_sp_k(Tcgen05Kind k);

// ---- instruction descriptor (PTX ISA 9.7.16.4.2) ----------------------------------------------
// kind::tf32 / f16 / f8f6f4 / i8 (Table "Instruction descriptor format for .kind::tf32, ..."):
//   1..0 sparsity selector   2 sparse   3 saturate (i8)   5..4 dtype (0 f16, 1 f32, 2 s32)
//   6 reserved   9..7 atype   12..10 btype   13 negate A   14 negate B   15 transpose A
//   16 transpose B   22..17 N>>3   23 reserved   28..24 M>>4   29 reserved   31..30 max shift (.ws)
//   atype/btype: tf32 2; f16 0, bf16 1; f8f6f4 e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5; i8 u8 0, s8 1.
// kind::mxf8f6f4 / mxf4 / mxf4nvf4:
//   1..0 sparsity selector   2 sparse   3 reserved   5..4 scale-factor-B id   6 reserved
//   9..7 atype   12..10 btype (mxf4*: 11..10, 12 reserved; e2m1 = 1)   13/14 negate A/B
//   15/16 transpose A/B   22..17 N>>3   23 scale type (0 ue4m3, 1 ue8m0)   26..24 reserved
//   28..27 M>>7   30..29 scale-factor-A id   31 K (mxf4*: 0 = dense K64 / sparse K128, 1 = dense K96;
//   reserved for mxf8f6f4)
struct InstrDescriptor {
    int sparsity_selector = 0;
    bool sparse = true;
    bool saturate = false;
    DType d = DType::F32;          // F16, F32, S32 (block-scaled kinds: always F32, not encoded)
    DType a = DType::F16;
    DType b = DType::F16;
    bool negate_a = false, negate_b = false;
    bool transpose_a = false, transpose_b = false;  // true = MN-major
    int n = 8;
    int m = 128;
    int max_shift = 0;
    // block-scaled kinds only
    int scale_a_id = 0, scale_b_id = 0;
    DType scale_type = DType::UE8M0;  // UE8M0 or UE4M3
    int k_flag = 0;                   // bit 31 (mxf4 / mxf4nvf4)

    // Throws std::invalid_argument when a field has no encoding for the kind.
    uint32_t encode(Tcgen05Kind kind) const;
    // Decodes every field the kind defines; reserved bits, values with no meaning for the kind,
    // and fields inconsistent with it (e.g. dtype f16 with tf32) are appended to `problems`.
    static InstrDescriptor decode(uint32_t idesc, Tcgen05Kind kind, std::vector<std::string>* problems = nullptr);
};

// ---- the instruction ------------------------------------------------------------------------
enum class ScaleVec { None, X1, X2, X4 };  // .block32 / .block16 are aliases of these (see PTX)

struct Tcgen05MmaSp {
    Tcgen05Kind kind = Tcgen05Kind::F16;
    int cta_group = 1;                       // only 1 is modelled
    ScaleVec scale_vec = ScaleVec::None;     // block-scaled kinds
    bool enable_input_d = false;             // false: D = A*B
    int scale_input_d = 0;                   // 0..15, kind::f16 / tf32 only: D = A*B + D * 2^-s
    std::array<uint32_t, 4> disable_output_lane{};  // bit i of word i/32: lane i not written
};

// Returns the undefined inputs it found (empty = everything defined). Reads shared memory and
// tensor memory (metadata, scales, and D when enable_input_d), writes D into tensor memory.
std::vector<std::string> tcgen05_mma_sp(const Tcgen05MmaSp& op, const SharedMemory& smem, TensorMemory& tmem,
                                        uint32_t d_tmem, uint64_t a_desc, uint64_t b_desc, uint32_t meta_tmem,
                                        uint32_t idesc, uint32_t scale_a_tmem = 0, uint32_t scale_b_tmem = 0);

// Where D(row, col) lives relative to d-tmem for cta_group::1 (PTX "Data path layout"):
//   M = 128: lane row, column col.   M = 64 (layout F): lane (row % 16) + 32 * (row / 16), column col
//   (d-tmem lane 0 or 16). A 32-bit accumulator fills its cell; an f16 accumulator sits in bits
//   15..0 ("not packed", PTX 9.7.16.10.4.1); the model writes bits 31..16 as 0.
struct TmemCell { int lane, column; };
TmemCell tcgen05_d_cell(int m, int row, int col);

}  // namespace spmma::isa

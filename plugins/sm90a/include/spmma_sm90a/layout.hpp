// The layouts the sm90a kernels and their host-side packing agree on, in one header that both
// nvcc (device code) and g++ (the packing library, the tests) compile: element families, the
// shared-memory swizzle that TMA writes and wgmma reads, THE matrix-descriptor helper, and where
// each metadata nibble of a wgmma.mma_async.sp operand comes from.
//
// NOTES: everything here is constexpr and free of CUDA headers, so that the tests can place
// bytes in a modelled shared memory exactly as the kernel's TMA would, build the kernel's
// descriptors with the kernel's own helper, and run the instruction model on them.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define SPMMA_HD __host__ __device__ __forceinline__
#else
#define SPMMA_HD inline
#endif

namespace spmma_sm90a {

// ---- element families ----------------------------------------------------------------------
// The sparse wgmma shapes come in three K sizes, by element width. In every family one
// instruction reads 32 bytes of each compressed A row and 64 bytes of each B row (K-major).
enum class Family : int32_t {
    B16 = 0,  // f16, bf16: m64nNk32, 2:4
    B32 = 1,  // tf32: m64nNk16, 1:2 (the metadata treats each 32-bit element as two 16-bit halves)
    B8 = 2,   // e4m3, e5m2, s8, u8: m64nNk64, 2:4
};

struct FamilyTraits {
    int elem_bytes;       // bytes of one A or B element
    int instr_k;          // logical k of one instruction
    int group;            // elements per sparsity group (4 for 2:4, 2 for 1:2)
    int unit_k;           // logical k of one metadata unit (16 rows x 16 groups = 128 bytes)
    int steps_per_unit;   // instructions whose metadata one unit holds (2: sp-sel 0 and 1)
};

SPMMA_HD constexpr FamilyTraits traits(Family f) {
    return f == Family::B16   ? FamilyTraits{2, 32, 4, 64, 2}
           : f == Family::B32 ? FamilyTraits{4, 16, 2, 32, 2}
                              : FamilyTraits{1, 64, 4, 64, 1};
}

// Bytes of a B row per pipeline stage: one 128-byte swizzle atom; the compressed A row of a
// stage is half of it (64 bytes, 64-byte swizzle). The logical k of a stage (BK) follows.
constexpr int kStageBRowBytes = 128;
constexpr int kStageARowBytes = 64;
// A in stage order (pack.hpp, pack_a_stages): the byte offset of the block of tile row
// `tile_row` and stage `kt`, blocks of slice_rows x kStageARowBytes, k_tiles stages a tile row.
SPMMA_HD constexpr int64_t a_stage_block_offset(int64_t tile_row, int64_t k_tiles, int64_t kt, int slice_rows) {
    return (tile_row * k_tiles + kt) * slice_rows * kStageARowBytes;
}
constexpr int kInstrARowBytes = 32;  // compressed A bytes of one row that one instruction reads
constexpr int kInstrBRowBytes = 64;  // B bytes of one row that one instruction reads
constexpr int kStepsPerStage = kStageBRowBytes / kInstrBRowBytes;  // 2
SPMMA_HD constexpr int stage_k(Family f) { return kStageBRowBytes / traits(f).elem_bytes; }
SPMMA_HD constexpr int units_per_stage(Family f) { return stage_k(f) / traits(f).unit_k; }

// Metadata: one unit is 32 words (one per lane) for 16 rows of A ("a warp's rows") and unit_k
// logical columns; 16 groups per row, 4 bits each.
constexpr int kMetaRowsPerUnit = 16;
constexpr int kMetaUnitBytes = 128;
constexpr int kMetaGroupsPerUnit = 16;

// ---- swizzle -------------------------------------------------------------------------------
// PTX ISA 9.7.15.5.1.2 (shared memory matrix layout) and CU_TENSOR_MAP_SWIZZLE_{32,64,128}B:
// within a tile whose base is aligned to the pattern (256/512/1024 bytes) and whose rows are
// `swizzle_bytes` wide, the 16-byte chunk index (bits 4..) of a byte offset is XORed with the
// row index within the 8-row pattern (bits 7..). swizzle_bytes 0 (or 16) means none.
SPMMA_HD constexpr uint32_t swizzle(uint32_t offset, uint32_t swizzle_bytes) {
    return swizzle_bytes < 32 ? offset : offset ^ (((offset >> 7) & (swizzle_bytes / 16 - 1)) << 4);
}

// A in stage order read backwards (the device packer, sm90a_pack_a_stages.cu): the canonical
// compressed A's row and byte within that row that the byte at `offset` of the packed buffer
// holds, blocks of slice_rows x kStageARowBytes, k_tiles stages a tile row. The 64-byte swizzle
// only moves bits 4-5 by bits 7-8, so it is its own inverse.
struct AStageSource {
    int64_t row, byte;
};
SPMMA_HD constexpr AStageSource a_stage_source(int64_t offset, int64_t k_tiles, int slice_rows) {
    const int64_t block_bytes = static_cast<int64_t>(slice_rows) * kStageARowBytes;
    const int64_t block = offset / block_bytes;
    const uint32_t in = swizzle(static_cast<uint32_t>(offset % block_bytes), kStageARowBytes);
    return {block / k_tiles * slice_rows + in / kStageARowBytes, block % k_tiles * kStageARowBytes + in % kStageARowBytes};
}

// ---- matrix descriptors --------------------------------------------------------------------
// PTX ISA 9.7.15.5.1.2.2 matrix descriptor format:
//   bits 0-13 start address >> 4, 16-29 leading-dimension byte offset >> 4,
//   32-45 stride-dimension byte offset >> 4, 49-51 base offset, 62-63 swizzle mode
//   (0 none, 1 128-byte, 2 64-byte, 3 32-byte).
SPMMA_HD constexpr uint64_t swizzle_mode_bits(uint32_t swizzle_bytes) {
    return swizzle_bytes == 128 ? 1u : swizzle_bytes == 64 ? 2u : swizzle_bytes == 32 ? 3u : 0u;
}

SPMMA_HD constexpr uint64_t encode_desc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t swizzle_bytes) {
    return static_cast<uint64_t>((start & 0x3FFFFu) >> 4) | (static_cast<uint64_t>((lbo & 0x3FFFFu) >> 4) << 16) |
           (static_cast<uint64_t>((sbo & 0x3FFFFu) >> 4) << 32) | (swizzle_mode_bits(swizzle_bytes) << 62);
}

// THE descriptor helper of the sm90a kernels: a K-major operand tile in shared memory whose rows
// are `row_bytes` wide and swizzled with the same width (as TMA writes it with
// CU_TENSOR_MAP_SWIZZLE_<row_bytes>B), starting at row `row0` and at byte `k_byte` of the row
// (a k-step inside the swizzle atom). 8-row groups are row_bytes * 8 apart (stride-dimension
// offset); the leading-dimension offset is unused for swizzled K-major layouts whose k extent
// fits in one atom, and set to 16 bytes. `tile_base` must be aligned to 8 * row_bytes so that the
// base offset is 0.
SPMMA_HD constexpr uint64_t kmajor_desc(uint32_t tile_base, uint32_t row_bytes, uint32_t row0, uint32_t k_byte) {
    return encode_desc(tile_base + row0 * row_bytes + k_byte, 16, 8 * row_bytes, row_bytes);
}

// ---- metadata ------------------------------------------------------------------------------
// PTX ISA 9.7.15.6.2 (sparse wgmma metadata): warp w%4 of the warpgroup supplies the metadata of
// rows 16(w%4)..16(w%4)+15 of the 64-row A; each lane's 32-bit word holds eight 4-bit group
// indices (nibble j at bits 4j..4j+3; inside a nibble bits 1..0 give the first kept position,
// bits 3..2 the second, as in the canonical index byte).
//   16-bit and 32-bit types (sp-sel selects the lane pair of each quad): lane 4g+t supplies row
//     g (nibbles 0-3) and row g+8 (nibbles 4-7), groups 4(t&1)..4(t&1)+3 of an instruction's 8.
//     A unit packs two instructions: lanes t=0,1 the first (sp-sel 0), t=2,3 the second (sp-sel 1).
//   8-bit types (all lanes, sp-sel 0): lane 4g+t supplies row g+8(t&1), groups 8(t>>1)..+7 of the
//     instruction's 16; one unit = one instruction.
// Layout source: the metadata figures of PTX ISA 9.7.15.6.2.1-3 as CUTLASS's cute encodes them
// (ELayout_64x32 / _64x16 / _64x64), checked bit for bit on the device by tests/sm90a.
struct MetaPos {
    int row;    // 0..15 within the warp's 16 rows
    int group;  // 0..15 within the unit
};

SPMMA_HD constexpr MetaPos meta_position(Family f, int lane, int nibble) {
    const int g = lane >> 2, t = lane & 3;
    if (f == Family::B8) return MetaPos{g + 8 * (t & 1), 8 * (t >> 1) + nibble};
    return MetaPos{g + 8 * (nibble >> 2), 8 * (t >> 1) + 4 * (t & 1) + (nibble & 3)};
}

// The sparsity selector and the unit word of instruction `step` (0-based, within a stage).
SPMMA_HD constexpr int meta_selector(Family f, int step) {
    return f == Family::B8 ? 0 : step % 2;
}
SPMMA_HD constexpr int meta_unit_of_step(Family f, int step) {
    return f == Family::B8 ? step : step / 2;
}

// The nibble of one group from its canonical index byte (ABI: 2:4 bits 1..0 first kept, 3..2
// second; 1:2 bit 0 the kept position). A 1:2 group of 32-bit elements is a 2:4 group of 16-bit
// halves: position 0 keeps halves {0,1} (0b0100), position 1 keeps {2,3} (0b1110).
SPMMA_HD constexpr uint32_t meta_nibble(Family f, uint8_t index_byte) {
    return f == Family::B32 ? ((index_byte & 1u) ? 0xEu : 0x4u) : (index_byte & 0xFu);
}

// The nibble for padding (rows past m, groups past k): positions 0 and 1, valid for every type.
constexpr uint32_t kMetaPadNibble = 0x4u;

// Byte offset, within a stage's metadata tile ([row block][unit][lane] words), of the word that
// `lane` passes for row block `block` (16 rows) and unit `unit`; a warp reads 128 contiguous bytes.
SPMMA_HD constexpr uint32_t meta_word_offset(int units_per_stage, int block, int unit, int lane) {
    return static_cast<uint32_t>((block * units_per_stage + unit) * kMetaUnitBytes + 4 * lane);
}

// ---- accumulators ----------------------------------------------------------------------------
// PTX ISA 9.7.15.5.1.1 (wgmma D fragments): in an m64nN D, warp w4 (= %warpid % 4) of the
// warpgroup holds rows 16 w4 .. 16 w4 + 15; its lane holds, for each 8-column block i and row
// half h, the two adjacent elements (row acc_row, columns acc_col and acc_col + 1), in 32-bit
// registers acc_reg32 and acc_reg32 + 1 (f32, s32) or in the low and high half of 16-bit-pair
// register acc_reg16 (f16).
SPMMA_HD constexpr int acc_row(int w4, int lane, int h) { return 16 * w4 + lane / 4 + 8 * h; }
SPMMA_HD constexpr int acc_col(int lane, int i) { return 8 * i + 2 * (lane % 4); }
SPMMA_HD constexpr int acc_reg32(int i, int h) { return 4 * i + 2 * h; }
SPMMA_HD constexpr int acc_reg16(int i, int h) { return 2 * i + h; }

// ---- epilogue buffer -------------------------------------------------------------------------
// D leaves a consumer in boxes of 64 rows x `row_bytes` (a column chunk of its m64 block): the
// threads write the box into a buffer swizzled like a TMA tile of that width
// (CU_TENSOR_MAP_SWIZZLE_<row_bytes>B), which a tma store then copies out. Byte offset of the
// element at `row` (0..63) and byte `col_byte` of its row. NOTES: with the D fragment's layout a
// warp's 32-bit writes of one block (8 rows, 16 bytes each) land in 8 different 16-byte bank
// groups under either width: no bank conflicts (test_pack checks it).
SPMMA_HD constexpr uint32_t epi_offset_of(int row, int col_byte, int row_bytes) {
    return swizzle(static_cast<uint32_t>(row * row_bytes + col_byte), static_cast<uint32_t>(row_bytes));
}
// The same for accumulator block b of a fragment pair (acc_col(lane, b), elements of
// `elem_bytes`), from block 0's offset: the swizzle XORs a row's 16-byte unit index and block b
// only sets the unit bits above block 0's byte, so offset(b) = offset(0) ^ (b * 8 * elem_bytes).
// NOTES: one register per row and a LOP3 per store instead of one hoisted address per block
// (those cost the 8-bit 256x192 kernels local memory); test_model_tile checks the identity.
SPMMA_HD constexpr uint32_t epi_block_offset(uint32_t block0_offset, int b, int elem_bytes) {
    return block0_offset ^ static_cast<uint32_t>(b * 8 * elem_bytes);
}

}  // namespace spmma_sm90a

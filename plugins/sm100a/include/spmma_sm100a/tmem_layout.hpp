// Where the sparsity metadata and the block scales of one CTA's 128 rows sit in tensor memory
// (and hence in the 16-byte-row chunks that tcgen05.cp copies there), as the packing library
// writes them and the kernels' instructions read them.
//
// Metadata, PTX ISA 9.7.16.10.8.4 "Sparsity selector" (figures "Sparsity Metadata Layout for
// M = 128 / M = 256"), one nibble per group (bits 1..0 first kept index, 3..2 second; tf32:
// 0b0100 / 0b1110; mxf4*: indices of the kept pairs):
//   f16, tf32 (8 nibbles a row per instruction, one column per instruction): row r, nibble i of
//     instruction j's groups (i = 0..7) sits in lane (r % 8) + 8 * (i / 4) + 16 * (r / 16),
//     column j, bits 4 * (i % 4) + 16 * ((r / 8) % 2). That is: each lane holds rows r and r + 8
//     (low and high half-word) for one half of the instruction's k.
//   f8f6f4, mxf8f6f4, i8, mxf4, mxf4nvf4 (16 nibbles a row per instruction, two columns):
//     lane r, column 2j + i / 8, bits 4 * (i % 8).
//   NOTES: read against the PTX figures and cross-checked with two public implementations that
//   build the same tensor-memory image (CUTLASS's tmem_e_frg and JAX Mosaic GPU's
//   format_tcgen05_sparse_metadata); the tests check it against the instruction model.
//
// Scales, PTX ISA 9.7.16.10.7 "Block Scaling" (figures "Layout of scale factor A/B matrix"): for
// row r of A (column r of B) and scale s of instruction j: lane r % 32 of every 32-lane quarter,
// column (tile * 4) + (r % 128) / 32 where tile = scale_tile_of_step(j) (B, N > 128: the tiles of
// the 128-column groups follow each other), byte scale_id_of_step(j) + s.
#pragma once

#include <spmma_sm100a/kind.hpp>

namespace spmma_sm100a {

struct ChunkPos {
    int lane;    // 0..127 (metadata) or 0..31 (scale tile)
    int column;  // tensor-memory column relative to the slot, 0..3 (= 4-byte word of the lane's 16 bytes)
    int bit;     // first bit in the 32-bit cell
    // Byte offset of the cell in the chunk (lane's 16 bytes at lane * 16).
    SPMMA_SM100A_HD constexpr int byte() const { return lane * 16 + column * 4 + bit / 8; }
};

// Metadata nibble of row `row` (0..127) and group `group` of a stage (0 .. stage_k / group - 1).
SPMMA_SM100A_HD constexpr ChunkPos meta_position(Kind k, int row, int group) {
    const int per_instr = traits(k).mma_k / traits(k).group;  // 8 or 16 nibbles a row
    const int j = group / per_instr, i = group % per_instr;
    if (traits(k).meta_cols == 1)
        return ChunkPos{(row % 8) + 8 * (i / 4) + 16 * (row / 16), j, 4 * (i % 4) + 16 * ((row / 8) % 2)};
    return ChunkPos{row, 2 * j + i / 8, 4 * (i % 8)};
}

// Scale byte of row `row` (0..127) for scale `s` of instruction `step`: the tile of the stage it
// is in (within the row's 128-row group) and its place in that 512-byte tile.
struct ScalePos {
    int tile;
    ChunkPos pos;
};
SPMMA_SM100A_HD constexpr ScalePos scale_position(ScaleVec v, int row, int step, int s) {
    return ScalePos{scale_tile_of_step(v, step), ChunkPos{row % 32, row / 32, 8 * (scale_id_of_step(v, step) + s)}};
}

// Nibble the metadata holds for a group with kept positions (p0, p1) of a 2:4 / pairwise 4:8
// group, or kept position p of a 1:2 group (tf32).
SPMMA_SM100A_HD constexpr uint32_t meta_nibble_2(int p0, int p1) {
    return static_cast<uint32_t>(p0 & 3) | (static_cast<uint32_t>(p1 & 3) << 2);
}
SPMMA_SM100A_HD constexpr uint32_t meta_nibble_tf32(int p) { return p == 0 ? 0x4u : 0xEu; }
// The nibble written for groups past m or k: 0b0100, valid for every kind (2:4 and 4:8: kept
// positions 0 and 1; tf32: position 0), so padded rows and k never feed undefined metadata.
constexpr uint32_t kMetaPadNibble = 0x4u;

}  // namespace spmma_sm100a

// The sm80 plugin's data layouts, shared by the host packer (g++) and the kernels (nvcc): one
// place that says which byte of which operand each lane hands to mma.sp, where the packed A
// values and metadata words lie in global and shared memory, and how B is swizzled.
//
// Everything here is byte-level. Every mma.sp form the plugin uses (PTX ISA 9.7.14.6.3:
// m16n8k32 f16/bf16, m16n8k16 tf32, m16n8k64 s8/u8/e4m3/e5m2, m16n8k128 s4/u4) consumes, per
// row of A, 64 bytes of logical k (32 bytes once compressed) and, per column of B, the same 64
// bytes of k; its A and B fragments are (PTX 9.7.14.6.2, 9.7.14.5.x):
//   A register r of lane (g = lane >> 2, t = lane & 3): row g + 8*(r & 1), compressed bytes
//     [16*(r >> 1) + 4t, +4) of the row's 32 compressed bytes of this mma;
//   B register r: column g, bytes [16r + 4t, +4) of the column's 64 bytes of this mma.
// So one kernel moves bytes for every type; only the instruction and the epilogue differ.
//
// NOTES: the metadata layout has two styles (the instruction model in isa/ says the
// same, and tests/sm80 checks both against it and against the hardware):
//   Pairs16 (f16, bf16, tf32; 8 metadata nibbles a row per mma, selector 0 or 1 picks the lane
//     pair): the nibble of (row, chunk c) is in lane 4*(row%8) + 2*sel + c/4, nibble (c%4) +
//     4*(row >= 8). Two consecutive mma (selectors 0 and 1) share one 32-bit word per lane.
//   Rows8 (s8/u8, e4m3/e5m2, s4/u4; 16 nibbles a row per mma, selector 0): lane 4*(row%8) +
//     (row >= 8) + 2*(c/8), nibble c%8. Each mma has its own word per lane.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define SPMMA_SM80_HD __host__ __device__ __forceinline__
#else
#define SPMMA_SM80_HD inline
#endif

namespace spmma_sm80 {

// ---- the mma step and the pipeline stage ----------------------------------------------------
constexpr int kStepBytes = 64;               // logical k bytes one mma.sp consumes per row
constexpr int kStepsPerStage = 2;            // mma steps per pipeline stage
constexpr int kStageKBytes = kStepBytes * kStepsPerStage;  // logical k bytes per stage (128)
constexpr int kAtomRows = 16;                // rows of A one mma covers
constexpr int kAtomCols = 8;                 // columns of B one mma covers
constexpr int kAFragBytes = 16;              // A bytes one lane hands one mma (4 registers)
constexpr int kAAtomBytes = 32 * kAFragBytes;  // packed A bytes of one 16-row atom per mma (512)

enum class MetaStyle : int { Pairs16 = 0, Rows8 = 1 };

// What the layout needs to know of an operand type family.
struct Family {
    int bits;         // bits of one A/B element: 16 (f16, bf16), 32 (tf32), 8, 4
    int chunk;        // logical elements one metadata nibble covers: 4 (2:4), 2 (tf32 1:2), 8 (4:8)
    MetaStyle style;  // metadata layout style (see the top of this file)

    SPMMA_SM80_HD constexpr int mma_k() const { return kStepBytes * 8 / bits; }  // 32, 16, 64, 128
    SPMMA_SM80_HD constexpr int stage_k() const { return kStageKBytes * 8 / bits; }
    SPMMA_SM80_HD constexpr int chunks_per_step() const { return mma_k() / chunk; }  // 8 or 16
    // 32-bit metadata words per lane per 16-row atom per stage.
    SPMMA_SM80_HD constexpr int e_words_per_stage() const { return style == MetaStyle::Pairs16 ? 1 : 2; }
    // Which word and which selector the mma of `step` (0..1) of a stage uses.
    SPMMA_SM80_HD constexpr int e_word_of_step(int step) const { return style == MetaStyle::Pairs16 ? 0 : step; }
    SPMMA_SM80_HD constexpr int selector_of_step(int step) const { return style == MetaStyle::Pairs16 ? step : 0; }
};

constexpr Family kFamilyF16{16, 4, MetaStyle::Pairs16};   // f16, bf16
constexpr Family kFamilyTF32{32, 2, MetaStyle::Pairs16};  // tf32 (1:2)
constexpr Family kFamily8{8, 4, MetaStyle::Rows8};        // s8, u8, e4m3, e5m2
constexpr Family kFamily4{4, 8, MetaStyle::Rows8};        // s4, u4 (pairwise 4:8)

// ---- fragments within one mma (PTX 9.7.14.6.2) -----------------------------------------------
// Byte offset, within the row's 32 compressed bytes of the mma, of A register `reg` of `lane`.
SPMMA_SM80_HD constexpr int a_frag_row(int lane, int reg) { return (lane >> 2) + 8 * (reg & 1); }
SPMMA_SM80_HD constexpr int a_frag_byte(int lane, int reg) { return 16 * (reg >> 1) + 4 * (lane & 3); }
// B register `reg` of `lane`: column (lane >> 2) of the atom, bytes [b_frag_byte, +4) of its 64.
SPMMA_SM80_HD constexpr int b_frag_col(int lane) { return lane >> 2; }
SPMMA_SM80_HD constexpr int b_frag_byte(int lane, int reg) { return 16 * reg + 4 * (lane & 3); }
// Accumulator element: f32/s32 register r -> row g + 8*(r >> 1), column 2t + (r & 1);
// f16 register r, half h -> row g + 8r, column 2t + h.
SPMMA_SM80_HD constexpr int cd_row(int lane, int reg, bool f16_acc) {
    return (lane >> 2) + 8 * (f16_acc ? reg : (reg >> 1));
}
SPMMA_SM80_HD constexpr int cd_col(int lane, int reg, int half, bool f16_acc) {
    return 2 * (lane & 3) + (f16_acc ? half : (reg & 1));
}

// Where the metadata nibble of (row 0..15, chunk c of the mma) lies for selector `sel`.
struct MetaPos {
    int lane, nibble;
};
SPMMA_SM80_HD constexpr MetaPos meta_position(const Family& f, int sel, int row, int chunk) {
    const int g = row & 7, hi = row >> 3;
    if (f.style == MetaStyle::Pairs16) return {4 * g + 2 * sel + chunk / 4, chunk % 4 + 4 * hi};
    return {4 * g + hi + 2 * (chunk / 8), chunk % 8};
}

// ---- packed A and metadata in global memory --------------------------------------------------
// A values:  [m tile][k stage][atom (BM/16)][step (2)][lane (32)][16 bytes]
//            -> a CTA's stage is one contiguous block of BM * 64 bytes.
// Metadata:  [m tile][k stage][atom][word (e_words_per_stage)][lane] of uint32
//            -> one contiguous block of BM/16 * words * 128 bytes.
// Rows past m and k past the problem's k hold zero values and metadata 0b0100 (indices 0, 1;
// for tf32 element 0: the kit's kPadMetadataNibble), valid for both metadata variants.

SPMMA_SM80_HD constexpr int64_t a_stage_bytes(int bm) { return int64_t(bm) * (kStageKBytes / 2); }
SPMMA_SM80_HD constexpr int64_t e_stage_words(const Family& f, int bm) {
    return int64_t(bm / kAtomRows) * f.e_words_per_stage() * 32;
}
// Offset (bytes) in a stage block of A register 0..3 of `lane` for `atom`, `step`.
SPMMA_SM80_HD constexpr int a_stage_offset(int atom, int step, int lane) {
    return (atom * kStepsPerStage + step) * kAAtomBytes + lane * kAFragBytes;
}
SPMMA_SM80_HD constexpr int e_stage_offset(const Family& f, int atom, int word, int lane) {
    return (atom * f.e_words_per_stage() + word) * 32 + lane;  // in words
}

// ---- B in shared memory ----------------------------------------------------------------------
// A stage holds BN columns of B, each kStageKBytes (128) bytes of k, as 8 chunks of 16 bytes;
// chunk c of column n lies at n*128 + ((c ^ (n % 8)) * 16). ldmatrix reads 8 consecutive
// columns at one chunk: the XOR puts them in 8 distinct 16-byte bank groups (conflict-free),
// and cp.async writes 16-byte chunks (never conflicting).
SPMMA_SM80_HD constexpr int b_smem_offset(int col, int chunk) { return col * kStageKBytes + ((chunk ^ (col & 7)) << 4); }
// ldmatrix.x4 for B atom (8 columns starting at col0) of `step`: lane l addresses matrix l/8
// (chunk 4*step + l/8), row l%8 (column col0 + l%8). Register q of lane (g, t) then holds bytes
// [4t, +4) of column col0 + g, chunk 4*step + q = B register q of the mma (b_frag_byte).
SPMMA_SM80_HD constexpr int b_ldsm_offset(int col0, int step, int lane) {
    return b_smem_offset(col0 + (lane & 7), 4 * step + (lane >> 3));
}

// ---- CTA tiles -------------------------------------------------------------------------------
struct Tile {
    int bm, bn;        // CTA tile (rows of A, columns of B)
    int wm, wn;        // warp tile
    int stages;        // cp.async pipeline depth
    SPMMA_SM80_HD constexpr int warps() const { return (bm / wm) * (bn / wn); }
    // The CTAs an SM must hold by registers (the kernel's launch bound): the decode tiles (n
    // below 128) run three an SM, so ptxas keeps them to 168 registers a thread.
    SPMMA_SM80_HD constexpr int min_ctas_per_sm() const { return bn >= 128 ? 1 : 3; }
    // Whether the tile's kernel splits k among CTAs (split_k.hpp): the decode tiles only, so the
    // 128-wide tiles' main loop is the code it was (its schedule moved 3-7 % with the split's
    // arithmetic in it: plugins/sm80/NOTES.md, "Decode").
    SPMMA_SM80_HD constexpr bool splits_k() const { return bn < 128; }
    SPMMA_SM80_HD constexpr int threads() const { return warps() * 32; }
    SPMMA_SM80_HD constexpr int b_stage_bytes() const { return bn * kStageKBytes; }
    SPMMA_SM80_HD constexpr int stage_bytes(const Family& f) const {
        return int(a_stage_bytes(bm)) + b_stage_bytes() + int(e_stage_words(f, bm)) * 4;
    }
    SPMMA_SM80_HD constexpr int pipeline_bytes(const Family& f) const { return stages * stage_bytes(f); }
    // The epilogue reuses shared memory for the CTA's accumulators, 32 bits each, rows
    // kEpiloguePad words longer than the tile (see epilogue_offset).
    SPMMA_SM80_HD constexpr int epilogue_bytes() const;
    SPMMA_SM80_HD constexpr int smem_bytes(const Family& f) const {
        return pipeline_bytes(f) > epilogue_bytes() ? pipeline_bytes(f) : epilogue_bytes();
    }
};

// ---- the epilogue's accumulator tile in shared memory ------------------------------------------
// Row r of the CTA tile at r * (bn + 8) words. NOTES: the 8-word pad shifts consecutive rows by
// 8 banks, so the accumulator writes (8 rows x 32 bytes per warp instruction) take the minimum
// two wavefronts; the reads are whole rows of 16-byte vectors (conflict-free either way).
constexpr int kEpiloguePad = 8;
SPMMA_SM80_HD constexpr int epilogue_row_words(int bn) { return bn + kEpiloguePad; }
SPMMA_SM80_HD constexpr int epilogue_offset(int bn, int row, int col) { return (row * epilogue_row_words(bn) + col) * 4; }
SPMMA_SM80_HD constexpr int Tile::epilogue_bytes() const { return bm * epilogue_row_words(bn) * 4; }

// Offsets of the three regions within one stage of shared memory.
SPMMA_SM80_HD constexpr int smem_a_region(const Tile&) { return 0; }
SPMMA_SM80_HD constexpr int smem_b_region(const Tile& t) { return int(a_stage_bytes(t.bm)); }
SPMMA_SM80_HD constexpr int smem_e_region(const Tile& t) { return int(a_stage_bytes(t.bm)) + t.b_stage_bytes(); }

// CTA raster: consecutive CTAs walk `group` tile rows down M, then step along N, so the CTAs
// resident at once share A and B tiles in L2.
struct TileCoord {
    int m, n;
};
SPMMA_SM80_HD constexpr TileCoord raster(int pid, int tiles_m, int tiles_n, int group) {
    const int per_group = group * tiles_n;
    const int first_m = (pid / per_group) * group;
    const int rows = (tiles_m - first_m) < group ? (tiles_m - first_m) : group;
    const int in_group = pid % per_group;
    return {first_m + in_group % rows, in_group / rows};
}

}  // namespace spmma_sm80

// The sm120a plugin's data layouts, shared by the host packer (g++), the tests (which run the
// packed data through the mma.sp instruction model with exactly these offsets) and the kernels
// (nvcc): which byte of which operand each lane hands to mma.sp, where packed A, metadata and
// scale words lie in global and shared memory, and how B is swizzled in shared memory.
//
// Every form (forms.hpp) consumes, per mma, 64 bytes of each B column and 32 compressed bytes
// of each A row (k64 in 8-bit containers, or k128 of packed e2m1). Fragments, PTX ISA 9.7.14.6.2
// (sparse A, metadata) and 9.7.14.5.x (B, C, D), with g = lane >> 2, t = lane & 3:
//   A register r: row g + 8*(r & 1), compressed bytes [16*(r >> 1) + 4t, +4) of the mma's 32
//     (8-bit: chunks 2t + 8*(r >> 1) and +1, two kept bytes each; 4-bit: the same chunks of 8
//     columns, four kept nibbles each);
//   B register r: column g, bytes [16r + 4t, +4) of the column's 64 (rows 16r + 4t + e for 8-bit,
//     32r + 8t + e for 4-bit);
//   C/D f32 register r: row g + 8*(r >> 1), column 2t + (r & 1); f16 register r, half h: row
//     g + 8r, column 2t + h.
//   Metadata (16 chunks a row, sparsity selector 0): the nibble of (row, chunk c) is in lane
//     4*(row % 8) + (row >= 8) + 2*(c / 8), bits 4*(c % 8) .. +3; bits 1..0 the first kept index
//     (element for 2:4, pair for 4:8), bits 3..2 the second.
// Block scales, PTX 9.7.14.3 "Block Scaling for mma.sync" (selectors of Table 37):
//   SF_A(row m of the 16, block j of the V) is byte byte-id-a + j of lane 4*(m % 8) +
//   2*thread-id-a + (m >= 8); SF_B(column n of the 8, block j) is byte byte-id-b + j of lane
//   4n + thread-id-b. So one 32-bit scale-a word per lane serves TWO 16-row atoms (thread-id-a 0
//   and 1) and four blocks along k; one scale-b word serves FOUR 8-column atoms (thread-id-b
//   0..3) and four blocks. The packer builds those words; the kernel passes them untouched.
#pragma once

#include <spmma_sm120a/forms.hpp>

#include <cstdint>

namespace spmma_sm120a {

// ---- the mma step and the pipeline stage ----------------------------------------------------
constexpr int kStepBytes = 64;                       // B column bytes one mma consumes
constexpr int kStageBytes = kStepBytes * kSteps;     // B column bytes per stage (128)
constexpr int kAtomRows = 16;                        // rows one mma covers
constexpr int kAtomCols = 8;                         // columns one mma covers
constexpr int kAFragBytes = 16;                      // A bytes one lane hands one mma (4 registers)
constexpr int kAAtomBytes = 32 * kAFragBytes;        // packed A bytes of one atom per mma (512)
constexpr int kAtomsPerScaleA = 2;                   // thread-id-a picks one of two atoms
constexpr int kAtomsPerScaleB = 4;                   // thread-id-b picks one of four atoms

// ---- fragments within one mma -----------------------------------------------------------------
SPMMA_SM120A_HD constexpr int a_frag_row(int lane, int reg) { return (lane >> 2) + 8 * (reg & 1); }
SPMMA_SM120A_HD constexpr int a_frag_byte(int lane, int reg) { return 16 * (reg >> 1) + 4 * (lane & 3); }
SPMMA_SM120A_HD constexpr int b_frag_col(int lane) { return lane >> 2; }
SPMMA_SM120A_HD constexpr int b_frag_byte(int lane, int reg) { return 16 * reg + 4 * (lane & 3); }
SPMMA_SM120A_HD constexpr int cd_row(int lane, int reg, bool f16_acc) {
    return (lane >> 2) + 8 * (f16_acc ? reg : (reg >> 1));
}
SPMMA_SM120A_HD constexpr int cd_col(int lane, int reg, int half, bool f16_acc) {
    return 2 * (lane & 3) + (f16_acc ? half : (reg & 1));
}

struct MetaPos {
    int lane, nibble;
};
SPMMA_SM120A_HD constexpr MetaPos meta_position(int row, int chunk) {
    return {4 * (row & 7) + (row >> 3) + 2 * (chunk >> 3), chunk & 7};
}

// Scale selectors. Step s of a stage uses blocks [s*V, s*V + V) of the stage: word (s*V)/4,
// starting at byte (s*V)%4 (1X: bytes 0, 1; 2X: 0, 2; 4X: byte 0 of words 0, 1 -- all within
// Table 37's allowed byte-ids).
SPMMA_SM120A_HD constexpr int scale_word(const Form& f, int step) { return (step * f.scale_vec) >> 2; }
SPMMA_SM120A_HD constexpr int scale_byte_id(const Form& f, int step) { return (step * f.scale_vec) & 3; }
SPMMA_SM120A_HD constexpr int thread_id_a(int atom) { return atom & 1; }   // atom: 16-row atom in the CTA
SPMMA_SM120A_HD constexpr int thread_id_b(int natom) { return natom & 3; } // natom: 8-column atom in the CTA
// Which row (0..15) of atom 2*pair + thread-id-a the scale-a word of `lane` serves, and its
// thread-id-a; which column (0..7) of atom 4*quad + thread-id-b the scale-b word serves.
SPMMA_SM120A_HD constexpr int scale_a_row(int lane) { return (lane >> 2) + 8 * (lane & 1); }
SPMMA_SM120A_HD constexpr int scale_a_tid(int lane) { return (lane >> 1) & 1; }
SPMMA_SM120A_HD constexpr int scale_b_col(int lane) { return lane >> 2; }
SPMMA_SM120A_HD constexpr int scale_b_tid(int lane) { return lane & 3; }

// ---- packed operands in global memory (each stage block is copied to shared memory as is) ------
// A values:  [m tile][k stage][atom (BM/16)][step][lane][16 bytes]       BM*64 bytes a stage
// Metadata:  [m tile][k stage][atom][step][lane] uint32                  BM*16 bytes a stage
// Scale A:   [m tile][k stage][atom pair (BM/32)][word][lane] uint32      BM*4*words bytes
// Scale B:   [n tile][k stage][atom quad (BN/32)][word][lane] uint32      BN*4*words bytes
// B:         column-major, n padded to the CTA tile, k to the stage, ldb bytes per column
// Rows past m, columns past n and k past the problem hold zero values, metadata 0b0100 (the
// kit's kPadMetadataNibble) and scale 1.0, so they add exact zeros.
SPMMA_SM120A_HD constexpr int a_stage_bytes(int bm) { return bm * (kStageBytes / 2); }
SPMMA_SM120A_HD constexpr int e_stage_words(int bm) { return (bm / kAtomRows) * kSteps * 32; }
SPMMA_SM120A_HD constexpr int sa_stage_words(const Form& f, int bm) {
    return (bm / (kAtomRows * kAtomsPerScaleA)) * f.scale_words() * 32;
}
SPMMA_SM120A_HD constexpr int sb_stage_words(const Form& f, int bn) {
    return (bn / (kAtomCols * kAtomsPerScaleB)) * f.scale_words() * 32;
}
// Offsets inside one stage block (bytes for A, words for the others).
SPMMA_SM120A_HD constexpr int a_stage_offset(int atom, int step, int lane) {
    return (atom * kSteps + step) * kAAtomBytes + lane * kAFragBytes;
}
SPMMA_SM120A_HD constexpr int e_stage_offset(int atom, int step, int lane) { return (atom * kSteps + step) * 32 + lane; }
// `words` is Form::scale_words().
SPMMA_SM120A_HD constexpr int sa_stage_offset(int words, int pair, int word, int lane) { return (pair * words + word) * 32 + lane; }
SPMMA_SM120A_HD constexpr int sb_stage_offset(int words, int quad, int word, int lane) { return (quad * words + word) * 32 + lane; }

// ---- B in shared memory ----------------------------------------------------------------------
// A stage holds BN columns of 128 bytes (8 chunks of 16); chunk c of column n lies at
// n*128 + ((c ^ (n % 8)) * 16). ldmatrix reads one chunk of 8 consecutive columns: the XOR puts
// them in 8 different 16-byte bank groups (no conflict); cp.async writes whole chunks.
SPMMA_SM120A_HD constexpr int b_smem_offset(int col, int chunk) { return col * kStageBytes + ((chunk ^ (col & 7)) << 4); }
// The address lane l gives ldmatrix.x4 for the 8 columns from col0 at `step`: matrix l/8 is
// chunk 4*step + l/8, its row l%8 column col0 + l%8. Register q of lane (g, t) then holds bytes
// [4t, +4) of chunk 4*step + q of column col0 + g = B register q (b_frag_byte).
SPMMA_SM120A_HD constexpr int b_ldsm_offset(int col0, int step, int lane) {
    return b_smem_offset(col0 + (lane & 7), 4 * step + (lane >> 3));
}

// ---- CTA tiles -------------------------------------------------------------------------------
struct Tile {
    int bm, bn;   // CTA tile
    int wm, wn;   // warp tile
    int stages;   // cp.async pipeline depth
    SPMMA_SM120A_HD constexpr int warps() const { return (bm / wm) * (bn / wn); }
    SPMMA_SM120A_HD constexpr int threads() const { return warps() * 32; }
    SPMMA_SM120A_HD constexpr int b_stage_bytes() const { return bn * kStageBytes; }
    // Stage regions: A | B | metadata | scale A | scale B (each a multiple of 16 bytes).
    SPMMA_SM120A_HD constexpr int b_region() const { return a_stage_bytes(bm); }
    SPMMA_SM120A_HD constexpr int e_region() const { return b_region() + b_stage_bytes(); }
    SPMMA_SM120A_HD constexpr int sa_region() const { return e_region() + e_stage_words(bm) * 4; }
    SPMMA_SM120A_HD constexpr int sb_region(const Form& f) const { return sa_region() + sa_stage_words(f, bm) * 4; }
    SPMMA_SM120A_HD constexpr int stage_bytes(const Form& f) const { return sb_region(f) + sb_stage_words(f, bn) * 4; }
    SPMMA_SM120A_HD constexpr int smem_bytes(const Form& f) const { return stages * stage_bytes(f); }
};

// CTA raster: consecutive CTAs walk `group` tile rows down M, then step along N, so CTAs resident
// at once share A and B tiles in L2.
struct TileCoord {
    int m, n;
};
SPMMA_SM120A_HD constexpr TileCoord raster(int pid, int tiles_m, int tiles_n, int group) {
    const int per_group = group * tiles_n;
    const int first_m = (pid / per_group) * group;
    const int rows = (tiles_m - first_m) < group ? (tiles_m - first_m) : group;
    const int in_group = pid % per_group;
    return {first_m + in_group % rows, in_group / rows};
}

}  // namespace spmma_sm120a

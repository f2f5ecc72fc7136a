// The tcgen05.mma.sp kinds the sm100a plugin issues and what each implies for the layouts, in one
// header that nvcc (the kernels) and g++ (the packing library, the tests) both compile.
//
// PTX ISA 9.7.16.10.9.2 tcgen05.mma.sp; shapes 9.7.16.2.1 (Table "Various combinations of .kind
// and shapes"); sparsity 9.7.16.10.8 ("Sparse matrices"); block scaling 9.7.16.10.7.
//
// NOTES: every instruction of every kind reads 32 bytes of each compressed A row and 64 bytes of
// each B row (K-major) from shared memory: that is what makes one stage geometry (kinds only
// differ in how many logical k those bytes hold) and one shared-memory layout serve all kinds.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define SPMMA_SM100A_HD __host__ __device__ __forceinline__
#else
#define SPMMA_SM100A_HD inline
#endif

namespace spmma_sm100a {

enum class Kind : int32_t {
    F16 = 0,       // f16 x f16 / bf16 x bf16, 2:4, K = 32
    TF32 = 1,      // tf32 x tf32, 1:2, K = 16
    F8F6F4 = 2,    // e4m3/e5m2/e3m2/e2m3/e2m1 (4/6-bit ones padded to 8-bit slots), 2:4, K = 64
    I8 = 3,        // s8/u8, 2:4, K = 64
    MXF8F6F4 = 4,  // as F8F6F4 with ue8m0 block scales, scale_vec::1X
    MXF4 = 5,      // packed e2m1, pairwise 4:8, K = 128, ue8m0, scale_vec::2X
    MXF4NVF4 = 6,  // packed e2m1, pairwise 4:8, K = 128, ue8m0 (2X/4X) or ue4m3 (4X)
};

// Scale factors one instruction applies per row of A (column of B): .scale_vec::NX.
enum class ScaleVec : int32_t { None = 0, X1 = 1, X2 = 2, X4 = 4 };

SPMMA_SM100A_HD constexpr bool is_block_scaled(Kind k) {
    return k == Kind::MXF8F6F4 || k == Kind::MXF4 || k == Kind::MXF4NVF4;
}

struct KindTraits {
    int elem_bits;   // bits one A or B element takes in shared memory (32, 16, 8 or 4; f8f6f4's
                     // 4- and 6-bit types take 8: 16 per padded 16-byte chunk)
    int mma_k;       // logical k of one instruction
    int group;       // logical elements one metadata nibble covers (4, 2 or 8)
    int meta_cols;   // tensor-memory columns of metadata one instruction reads (M = 128): 1 or 2
};

SPMMA_SM100A_HD constexpr KindTraits traits(Kind k) {
    return k == Kind::F16    ? KindTraits{16, 32, 4, 1}
           : k == Kind::TF32 ? KindTraits{32, 16, 2, 1}
           : k == Kind::MXF4 || k == Kind::MXF4NVF4 ? KindTraits{4, 128, 8, 2}
                                                     : KindTraits{8, 64, 4, 2};
}

// Logical k one scale factor covers: the instruction's k over its scale_vec (NOTES: for the
// sparse shapes that is 64 for scale_vec::1X and 2X and 32 for 4X, twice the dense block size;
// PTX Table "Valid combinations of scale_vectorsize and shapes": scale_A is M x N for .scale_vec::NX
// whatever K is).
SPMMA_SM100A_HD constexpr int scale_block(Kind k, ScaleVec v) {
    return v == ScaleVec::None ? 0 : traits(k).mma_k / static_cast<int>(v);
}

// Whether the instruction exists with this scale_vec (PTX Table "Valid combinations of
// scale_vectorsize with types and MMA-Kind").
SPMMA_SM100A_HD constexpr bool valid_scale_vec(Kind k, ScaleVec v) {
    return k == Kind::MXF8F6F4   ? v == ScaleVec::X1
           : k == Kind::MXF4     ? v == ScaleVec::X2
           : k == Kind::MXF4NVF4 ? (v == ScaleVec::X2 || v == ScaleVec::X4)
                                 : v == ScaleVec::None;
}

// ---- the stage geometry (all kinds) ----------------------------------------------------------
constexpr int kInstrARowBytes = 32;   // compressed A bytes of one row that one instruction reads
constexpr int kInstrBRowBytes = 64;   // B bytes of one row that one instruction reads
constexpr int kStepsPerStage = 2;     // instructions per pipeline stage
constexpr int kStageARowBytes = kStepsPerStage * kInstrARowBytes;  // 64: one 64-byte swizzle row
constexpr int kStageBRowBytes = kStepsPerStage * kInstrBRowBytes;  // 128: one 128-byte swizzle row
constexpr int kRowsPerCta = 128;      // rows of A (and D lanes) each CTA holds: M = 128 per CTA

SPMMA_SM100A_HD constexpr int stage_k(Kind k) { return kStepsPerStage * traits(k).mma_k; }

// Metadata: per 128-row block and stage, one 128 x 16-byte chunk (lane r's 16 bytes at r*16),
// moved to tensor memory with one tcgen05.cp.128x128b into 4 columns. Kinds with one column per
// instruction (f16, tf32) use columns 0 and 1 of the 4; the others use all 4.
constexpr int kMetaChunkBytes = kRowsPerCta * 16;
constexpr int kMetaColsPerStage = 4;

// Block scales: one "scale tile" is 32 rows of 16 bytes (512 bytes), moved with one
// tcgen05.cp.32x128b.warpx4 into 4 columns of all four 32-lane quarters; it holds 4 bytes for
// each of 128 rows (row r: lane r % 32, column r / 32). Per 128 rows and stage:
//   1X: 1 tile, byte j = instruction j's scale;  2X: 1 tile, bytes 2j, 2j+1;
//   4X: 2 tiles, tile j holds instruction j's four scales.
constexpr int kScaleTileBytes = 512;
constexpr int kScaleTileRows = 32;
constexpr int kScaleColsPerTile = 4;
SPMMA_SM100A_HD constexpr int scale_tiles_per_stage(ScaleVec v) {
    return v == ScaleVec::None ? 0 : (kStepsPerStage * static_cast<int>(v) + 3) / 4;
}
// Which tile of a stage instruction `step` reads, and the scale-factor id (first byte) it names.
SPMMA_SM100A_HD constexpr int scale_tile_of_step(ScaleVec v, int step) { return v == ScaleVec::X4 ? step : 0; }
SPMMA_SM100A_HD constexpr int scale_id_of_step(ScaleVec v, int step) {
    return v == ScaleVec::X4 ? 0 : step * static_cast<int>(v);
}

}  // namespace spmma_sm100a

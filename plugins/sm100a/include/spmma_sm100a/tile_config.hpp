// The geometry of one sm100a kernel configuration (kind, tile, CTA group, stages), shared by the
// device template (static_asserts, shared- and tensor-memory offsets) and the host (launch
// shape, tensor-map boxes, packing), so both sides compute every size from one definition.
#pragma once

#include <spmma_sm100a/kind.hpp>

namespace spmma_sm100a {

constexpr int kMaxSmemPerCta = 232448;  // 227 KiB, the opt-in limit on sm_100
constexpr int kTmemColumns = 512;       // tensor memory of one CTA (PTX ISA 9.7.16.1)

// Warp roles: warp 0 issues TMA (one lane), warp 1 owns tensor memory (allocation) and issues
// the MMAs (one lane), warps 2..5 are the epilogue (warp w reads lanes 32 * (w % 4) .. + 31).
constexpr int kProducerWarp = 0;
constexpr int kMmaWarp = 1;
constexpr int kFirstEpilogueWarp = 2;
constexpr int kEpilogueWarps = 4;
constexpr int kThreads = 32 * (kFirstEpilogueWarp + kEpilogueWarps);
constexpr int kEpilogueColumns = 16;  // accumulator columns one tcgen05.ld brings per thread

struct TileConfig {
    Kind kind;
    ScaleVec sv;
    int cg;      // CTA group: 1, or 2 (a CTA pair computes a 256-row tile, 128 rows each)
    int bn;      // columns of the tile (the instruction's N)
    int stages;  // pipeline depth

    SPMMA_SM100A_HD constexpr int bm() const { return cg * kRowsPerCta; }  // rows of the tile (the instruction's M)
    SPMMA_SM100A_HD constexpr int bk() const { return stage_k(kind); }     // logical k per stage
    SPMMA_SM100A_HD constexpr int bn_cta() const { return bn / cg; }       // B rows each CTA holds
    SPMMA_SM100A_HD constexpr int n_groups() const { return bn / 128 > 0 ? bn / 128 : 1; }  // 128-column groups of scale B

    // ---- shared memory per stage: [A][B][metadata][scale A][scale B] ----
    SPMMA_SM100A_HD constexpr int a_stage_bytes() const { return kRowsPerCta * kStageARowBytes; }
    SPMMA_SM100A_HD constexpr int b_stage_bytes() const { return bn_cta() * kStageBRowBytes; }
    SPMMA_SM100A_HD constexpr int meta_stage_bytes() const { return kMetaChunkBytes; }
    SPMMA_SM100A_HD constexpr int sfa_tiles() const { return scale_tiles_per_stage(sv); }
    SPMMA_SM100A_HD constexpr int sfb_tiles() const { return scale_tiles_per_stage(sv) * n_groups(); }
    SPMMA_SM100A_HD constexpr int sfa_stage_bytes() const { return sfa_tiles() * kScaleTileBytes; }
    SPMMA_SM100A_HD constexpr int sfb_stage_bytes() const { return sfb_tiles() * kScaleTileBytes; }
    SPMMA_SM100A_HD constexpr int stage_bytes() const {
        return a_stage_bytes() + b_stage_bytes() + meta_stage_bytes() + sfa_stage_bytes() + sfb_stage_bytes();
    }
    SPMMA_SM100A_HD constexpr int a_offset() const { return 0; }
    SPMMA_SM100A_HD constexpr int b_offset() const { return stages * a_stage_bytes(); }
    SPMMA_SM100A_HD constexpr int meta_offset() const { return b_offset() + stages * b_stage_bytes(); }
    SPMMA_SM100A_HD constexpr int sfa_offset() const { return meta_offset() + stages * meta_stage_bytes(); }
    SPMMA_SM100A_HD constexpr int sfb_offset() const { return sfa_offset() + stages * sfa_stage_bytes(); }
    // Barriers: full[stages], empty[stages], acc_full[acc], acc_empty[acc]; then the 4-byte slot
    // tcgen05.alloc writes the tensor-memory base to.
    SPMMA_SM100A_HD constexpr int barrier_offset() const { return sfb_offset() + stages * sfb_stage_bytes(); }
    SPMMA_SM100A_HD constexpr int tmem_slot_offset() const { return barrier_offset() + 8 * (2 * stages + 2 * acc_buffers()); }
    // + 1024 bytes of slack to align the dynamic base to the 128-byte swizzle pattern.
    SPMMA_SM100A_HD constexpr int smem_bytes() const { return tmem_slot_offset() + 16 + 1024; }

    // Bytes of complete-tx per stage: what each CTA's TMA writes, times the CTAs of the group
    // (the even CTA's full barrier counts both).
    SPMMA_SM100A_HD constexpr int stage_tx_bytes() const { return cg * stage_bytes(); }

    // ---- tensor memory: [accumulators][metadata slots][scale A slots][scale B slots] ----
    // Two accumulator buffers (the epilogue of one tile overlaps the mainloop of the next) when
    // they fit with the per-stage slots, else one.
    SPMMA_SM100A_HD constexpr int slot_columns() const {
        return stages * (kMetaColsPerStage + kScaleColsPerTile * (sfa_tiles() + sfb_tiles()));
    }
    SPMMA_SM100A_HD constexpr int acc_buffers() const { return 2 * bn + slot_columns() <= kTmemColumns ? 2 : 1; }
    SPMMA_SM100A_HD constexpr int acc_column(int buf) const { return buf * bn; }
    SPMMA_SM100A_HD constexpr int meta_column(int stage) const { return acc_buffers() * bn + stage * kMetaColsPerStage; }
    SPMMA_SM100A_HD constexpr int sfa_column(int stage) const {
        return acc_buffers() * bn + stages * kMetaColsPerStage + stage * kScaleColsPerTile * sfa_tiles();
    }
    SPMMA_SM100A_HD constexpr int sfb_column(int stage) const {
        return acc_buffers() * bn + stages * (kMetaColsPerStage + kScaleColsPerTile * sfa_tiles()) +
               stage * kScaleColsPerTile * sfb_tiles();
    }
    SPMMA_SM100A_HD constexpr int tmem_columns_used() const { return acc_buffers() * bn + slot_columns(); }

    // Everything the kernel relies on; the device template static_asserts it, the host tests it.
    SPMMA_SM100A_HD constexpr bool valid() const {
        const bool n_ok = cg == 1 ? (bn % 16 == 0 && bn >= 16 && bn <= 256) : (bn % 32 == 0 && bn >= 32 && bn <= 256);
        const bool scaled_ok = is_block_scaled(kind) ? (valid_scale_vec(kind, sv) && bn % 128 == 0)
                                                     : sv == ScaleVec::None;
        return (cg == 1 || cg == 2) && n_ok && scaled_ok && stages >= 2 && smem_bytes() <= kMaxSmemPerCta &&
               tmem_columns_used() <= kTmemColumns && bn % kEpilogueColumns == 0 &&
               stage_k(kind) * traits(kind).elem_bits / 8 == kStageBRowBytes && bn_cta() <= 256;
    }
};

}  // namespace spmma_sm100a

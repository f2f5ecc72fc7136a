// The geometry of one sm90a kernel configuration (tile, cluster, stages), shared by the device
// template (static_asserts, shared-memory offsets) and the host (launch shape, tensor-map boxes),
// so both sides compute every size from one definition.
#pragma once

#include <spmma_sm90a/layout.hpp>

namespace spmma_sm90a {

// Shared memory an sm_90 CTA may opt into (227 KiB).
constexpr int kMaxSmemPerCta = 232448;

// Stream-K partials a split tile's owner adds together (sm90a_spgemm.cuh, add_partials), for a
// consumer whose partial is `words` 16-byte words a thread (its accumulator registers / 4): four
// of up to 4 words, two of up to 8, one of up to 16 (64 registers: the decode tiles and 128x128);
// 0 for the wider ones, added one by one (add_partial). The cost model charges their round trips
// by the same groups (perf_model.cpp, partial_round_trips_clk).
SPMMA_HD constexpr int partial_group(int words) { return words <= 4 ? 4 : words <= 8 ? 2 : words <= 16 ? 1 : 0; }

struct TileConfig {
    Family family;
    int bm, bn;        // CTA tile (rows of D, columns of D)
    int cm, cn;        // cluster: CTAs along m (they share, and multicast, the B tile) and along n
                       // (they share, and multicast, the A and metadata tiles)
    int stages;        // pipeline depth

    // Warpgroups: one producer (TMA) and 1 or 2 consumers (wgmma) that split the tile's rows:
    // 64 rows: one consumer; 128 and 256: two (one or two m64 blocks each). NOTES: three
    // consumers (512 threads) cap every thread at 128 registers at launch, and ptxas allocates
    // within that cap whatever setmaxnreg grants later: an m64n256 f32 accumulator (128
    // registers) does not compile ("insufficient registers").
    SPMMA_HD constexpr int consumers() const { return bm == 64 ? 1 : 2; }
    SPMMA_HD constexpr int threads() const { return 128 * (1 + consumers()); }
    SPMMA_HD constexpr int wg_m() const { return bm / consumers(); }      // rows per consumer
    SPMMA_HD constexpr int m_blocks() const { return wg_m() / 64; }      // m64 instructions per k-step
    SPMMA_HD constexpr int bk() const { return stage_k(family); }         // logical k per stage
    SPMMA_HD constexpr int units() const { return units_per_stage(family); }
    SPMMA_HD constexpr int cluster_size() const { return cm * cn; }

    // Register budgets (setmaxnreg) with two consumers, for `acc_regs` accumulator registers per
    // consumer thread: the producer gives up registers for them, within 64K per SM (168 per
    // thread at launch): 40/232, or 24/240 for the largest accumulators (m128 x n192 f32 per
    // consumer: 192 registers). One consumer (256 threads) runs with what launch gives.
    SPMMA_HD constexpr bool uses_setmaxnreg() const { return consumers() > 1; }
    SPMMA_HD constexpr int producer_regs(int acc_regs) const { return acc_regs > 160 ? 24 : 40; }
    SPMMA_HD constexpr int consumer_regs(int acc_regs) const {
        return consumers() == 2 ? (acc_regs > 160 ? 240 : 232) : 255;
    }
    // Accumulator registers per consumer thread: its m64 blocks x the wgmma D fragment (bn / 2
    // 32-bit registers, bn / 4 with f16 pairs).
    SPMMA_HD constexpr int acc_regs(bool f16_acc) const { return m_blocks() * bn / (f16_acc ? 4 : 2); }
    // NOTES: ABI 1.2's fused epilogue keeps scales, bias values and their addresses beside the
    // accumulators; consumers with more than 160 accumulator registers (m128 x n192 f32: 192 of
    // 240) spilled with it. Those kernels do not fuse it: an epilogue problem is refused on them
    // and the heuristic passes them over (selection.hpp).
    SPMMA_HD constexpr bool fuses_epilogue(int acc_regs) const { return acc_regs <= 160; }
    // NOTES: and in the TMA stores too, except the one-m64-block 128-register consumers of the
    // 16-bit family (128x256 f16 and bf16 with f32 accumulators), which fuse it in their direct
    // stores only (the host keeps such a problem off their TMA stores). A 384-thread kernel's
    // threads are capped at 168 registers whatever setmaxnreg grants later, so 128 accumulators
    // leave 40; with the epilogue's column terms spread over the warp (sm90a_spgemm.cuh,
    // TileTerms) every other fusing kernel stores through TMA without spilling, those two
    // families' 128x256 spilled 28 bytes (ptxas on one-kernel files, plugins/sm90a/NOTES.md).
    SPMMA_HD constexpr bool fuses_epilogue_in_tma_stores(int acc_regs) const {
        return fuses_epilogue(acc_regs) && !(family == Family::B16 && m_blocks() == 1 && acc_regs >= 128);
    }

    // Per stage: A (bm rows x 64 B, 64-byte swizzle), B (bn rows x 128 B, 128-byte swizzle),
    // metadata (bm/16 row blocks x units x 128 B). Shared memory is laid out
    // [A stages][B stages][E stages][epilogue buffers][epilogue terms][barriers] from a
    // 1024-byte aligned base.
    SPMMA_HD constexpr int a_stage_bytes() const { return bm * kStageARowBytes; }
    // Whether the kernel takes A in stage order (pack.hpp, pack_a_stages): one bulk copy of the
    // stage's shared-memory image instead of a tensor copy of bm rows of 64 bytes. The tiles up
    // to 128 columns without A multicast. NOTES: over the whole GPU, 1-D bulk copies read DRAM
    // faster than 2-D boxes of 64-byte rows (spmma-bench-dram), and the decode layers ran faster
    // with A so (plugins/sm90a/NOTES.md, "A in stage order" and "A in stage order at n = 128").
    SPMMA_HD constexpr bool a_in_stage_order() const { return bn <= 128 && cn == 1; }
    SPMMA_HD constexpr int b_stage_bytes() const { return bn * kStageBRowBytes; }
    SPMMA_HD constexpr int e_stage_bytes() const { return bm / kMetaRowsPerUnit * units() * kMetaUnitBytes; }
    SPMMA_HD constexpr int stage_bytes() const { return a_stage_bytes() + b_stage_bytes() + e_stage_bytes(); }
    SPMMA_HD constexpr int a_offset() const { return 0; }
    SPMMA_HD constexpr int b_offset() const { return stages * a_stage_bytes(); }
    SPMMA_HD constexpr int e_offset() const { return b_offset() + stages * b_stage_bytes(); }
    // Epilogue buffers (D through TMA stores): per consumer one or two buffers of 64 rows x
    // epi_row_bytes() swizzled with that width, the box of one tma store. 128-byte rows where the
    // stage ring leaves room for them, else 64 (16-bit 256x192 with 5 stages), else none (the
    // kernel stores D directly; 8-bit 256x192 with 5 stages was such a kernel and measured slower,
    // so it runs 4: plugins/sm90a/NOTES.md, "v5"). Two buffers where they fit: a consumer fills
    // one chunk while TMA still reads the previous one.
    SPMMA_HD constexpr int epi_offset() const { return (e_offset() + stages * e_stage_bytes() + 1023) / 1024 * 1024; }
    SPMMA_HD constexpr bool epi_fits(int row_bytes, int buffers) const {
        return epi_offset() + consumers() * buffers * 64 * row_bytes + terms_bytes() + 2 * stages * 8 + 1024 <=
               kMaxSmemPerCta;
    }
    // Narrow tiles (bn < 64, the decode kernels) store D directly: a 16-bit chunk of a 64-byte
    // row is 32 columns, wider than their tiles, and their D is a few kilobytes a tile.
    SPMMA_HD constexpr int epi_row_bytes() const {
        return bn < 64 ? 0 : epi_fits(128, 1) ? 128 : epi_fits(64, 1) ? 64 : 0;
    }
    SPMMA_HD constexpr bool tma_store() const { return epi_row_bytes() > 0; }
    // Chunks of one tile's D in the narrowest output (16-bit): two buffers alternate across tiles
    // only when every tile has an even number of them.
    SPMMA_HD constexpr int epi_chunks16(int row_bytes) const { return m_blocks() * bn * 2 / row_bytes; }
    SPMMA_HD constexpr int epi_buffers() const {
        return !tma_store() ? 0 : epi_fits(epi_row_bytes(), 2) && epi_chunks16(epi_row_bytes()) % 2 == 0 ? 2 : 1;
    }
    SPMMA_HD constexpr int epi_buffer_bytes() const { return 64 * epi_row_bytes(); }
    // With one buffer of its own, a consumer can borrow two more from the B rows of the tile's
    // last pipeline stage for the epilogue (the kernel holds that stage until the stores have
    // read it): where the B stage holds two buffers per consumer, and not with 256x192's
    // accumulators (192 registers of a 240 budget: ptxas spilled 4-8 bytes for the borrowed
    // buffers' addresses).
    SPMMA_HD constexpr bool epi_borrows() const {
        return tma_store() && epi_buffers() == 1 && b_stage_bytes() >= consumers() * 2 * epi_buffer_bytes() &&
               m_blocks() * bn <= 320;
    }
    SPMMA_HD constexpr int epi_buffer_offset(int consumer, int buffer) const {
        return epi_offset() + (consumer * epi_buffers() + buffer) * epi_buffer_bytes();
    }
    // ABI 1.2's epilogue terms of the narrow tiles (bn <= 64: the decode kernels), which the
    // consumers copy into shared memory (cp.async) as a tile starts and read once its main loop
    // is done: one region per consumer warp, its 16 rows of each m64 block (row scale, row bias:
    // 8 bytes a row) and one column pair per lane (two scales, two biases: 16 bytes a lane, 64
    // columns). NOTES: loaded into registers before the main loop instead, they held its first
    // wgmma for a DRAM latency (ptxas lets no wgmma start while a load into a register is
    // pending: bench/NOTES.md, 2026-11-27 12:52); the wider tiles have no such room beside their
    // stage rings (128x128 8-bit leaves 1.9 KB).
    SPMMA_HD constexpr bool stages_terms() const { return bn <= 64; }
    SPMMA_HD constexpr int terms_warp_bytes() const { return m_blocks() * 16 * 8 + 32 * 16; }
    SPMMA_HD constexpr int terms_bytes() const { return stages_terms() ? consumers() * 4 * terms_warp_bytes() : 0; }
    SPMMA_HD constexpr int epi_buffers_end() const { return epi_offset() + consumers() * epi_buffers() * epi_buffer_bytes(); }
    SPMMA_HD constexpr int terms_offset(int consumer, int w4) const {
        return epi_buffers_end() + (consumer * 4 + w4) * terms_warp_bytes();
    }
    SPMMA_HD constexpr int barrier_offset() const { return epi_buffers_end() + terms_bytes(); }
    // + full and empty barrier per stage.
    SPMMA_HD constexpr int barriers_end() const { return barrier_offset() + 2 * stages * 8; }
    // ABI 1.2's epilogue terms of the wide tiles whose consumers hold more than 64 f32
    // accumulator registers (128x256, 256x128, 256x192), where the stage ring leaves room: each
    // consumer copies its tile's terms into a region of its own (cp.async) as the tile starts and
    // reads them from there in the stores: its rows (row scale, row bias: 8 bytes a row), then the
    // tile's column pairs (two scales, two biases: 16 bytes a pair). NOTES: loaded from global
    // memory in the stores instead, a row's terms for every element pair and a column group's
    // handed out by shuffles, the serving op cost 1.09-1.12x the plain GEMM at 4096^3
    // (plugins/sm90a/NOTES.md, "The wide tiles' epilogue terms through shared memory").
    SPMMA_HD constexpr int wide_terms_consumer_bytes() const { return wg_m() * 8 + bn / 2 * 16; }
    SPMMA_HD constexpr int wide_terms_offset(int consumer) const {
        return (barriers_end() + 15) / 16 * 16 + consumer * wide_terms_consumer_bytes();
    }
    SPMMA_HD constexpr bool stages_wide_terms() const {
        return bn > 64 && acc_regs(false) > 64 && wide_terms_offset(consumers()) + 1024 <= kMaxSmemPerCta;
    }
    // A split tile's ranges run as one cluster (KernelParams::sk_cluster_ranges): the owner (the
    // last CTA) takes each earlier range's partial into its shared memory. Per earlier range and
    // consumer a slot of the partial (128 threads x m_blocks x bn / 2 f32 words, stored as
    // store_partial lays out a workspace slot; slot i of every consumer, then slot i + 1), then
    // per consumer the mbarrier all its slots' bytes complete, after the barriers. As many slots as
    // the stage ring leaves room for, up to seven (clusters of at most eight, the portable size),
    // in the 8-bit 128x16 kernels, and one elsewhere; only the narrow tiles without a cluster of
    // their own (not 8-bit 128x64: no room for one). NOTES: with room for seven, 16-bit 128x16's
    // whole tiles ran 3 % slower (f16 8192x16x28672, bench/NOTES.md 2026-11-29 14:54-15:01) and 8-bit
    // 128x32's clusters of four never fit at the plans that would use them (4096x32x14336: 32
    // clusters of four are more than the GPU holds), so those keep the pairs' one slot, in the
    // pairs' code (the cluster's rank and size are compile-time there).
    // NOTES: not 16-bit 128x32 either: with the exchange's code its main loop compiled
    // differently (same registers), and its whole tiles ran 4-5 % slower (f16 and bf16
    // 8192x32x28672 and 8192x32x8192, bench/NOTES.md 2026-11-29 12:29); the other narrow kernels'
    // whole tiles ran level (plugins/sm90a/NOTES.md, "A split tile's two ranges as a cluster of two").
    SPMMA_HD constexpr int exchange_slot_bytes() const { return wg_m() * bn * 4; }
    SPMMA_HD constexpr int exchange_offset() const { return (barriers_end() + 127) / 128 * 128; }
    SPMMA_HD constexpr int exchange_end(int ranges) const {
        return exchange_offset() + (ranges - 1) * consumers() * exchange_slot_bytes() + 8 * consumers();
    }
    SPMMA_HD constexpr int exchange_ranges() const {
        if (bn > 64 || cluster_size() != 1 || (family == Family::B16 && bm == 128 && bn == 32)) return 0;
        const int most = family == Family::B8 && bm == 128 && bn == 16 ? 8 : 2;
        int r = 0;
        for (int s = 2; s <= most; ++s)
            if (exchange_end(s) + 1024 <= kMaxSmemPerCta) r = s;
        return r;
    }
    SPMMA_HD constexpr bool exchanges_in_cluster() const { return exchange_ranges() >= 2; }
    // Slot of the partial of range `slot` (0 .. exchange_ranges() - 2, its rank in the cluster);
    // a consumer's slots lie exchange_slot_stride() apart.
    SPMMA_HD constexpr int exchange_slot_stride() const { return consumers() * exchange_slot_bytes(); }
    SPMMA_HD constexpr int exchange_slot_offset(int consumer, int slot) const {
        return exchange_offset() + (slot * consumers() + consumer) * exchange_slot_bytes();
    }
    SPMMA_HD constexpr int exchange_barrier_offset(int consumer) const {
        return exchange_slot_offset(0, exchange_ranges() - 1) + 8 * consumer;
    }
    // + slack to align the dynamic base to 1024 bytes.
    SPMMA_HD constexpr int smem_bytes() const {
        return (stages_wide_terms()    ? wide_terms_offset(consumers())
                : exchanges_in_cluster() ? exchange_end(exchange_ranges())
                                       : barriers_end()) +
               1024;
    }

    // Multicast slices: each CTA of a cluster column loads bn/cm rows of B for all of them; each
    // CTA of a cluster row loads bm/cn rows of A (and their metadata) for all of them.
    SPMMA_HD constexpr int a_slice_rows() const { return bm / cn; }
    SPMMA_HD constexpr int e_slice_blocks() const { return bm / kMetaRowsPerUnit / cn; }
    SPMMA_HD constexpr int b_slice_rows() const { return bn / cm; }

    // What the producer of CTA (cta_m, cta_n) of a cluster loads for output tile (tile_m, tile_n)
    // at k-tile kt: TMA box coordinates {column, row} in the packed tensors (pack.hpp) and the
    // byte offset of its slice inside the stage. Boxes: A {bk/2, a_slice_rows}, metadata
    // {units*32 words, e_slice_blocks}, B {bk, b_slice_rows}.
    SPMMA_HD constexpr int a_col(int kt) const { return kt * (bk() / 2); }
    SPMMA_HD constexpr int a_row(int tile_m, int cta_n) const { return tile_m * bm + cta_n * a_slice_rows(); }
    SPMMA_HD constexpr int a_slice_offset(int cta_n) const { return cta_n * a_slice_rows() * kStageARowBytes; }
    SPMMA_HD constexpr int e_col(int kt) const { return kt * units() * 32; }
    SPMMA_HD constexpr int e_row(int tile_m, int cta_n) const {
        return tile_m * (bm / kMetaRowsPerUnit) + cta_n * e_slice_blocks();
    }
    SPMMA_HD constexpr int e_slice_offset(int cta_n) const { return cta_n * e_slice_blocks() * units() * kMetaUnitBytes; }
    SPMMA_HD constexpr int b_col(int kt) const { return kt * bk(); }
    SPMMA_HD constexpr int b_row(int tile_n, int cta_m) const { return tile_n * bn + cta_m * b_slice_rows(); }
    SPMMA_HD constexpr int b_slice_offset(int cta_m) const { return cta_m * b_slice_rows() * kStageBRowBytes; }

    // What consumer `c` reads for m64 block j (0..m_blocks-1) at instruction `step` of a stage:
    // the descriptors' first A row, and the metadata row block of warp w4.
    SPMMA_HD constexpr int consumer_a_row(int c, int j) const { return c * wg_m() + 64 * j; }
    SPMMA_HD constexpr int consumer_meta_block(int c, int j, int w4) const {
        return c * (wg_m() / kMetaRowsPerUnit) + 4 * j + w4;
    }

    // Everything the kernel relies on; the device template static_asserts it, the host tests it.
    SPMMA_HD constexpr bool valid() const {
        const bool n_ok = bn == 16 || bn == 32 || bn == 64 || bn == 96 || bn == 128 || bn == 192 || bn == 256;
        return (bm == 64 || bm == 128 || bm == 256) && n_ok && wg_m() % 64 == 0 && stages >= 2 &&
               cm >= 1 && cn >= 1 && cluster_size() <= 8 && a_slice_rows() % 16 == 0 &&
               b_slice_rows() % 8 == 0 && e_slice_blocks() >= 1 && smem_bytes() <= kMaxSmemPerCta &&
               stage_k(family) * traits(family).elem_bytes == kStageBRowBytes;
    }
};

}  // namespace spmma_sm90a

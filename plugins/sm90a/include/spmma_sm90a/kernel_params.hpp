// What the host passes to every sm90a kernel besides the four tensor maps (A values, B,
// metadata, D). Plain data, compiled by nvcc and g++ alike; passed by value as a kernel parameter.
#pragma once

#include <spmma_plugin/fused_epilogue.hpp>
#include <spmma_sm90a/stream_k.hpp>

#include <cstdint>

namespace spmma_sm90a {

struct KernelParams {
    int32_t m, n, k;        // the problem (k unpadded; the tensors are padded to k_tiles stages)
    int32_t k_tiles;        // pipeline stages along k
    int32_t tiles_m;        // CTA tiles along m (ceil(m / BM)) and n
    int32_t tiles_n;
    int32_t raster_group;   // cluster tiles per raster band (see TileScheduler)
    int32_t raster_along_n; // 0: bands of cluster rows along m, 1: bands along n
    void* d;                // D, row-major m x n, d_type
    const void* c;          // C, row-major m x n, f32 (float problems) or s32; null when !use_c
    int32_t d_type;         // spmma_dtype of D
    int32_t use_c;          // beta != 0
    float alpha, beta;      // float problems
    int64_t alpha_i, beta_i;  // integer problems
    // (clamping s32 results is the kernel's own: the s32sat kernels clamp, the others wrap)
    int32_t serial_wgmma;   // 1: wgmma.wait_group 0 after every k-tile (diagnostics: no wgmma
                            // in flight while the next one is prepared); 0: one group in flight
    int32_t tma_store;      // 1: D leaves through the epilogue buffers and TMA stores (the fourth
                            // tensor map), 0: direct stores from registers (C read, rows of D not
                            // a multiple of 16 bytes, or SPMMA_SM90A_EPILOGUE=direct); ignored by
                            // kernels without buffers (TileConfig::tma_store)
    int32_t borrow_stage;   // 1: kernels whose tile config allows it (TileConfig::epi_borrows)
                            // write D through two buffers of the tile's last stage as well;
                            // 0: through their own buffer alone (SPMMA_SM90A_EPILOGUE_BORROW=off)
    WorkPlan work;          // whole tiles and stream-K ranges (stream_k.hpp); work.clusters is the grid's
    // Stream-K workspace (work.stream_k() only): per range, CTA of the cluster and consumer, one
    // slot of partial accumulators (128 threads x m_blocks x acc registers 32-bit words, stored
    // register-major: word w of thread t at [w / 4][t][w % 4]) and one flag, which holds `epoch`
    // once the slot is written for this launch (the host counts launches, so the flags never need
    // clearing).
    uint32_t* sk_partials;
    uint32_t* sk_flags;
    uint32_t sk_epoch;
    // The CTA tile (row, column, in tiles) where this launch's tile grid (tiles_m x tiles_n) starts
    // in D: 0, 0 but for the rest grid of a split launch (split_plan.hpp), which computes one
    // rectangle of D's tiles.
    int32_t tile_m0, tile_n0;
    spmma_plugin::FusedEpilogue epi;  // ABI 1.2's epilogue: the float kernels fuse it (scaled_pair)
    // A in stage order (TileConfig::a_in_stage_order kernels; pack_a_stages): the block of tile
    // row t and stage s at (t * k_tiles + s) * a_stage_bytes(). Null for the other kernels, which
    // copy A through its tensor map.
    const uint8_t* a_stages;
    // s > 0: the launch runs as clusters of s CTAs, each a split tile's s ranges (ranges_per_cluster:
    // every tile in s equal ranges, one unit a CTA), and the earlier ranges hand their partials to
    // the owner's shared memory (TileConfig::exchange_slot_offset) instead of the workspace; only
    // kernels with room for s - 1 slots (TileConfig::exchange_ranges) and no cluster of their own.
    // 0: the workspace. NOTES: last, so that the fields before it keep their offsets in the
    // parameter space, and the kernels without the region their code.
    int32_t sk_cluster_ranges;
};

}  // namespace spmma_sm90a

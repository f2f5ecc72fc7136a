// The sm80 heuristic's weighing of one kernel tile for a problem (sm80_backend.cpp's choose): which
// tiles are candidates, and the score whose highest wins. Pure C++, so the tests replay the choice
// without a GPU.
#pragma once

#include <spmma_plugin/tile_grid.hpp>
#include <spmma_sm80/layout.hpp>
#include <spmma_sm80/split_k.hpp>

#include <cstdint>

namespace spmma_sm80 {

// The 128-wide tiles always; the decode tiles (n below 128) only where n fits one tile column,
// so A is read once, and the widest of them (64) also in two, so that grids of 65-128 tokens
// split too.
inline bool tile_candidate(const Tile& t, int64_t n) { return t.bn >= 128 || n <= t.bn || (t.bn == 64 && n <= 128); }

// NOTES: the share of the last wave's SMs that get work, times a per-tile efficiency (fewer bytes
// per flop for the big tiles; 3 stages hide less latency than 4), times the share of computed
// elements inside m x n. A grid that split-K spreads over the device (split_k.hpp) fills the CTA
// slots it counts, not waves of one CTA an SM.
inline double tile_score(const Tile& t, const Family& f, int64_t m, int64_t n, int64_t k, int sm_count, int smem_per_sm) {
    const spmma_plugin::TileGrid grid = spmma_plugin::tile_grid(m, n, t.bm, t.bn);
    const int64_t slots = int64_t(sm_count) * resident_ctas_per_sm(t, f, smem_per_sm);
    const int64_t stages = (k + f.stage_k() - 1) / f.stage_k();
    const int splits = k_splits_on(t, f, grid.tiles(), stages, sm_count, smem_per_sm);
    const double fill = splits > 1 ? double(grid.tiles() * splits) / double(slots) : grid.wave_fill(sm_count);
    const double area = double(t.bm) * t.bn;
    double eff = area >= 32768 ? (t.bm >= t.bn ? 1.0 : 0.97) : 0.82;
    if (t.stages < 4) eff *= 0.95;
    return fill * eff * grid.used(m, n);
}

}  // namespace spmma_sm80

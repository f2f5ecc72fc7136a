// How a split launch deals one problem's CTA tiles to two persistent grids that run at once: the
// main grid in clusters of four or eight CTAs along m (B multicast to all of them) on the SMs that
// hold such clusters, and the rest grid in clusters of two on the SMs left over. Pure C++, so the
// tests walk it without a GPU.
//
// NOTES (plugins/sm90a/NOTES.md, "Four CTAs share B" and "The split launch"): the H200 holds 30
// clusters of four at once (120 of its 132 SMs), and a 128x256 tile of a 4x1 cluster ran faster
// than one of a 2x1 cluster (it asks L2 for a third fewer bytes per flop, and 12 fewer SMs pull
// fills beside it), yet the 4x1 kernel alone was slower for the 12 SMs it leaves idle. The split
// keeps those SMs busy with 2x1 clusters; with them busy, the 4x1 tiles keep part of their
// advantage.
//
// The main grid visits its cluster tiles in banded raster order (TileScheduler: bands of `group`
// cluster rows, down a band first, then across) and stops short of the last ones: the last C
// columns of its last band. The rest grid computes exactly that rectangle of CTA tiles, so each
// tile is computed once and each grid's work stays one contiguous run of its own order.
#pragma once

#include <spmma_plugin/host_pack.hpp>  // ceil_div
#include <spmma_sm90a/tile_config.hpp>

#include <cstdint>
#include <vector>

namespace spmma_sm90a {

struct SplitPlan {
    int32_t main_cluster_tiles = 0;  // the main grid visits its first this-many cluster tiles
    int32_t rest_tile_m0 = 0;        // the rest grid's rectangle of CTA tiles: first row, column,
    int32_t rest_tile_n0 = 0;
    int32_t rest_tiles_m = 0;        // rows and columns (0 columns: no rest part)
    int32_t rest_tiles_n = 0;
    int32_t rest_cluster_tiles = 0;  // the rest grid's cluster tiles over that rectangle
    double cost = 0;                 // estimated time, in turns of one rest-grid tile

    constexpr bool has_rest() const { return rest_tiles_n > 0; }
};

struct SplitGrids {
    int tiles_m, tiles_n;  // CTA tiles of the problem (both grids have the same CTA tile)
    int main_cm;           // CTAs per main cluster, along m (cn = 1)
    int main_group;        // the main grid's raster band, in cluster rows
    int main_clusters;     // clusters of the main grid resident at once
    int rest_cm;           // CTAs per rest cluster, along m (cn = 1)
    int rest_clusters;     // clusters of the rest grid resident beside the main grid
    double main_turn;      // a main tile's time in units of a rest tile's (kSplitMainTurn)
};

// A main-grid tile's time in units of a rest-grid tile's (SplitGrids::main_turn), as measured with
// both grids running (plugins/sm90a/NOTES.md, "The split launch"): below 1, but by less than the
// 4x1 kernel alone on 120 SMs ran its tiles, since the other 12 SMs' fills slow its own.
constexpr double kSplitMainTurn = 0.98;

using spmma_plugin::host::ceil_div;

// Cost of giving the rest grid the last `cols` columns of the main grid's last band.
constexpr SplitPlan split_with(const SplitGrids& g, int cols) {
    const int ctm = static_cast<int>(ceil_div(g.tiles_m, g.main_cm)), ctn = g.tiles_n;
    const int group = g.main_group > 0 ? (g.main_group < ctm ? g.main_group : ctm) : 1;
    const int last_band_row = static_cast<int>((ceil_div(ctm, group) - 1) * group);
    const int h = ctm - last_band_row;  // cluster rows in the last band
    SplitPlan p;
    p.main_cluster_tiles = ctm * ctn - cols * h;
    if (cols > 0) {
        p.rest_tile_m0 = last_band_row * g.main_cm;
        p.rest_tile_n0 = g.tiles_n - cols;
        p.rest_tiles_m = g.tiles_m - p.rest_tile_m0;
        p.rest_tiles_n = cols;
    }
    const double main_cost = static_cast<double>(ceil_div(p.main_cluster_tiles, g.main_clusters)) * g.main_turn;
    p.rest_cluster_tiles = static_cast<int32_t>(ceil_div(p.rest_tiles_m, g.rest_cm) * p.rest_tiles_n);
    const double rest_cost = p.rest_cluster_tiles > 0 ? static_cast<double>(ceil_div(p.rest_cluster_tiles, g.rest_clusters)) : 0.0;
    p.cost = main_cost > rest_cost ? main_cost : rest_cost;
    return p;
}

// The split of least cost over every column count that leaves the main grid a tile (the fewest
// columns among equals); no rest part when no SM is left over.
constexpr SplitPlan plan_split(const SplitGrids& g) {
    SplitPlan best = split_with(g, 0);
    if (g.rest_clusters <= 0) return best;
    for (int cols = 1; cols <= g.tiles_n; ++cols) {
        const SplitPlan p = split_with(g, cols);
        if (p.main_cluster_tiles > 0 && p.cost < best.cost) best = p;
    }
    return best;
}

// Turns of whole tiles for the same problem on one grid of `clusters` clusters of `cm` CTAs
// along m (the 2x1 kernel alone), in the same units.
constexpr double plain_turns(int tiles_m, int tiles_n, int cm, int clusters) {
    return static_cast<double>(ceil_div(ceil_div(tiles_m, cm) * tiles_n, clusters));
}

// Whether a split kernel may run an m x n problem in place of the heuristic's pick: where the 2x1
// kernel of its tile (rest_cfg) alone takes at least kSplitMinTurns turns. NOTES
// (plugins/sm90a/NOTES.md, "The split launch"): against the 2x1 kernel, the split ran ahead at the
// shapes of 11 turns or more and was mixed at those of 4.
constexpr int kSplitMinTurns = 8;

constexpr bool split_pays(int64_t m, int64_t n, const TileConfig& rest_cfg, int sm_count) {
    const int64_t tiles_m = ceil_div(m, rest_cfg.bm), tiles_n = ceil_div(n, rest_cfg.bn);
    const int clusters = sm_count / rest_cfg.cluster_size();
    return clusters > 0 && plain_turns(static_cast<int>(tiles_m), static_cast<int>(tiles_n), rest_cfg.cm, clusters) >= kSplitMinTurns;
}

// Whether the heuristic runs the split kernel in place of its pick: where split_pays, and the
// split's estimate (its rest kernel's, `rest_clocks`, times kSplitMainTurn: the cost model has no
// term for the clusters of four) is below the pick's. NOTES: at 16384^3 that takes the 128x256
// split over 256x192 c2x1, measured ahead for 16-bit and level for 8-bit, sustained; at 8192^3
// and 28672x4096x8192 8-bit, level (plugins/sm90a/NOTES.md, "The split launch").
constexpr bool prefer_split(double pick_clocks, double rest_clocks, int64_t m, int64_t n, const TileConfig& rest_cfg,
                            int sm_count) {
    return split_pays(m, n, rest_cfg, sm_count) && rest_clocks * kSplitMainTurn < pick_clocks;
}

// Among split kernels that pay (prefer_split), the one the heuristic runs: the tallest main
// clusters. `pays[i]` and `main_cm[i]` describe candidate i; -1 when none pays. NOTES
// (plugins/sm90a/NOTES.md, "Eight CTAs share B"): the 8x1 split ran ahead of the 4x1 split at most
// pairs of the three shapes measured and at 16384^3 sustained in every pair.
inline int tallest_paying_split(const std::vector<bool>& pays, const std::vector<int>& main_cm) {
    int best = -1;
    for (size_t i = 0; i < pays.size() && i < main_cm.size(); ++i)
        if (pays[i] && (best < 0 || main_cm[i] > main_cm[static_cast<size_t>(best)])) best = static_cast<int>(i);
    return best;
}

}  // namespace spmma_sm90a

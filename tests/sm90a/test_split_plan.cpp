// The split launch's plan (split_plan.hpp): which tiles the main grid (clusters of four) and the
// rest grid (clusters of two, on the SMs left over) compute, walked through the kernel's own tile
// order (tile_scheduler.hpp) as the two grids walk it.
#include <catch2/catch.hpp>

#include <spmma_sm90a/split_plan.hpp>
#include <spmma_sm90a/tile_scheduler.hpp>

#include <vector>

using namespace spmma_sm90a;

namespace {

constexpr TileConfig kMain{Family::B16, 128, 256, 4, 1, 5}, kRest{Family::B16, 128, 256, 2, 1, 5};

SplitGrids h200_grids(int tiles_m, int tiles_n) {
    const int ctm = (tiles_m + 3) / 4;
    return {tiles_m, tiles_n, 4, raster_group(kMain, ctm), 30, 2, 6, kSplitMainTurn};
}

// How often each CTA tile of D is computed by the two grids, each visiting its cluster tiles in
// the kernel's order (CTA tiles beyond D, of clusters that overhang it, are not counted).
std::vector<int> coverage(const SplitGrids& g, const SplitPlan& plan) {
    std::vector<int> n(static_cast<size_t>(g.tiles_m) * g.tiles_n, 0);
    auto walk = [&](const TileConfig& cfg, int tiles_m, int tiles_n, int m0, int n0, int64_t cluster_tiles) {
        KernelParams p{};
        p.tiles_m = tiles_m;
        p.tiles_n = tiles_n;
        p.raster_group = raster_group(cfg, (tiles_m + cfg.cm - 1) / cfg.cm);
        const TileScheduler s(p, cfg.cm, cfg.cn);
        for (int L = 0; L < cluster_tiles; ++L) {
            int tm = 0, tn = 0;
            s.cluster_tile(L, tm, tn);
            for (int c = 0; c < cfg.cm; ++c) {
                const int row = m0 + tm * cfg.cm + c, col = n0 + tn;
                if (row < m0 + tiles_m && row < g.tiles_m) ++n[static_cast<size_t>(row) * g.tiles_n + col];
            }
        }
    };
    walk(kMain, g.tiles_m, g.tiles_n, 0, 0, plan.main_cluster_tiles);
    if (plan.has_rest())
        walk(kRest, plan.rest_tiles_m, plan.rest_tiles_n, plan.rest_tile_m0, plan.rest_tile_n0, plan.rest_cluster_tiles);
    return n;
}

}  // namespace

TEST_CASE("split plan at 4096^3 (128x256 tiles): the rest grid takes the last band's last 2 columns, 4 turns instead of 5") {
    const SplitGrids g = h200_grids(32, 16);
    const SplitPlan p = plan_split(g);
    CHECK(p.main_cluster_tiles == 120);  // 128 cluster tiles of 4x1, 8 to the rest grid
    CHECK(p.rest_tile_m0 == 16);         // the last band: cluster rows 4-7 (bands of 4)
    CHECK(p.rest_tiles_m == 16);
    CHECK(p.rest_tile_n0 == 14);
    CHECK(p.rest_tiles_n == 2);
    CHECK(p.cost == Approx(4 * kSplitMainTurn));  // main: 120 over 30 clusters; rest: 16 over 6, 3 turns
    CHECK(plain_turns(32, 16, 2, 66) == 4.0);     // the 2x1 kernel alone: 256 cluster tiles over 66
}

TEST_CASE("split plan: every CTA tile of D is computed exactly once by the two grids") {
    for (const auto& [tiles_m, tiles_n] : {std::pair{32, 16}, {86, 16}, {64, 8}, {224, 16}, {64, 32}, {128, 64}, {1, 1},
                                          {3, 5}, {9, 7}, {8, 1}, {5, 40}, {130, 3}}) {
        const SplitGrids g = h200_grids(tiles_m, tiles_n);
        const SplitPlan p = plan_split(g);
        CAPTURE(tiles_m, tiles_n, p.main_cluster_tiles, p.rest_tile_m0, p.rest_tile_n0, p.rest_tiles_m, p.rest_tiles_n);
        for (const int n : coverage(g, p)) REQUIRE(n == 1);
        for (int cols = 0; cols <= tiles_n; ++cols)  // and every other column count the search weighed
            for (const int n : coverage(g, split_with(g, cols))) REQUIRE(n == 1);
    }
}

TEST_CASE("split plan: never costlier than the main grid alone, and no rest grid without SMs left over") {
    for (const auto& [tiles_m, tiles_n] : {std::pair{32, 16}, {86, 16}, {64, 8}, {224, 16}, {64, 32}, {128, 128}}) {
        const SplitGrids g = h200_grids(tiles_m, tiles_n);
        CHECK(plan_split(g).cost <= split_with(g, 0).cost);
        SplitGrids none = g;
        none.rest_clusters = 0;
        CHECK_FALSE(plan_split(none).has_rest());
        CHECK(plan_split(none).main_cluster_tiles == ((tiles_m + 3) / 4) * tiles_n);
    }
}

TEST_CASE("split kernel in place of 128x256 c2x1 on 132 SMs: at 8 turns and more, not at the 4-turn standard shapes") {
    CHECK(split_pays(11008, 4096, kRest, 132));   // 11 turns
    CHECK(split_pays(8192, 8192, kRest, 132));    // 16
    CHECK(split_pays(28672, 4096, kRest, 132));   // 28
    CHECK(split_pays(16384, 16384, kRest, 132));  // 42 (where 128x256 is the pick at all)
    CHECK_FALSE(split_pays(4096, 4096, kRest, 132));  // 4
    CHECK_FALSE(split_pays(8192, 2048, kRest, 132));  // 4
    CHECK_FALSE(split_pays(1000, 1000, kRest, 132));  // 1
    CHECK_FALSE(split_pays(8192, 8192, kRest, 1));    // no cluster of two fits
}

TEST_CASE("the heuristic runs the paying split kernel with the tallest main clusters (8x1 over 4x1)", "[split_plan]") {
    CHECK(tallest_paying_split({true, true}, {4, 8}) == 1);
    CHECK(tallest_paying_split({true, true}, {8, 4}) == 0);
    CHECK(tallest_paying_split({true, false}, {4, 8}) == 0);  // the taller one does not pay
    CHECK(tallest_paying_split({false, false}, {4, 8}) == -1);
    CHECK(tallest_paying_split({}, {}) == -1);
}

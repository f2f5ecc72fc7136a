// The tile grid a one-CTA-per-tile heuristic weighs: tile counts rounded up, the last wave's
// fill, and the share of the computed area inside m x n.
#include <spmma_plugin/tile_grid.hpp>

#include <catch2/catch.hpp>

using spmma_plugin::tile_grid;

TEST_CASE("tile_grid counts partial tiles, and weighs wave fill and padding waste", "[plugin_kit]") {
    const auto g = tile_grid(1000, 300, 128, 128);  // 8 x 3 tiles
    CHECK(g.tiles_m == 8);
    CHECK(g.tiles_n == 3);
    CHECK(g.tiles() == 24);
    CHECK(g.wave_fill(24) == 1.0);
    CHECK(g.wave_fill(16) == 24.0 / 32.0);  // two waves, the second half full
    CHECK(g.wave_fill(0) == 1.0);           // no SM count: one SM
    CHECK(g.used(1000, 300) == (1000.0 * 300.0) / (1024.0 * 384.0));
    CHECK(tile_grid(256, 256, 128, 128).used(256, 256) == 1.0);
}

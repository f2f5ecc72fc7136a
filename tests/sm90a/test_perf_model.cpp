// The sm90a heuristic's cost model (include/spmma_sm90a/perf_model.hpp): its traffic figures
// for known tiles, and the choices it leads to between the plugin's tile shapes.
#include <catch2/catch.hpp>

#include <spmma_sm90a/perf_model.hpp>
#include <spmma_sm90a/split_plan.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

using namespace spmma_sm90a;

namespace {

// The configurations of one type pair and accumulator, as the plugin's kernel lists give them.
std::vector<TileConfig> configs(const std::string& a, const std::string& acc) {
    std::vector<TileConfig> v;
    auto fam = [](const std::string& t) { return t[0] == 'e' || t[0] == 's' || t[0] == 'u' ? Family::B8 : t[0] == 't' ? Family::B32 : Family::B16; };
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S) \
    if (std::string(#A) == a && std::string(#B) == a && std::string(#ACC) == acc) v.push_back(TileConfig{fam(#A), BM, BN, CM, CN, S});
#include <spmma_sm90a/kernels/all.inc>
#undef SPMMA_SM90A_KERNEL
    return v;
}

std::vector<TileConfig> f16_configs() { return configs("f16", "f32"); }

// What the plugin's heuristic runs (src/selection.cpp) for D of out_bytes per element, with no C
// and rows of D TMA can store (tma_epilogue) unless told otherwise.
const TileConfig* chosen(const std::vector<TileConfig>& cs, int64_t m, int64_t n, int64_t k, int out_bytes = 2,
                         bool tma_epilogue = true, const MachineModel& mm = {}) {
    const int i = choose_config(cs, [&](const TileConfig& c) { return estimate(c, m, n, k, out_bytes, 132, tma_epilogue, mm); });
    return i < 0 ? nullptr : &cs[static_cast<size_t>(i)];
}

// The cost model of a device with this DRAM bandwidth (bytes/s) at a peak SM clock of 1.98 GHz,
// as the plugin derives it from the driver's attributes (selection.cpp, machine_model).
MachineModel with_dram(double bytes_per_s) {
    MachineModel mm;
    mm.dram_bytes_per_clk = bytes_per_s / 1.98e9;
    return mm;
}
const MachineModel kH100 = with_dram(3.35e12), kH200 = with_dram(4.8e12);

const TileConfig* cheapest(const std::vector<TileConfig>& cs, int64_t m, int64_t n, int64_t k) { return chosen(cs, m, n, k); }

std::string config_name(const TileConfig& c) {
    return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "_c" + std::to_string(c.cm) + "x" + std::to_string(c.cn);
}

}  // namespace

TEST_CASE("sm90a cost model: shared-memory bytes per peak clock of a 256x128 f16 tile are B 128 + A 32 + fill 68",
          "[sm90a][model]") {
    const TileConfig c{Family::B16, 256, 128, 1, 1, 6};
    // fill: (256 x 64 + 128 x 128 + 16 x 128) bytes per 256 x 128 / 64 clocks
    CHECK(smem_bytes_per_peak_clk(c) == Approx(128.0 + 32.0 + 34816.0 / 512.0));
    CHECK(l2_bytes_per_peak_clk(c) == Approx(34816.0 / 512.0));
    // B multicast over a 2x1 cluster halves the B share of L2 traffic, not shared memory's.
    const TileConfig c2{Family::B16, 256, 128, 2, 1, 6};
    CHECK(smem_bytes_per_peak_clk(c2) == Approx(smem_bytes_per_peak_clk(c)));
    CHECK(l2_bytes_per_peak_clk(c2) == Approx((16384.0 + 2048.0 + 8192.0) / 512.0));
}

TEST_CASE("sm90a cost model: efficiencies lie between 0 and 1 and time grows with k", "[sm90a][model]") {
    const auto cs = f16_configs();
    REQUIRE(cs.size() >= 8);
    for (const TileConfig& c : cs) {
        INFO(c.bm << "x" << c.bn << " c" << c.cm << "x" << c.cn);
        const double e = mainloop_efficiency(c);
        CHECK(e > 0.0);
        CHECK(e <= 1.0);
        CHECK(estimated_clocks(c, 4096, 4096, 8192, 2, 132, true) > estimated_clocks(c, 4096, 4096, 4096, 2, 132, true));
        CHECK(estimated_clocks(c, 4096, 4096, 4096, 2, 132, false) >= estimated_clocks(c, 4096, 4096, 4096, 2, 132, true));
    }
}

TEST_CASE("sm90a cost model: large square problems take one of the two largest tiles, small m*n a tile of at most 128x128",
          "[sm90a][model]") {
    const auto cs = f16_configs();
    const TileConfig* big = cheapest(cs, 16384, 16384, 16384);
    REQUIRE(big != nullptr);
    CHECK(big->bm * big->bn >= 128 * 256);
    // 1024 x 1024: 32 tiles of 128x256 would leave 100 of 132 SMs idle.
    const TileConfig* small = cheapest(cs, 1024, 1024, 8192);
    REQUIRE(small != nullptr);
    CHECK(small->bm * small->bn <= 128 * 128);
}

TEST_CASE("sm90a cost model: TMA's fill weighs 0.3 of a tensor-core read, and the epilogue buffers make D cheaper",
          "[sm90a][model]") {
    const MachineModel mm;
    const TileConfig t128x256{Family::B16, 128, 256, 2, 1, 5}, t256x192{Family::B16, 256, 192, 2, 1, 5};
    // reads 128 + 16 and 128 + 21.3; fill 41984 / 512 and 43008 / 768 bytes per peak clock
    CHECK(smem_read_bytes_per_peak_clk(t128x256) == Approx(144.0));
    CHECK(smem_fill_bytes_per_peak_clk(t256x192) == Approx(56.0));
    CHECK(mainloop_efficiency(t128x256, mm) == Approx(105.0 / (144.0 + 0.3 * 82.0)));
    // L2 does not decide: the 2x1 and 2x2 clusters of a tile estimate the same mainloop.
    CHECK(mainloop_efficiency(TileConfig{Family::B16, 128, 256, 2, 2, 5}, mm) == Approx(mainloop_efficiency(t128x256, mm)));
    // A kernel without epilogue buffers (8-bit 256x192 with 5 stages; the table's run 4 and have
    // them): the direct-store estimate either way.
    const TileConfig b8{Family::B8, 256, 192, 2, 1, 5};
    REQUIRE(!b8.tma_store());
    CHECK(estimated_clocks(b8, 8192, 8192, 8192, 2, 132, true) == Approx(estimated_clocks(b8, 8192, 8192, 8192, 2, 132, false)));
    CHECK(estimated_clocks(t128x256, 8192, 8192, 8192, 2, 132, true) < estimated_clocks(t128x256, 8192, 8192, 8192, 2, 132, false));
}

TEST_CASE("sm90a heuristic: on the standard shape set it picks the tile and cluster that the H200 A/B measured fastest",
          "[sm90a][model]") {
    // bench/NOTES.md, 2026-11-22 (H200, D through TMA stores): 128x256 with a 2x1
    // cluster ahead of or level with 256x192 at every shape and type, except f16/bf16 at 16384^3
    // where 256x192 is level or 3 % ahead (f16 1023 / 1024, bf16 1047 / 1083 TFLOP/s); 2x1
    // clusters ahead of 1x1 and 1x2 (H100 sweeps of 2026-11-22, bench/sm90a/tune.sh). Later that day (8-bit
    // 256x192 with 4 stages and epilogue buffers): 256x192 ahead for e4m3/s8 at 16384^3 (two
    // repetitions: e4m3 2221 / 2397 vs 128x256 2052 / 2099; s8 2301 / 2424 vs 2196 / 2115), and at
    // 8192^3 by 1.7-4 % (two bench/sm90a/ab.sh runs: 2314 vs 2258, 2406 vs 2366 e4m3; 2283
    // vs 2231, 2362 vs 2292 s8), where the model's 1.4 % falls inside the tie band. At 28672x4096x8192 the
    // two tiles estimate within 0.1 % and the tie goes to the wider epilogue rows: 16-bit
    // 128x256 (1135 vs 1118 f16, 1227 vs 1170 bf16), 8-bit 256x192 (e4m3 2331 vs 2230, s8 2296 vs
    // 2213).
    struct Case {
        int64_t m, n, k;
        std::string want16, want8;  // f16/bf16, e4m3/s8
    };
    const std::vector<Case> cases = {{4096, 4096, 4096, "128x256_c2x1", "128x256_c2x1"},
                                     {8192, 8192, 8192, "128x256_c2x1", "256x192_c2x1"},
                                     {16384, 16384, 16384, "256x192_c2x1", "256x192_c2x1"},
                                     {11008, 4096, 4096, "128x256_c2x1", "128x256_c2x1"},
                                     {28672, 4096, 8192, "128x256_c2x1", "256x192_c2x1"},
                                     {8192, 2048, 28672, "128x256_c2x1", "128x256_c2x1"}};
    // The same with the DRAM term of an H100 and an H200: these shapes are bound by the SMs.
    for (const MachineModel& mm : {MachineModel{}, kH100, kH200})
        for (const auto& [a, acc] : std::vector<std::pair<std::string, std::string>>{
                 {"f16", "f32"}, {"bf16", "f32"}, {"e4m3", "f32"}, {"s8", "s32"}}) {
            const auto cs = configs(a, acc);
            REQUIRE(cs.size() >= 10);
            for (const Case& c : cases) {
                const TileConfig* t = chosen(cs, c.m, c.n, c.k, acc == "s32" ? 4 : 2, true, mm);
                REQUIRE(t != nullptr);
                INFO(a << " " << c.m << "x" << c.n << "x" << c.k << " DRAM " << mm.dram_bytes_per_clk << " B/clk: chose "
                       << config_name(*t));
                CHECK(config_name(*t) == (a[0] == 'f' || a[0] == 'b' ? c.want16 : c.want8));
                CHECK_FALSE(stream_k_pays(*t, c.m, c.n, c.k, acc == "s32" ? 4 : 2, 132, true, mm));
            }
        }
}

TEST_CASE("sm90a cost model: DRAM bytes are compressed A with 4-bit metadata per group, B and D, k padded to stages",
          "[sm90a][model]") {
    // f16, 64 x 40 x 100: k pads to 128; A 64*64*2 + 64*128/8, B 40*128*2, D 40*64*2.
    CHECK(dram_bytes(TileConfig{Family::B16, 128, 16, 1, 1, 12}, 64, 40, 100, 2) == 64 * 64 * 2 + 64 * 128 / 8 + 40 * 128 * 2 + 64 * 40 * 2);
    // e4m3 (stage k 128), 256 x 1 x 256, s32 D: A 256*128 + 256*256/8, B 256, D 256*4.
    CHECK(dram_bytes(TileConfig{Family::B8, 128, 16, 1, 1, 12}, 256, 1, 256, 4) == 256 * 128 + 256 * 256 / 8 + 256 + 256 * 4);
}

TEST_CASE("sm90a heuristic: a weight times 1 to 128 tokens runs the decode tile no wider than the tokens, without a cluster below 128 columns or a turn of tiles",
          "[sm90a][model]") {
    // Llama-3 layers (out x in): the 70B down projection, the 8B gate+up, the 8B output
    // projection; m = out features, k = in features, n = tokens. The picks the H100 decode sweep
    // of 2026-11-27 measured fastest (plugins/sm90a/NOTES.md, "How many ranges a decode tile
    // takes"); on an H200 (not measured) the narrow tiles at up to 32 tokens.
    struct Shape {
        int64_t m, k;
    };
    const std::vector<Shape> layers = {{8192, 28672}, {28672, 4096}, {4096, 4096}};
    struct Want {
        int64_t n;
        std::string tile;
    };
    const std::vector<Want> wants = {{1, "128x16_c1x1"},  {8, "128x16_c1x1"},  {16, "128x16_c1x1"},
                                     {32, "128x32_c1x1"}, {64, "128x64_c1x1"}, {128, "128x128_c2x1"}};
    for (const MachineModel& mm : {kH100, kH200})
        for (const auto& [a, acc] : std::vector<std::pair<std::string, std::string>>{
                 {"f16", "f32"}, {"bf16", "f32"}, {"e4m3", "f32"}, {"s8", "s32"}}) {
            const auto cs = configs(a, acc);
            const int out_bytes = acc == "s32" ? 4 : 2;
            for (const Shape& l : layers)
                for (const Want& w : wants) {
                    // (128 tokens on the 19 MB layer: 128x64 ran ahead there, and 64 tokens: 64x64;
                    // both below)
                    if (w.n >= 64 && l.m * l.k < 64 * 1024 * 1024) continue;
                    if (mm.dram_bytes_per_clk == kH200.dram_bytes_per_clk && w.n > 32) continue;
                    const TileConfig* t = chosen(cs, l.m, w.n, l.k, out_bytes, false, mm);
                    REQUIRE(t != nullptr);
                    INFO(a << " " << l.m << "x" << w.n << "x" << l.k << " DRAM " << mm.dram_bytes_per_clk << " B/clk: chose "
                           << config_name(*t));
                    // (128 tokens on 8192x28672: its 64 tiles of 128x128 fill less than a turn,
                    // but its k is long, so with the 2x1 cluster; the test below)
                    CHECK(config_name(*t) == w.tile);
                }
        }
}

TEST_CASE("sm90a heuristic: 64x64 at 64 and 128 tokens where 128x64 tiles leave SMs idle, 128x64 on the large layers, "
          "no 64-row tile at half its width of tokens or fewer", "[sm90a][model]") {
    // bench/decode/splits.sh with the 64-row decode tiles, 2026-11-28 (H200; e4m3 us, best plan
    // of each tile): plugins/sm90a/NOTES.md, "A 64-row decode tile".
    struct Case {
        std::string type;
        int64_t m, n, k;
        std::string tile;
    };
    const std::vector<Case> cases = {
        {"e4m3", 4096, 64, 4096, "64x64_c1x1"},     // 10.8; 128x64 11.8
        {"e4m3", 6144, 64, 4096, "64x64_c1x1"},     // 11.4; 128x64 12.2
        {"f16", 6144, 64, 4096, "64x64_c1x1"},      // 14.7; 128x64 16.6
        {"e4m3", 7168, 64, 8192, "64x64_c1x1"},     // 16.3; 128x64 17.2
        {"e4m3", 1280, 128, 8192, "64x64_c1x1"},    // 12.0 in two; 128x32 13.3
        {"e4m3", 57344, 64, 8192, "128x64_c1x1"},   // 81.2; 64x64 84.8
        {"e4m3", 28672, 64, 4096, "128x64_c1x1"},   // 27.8; 64x64 28.0
        {"f16", 8192, 64, 28672, "128x64_c1x1"},    // 72.7 in two; 64x64 79.4
        {"e4m3", 6144, 16, 4096, "128x16_c1x1"},    // 11.4; 64x16 11.3, 64x64 14.4
        {"e4m3", 7168, 16, 8192, "128x16_c1x1"},    // 15.5; 64x16 16.8, 64x64 22.8
    };
    for (const Case& c : cases) {
        const std::string acc = c.type == "s8" ? "s32" : "f32";
        const TileConfig* t = chosen(configs(c.type, acc), c.m, c.n, c.k, 2, false, kH200);
        REQUIRE(t != nullptr);
        INFO(c.type << " " << c.m << "x" << c.n << "x" << c.k << ": chose " << config_name(*t));
        CHECK(config_name(*t) == c.tile);
    }
    // (with fewer tiles than clusters, the tiles whole or cut into ranges, never dealt over every
    // cluster: f16 1280x128x8192 on 64x64, 40 tiles, ran 15.7 us in two ranges, 18.5 over every
    // cluster)
    const TileConfig f16_64x64{Family::B16, 64, 64, 1, 1, 14};
    CHECK(stream_k_clusters(f16_64x64, 1280, 128, 8192, 2, 132, true, kH200) == 80);
    // (the model gives a 64-row decode tile no estimate with half its columns or more past the tokens)
    const TileConfig t64{Family::B8, 64, 64, 1, 1, 14};
    CHECK(!weighs(t64, 32));
    CHECK(weighs(t64, 33));
    CHECK(estimate(t64, 4096, 16, 4096, 2, 132, false, kH200).clocks == std::numeric_limits<double>::infinity());
}

TEST_CASE("sm90a heuristic: 64x64 whole tiles go before 128x64 in stream-K ranges over a short main loop, and a tile "
          "wider than the tokens loses the wider-rows tie", "[sm90a][model]") {
    // bench/decode/device.sh's kernels stage, 2026-11-29 06:39 (H200; us, each kernel by name,
    // L2 flushed): plugins/sm90a/NOTES.md, "Two consumers under a turn".
    struct Case {
        std::string type;
        int64_t m, n, k;
        std::string tile;
    };
    const std::vector<Case> cases = {
        {"f16", 4096, 128, 4096, "64x64_c1x1"},   // 14.18; 128x64 in two ranges 15.07
        {"e4m3", 4096, 128, 4096, "64x64_c1x1"},  // 10.85; 128x64 whole 11.33
        {"s8", 4096, 128, 4096, "64x64_c1x1"},    // 10.91; 128x64 whole 11.78
        {"f16", 8192, 64, 3584, "64x64_c1x1"},    // 14.37; 128x64 in two ranges 16.13
        {"e4m3", 8192, 64, 3584, "64x64_c1x1"},   // 10.82; 128x64 11.10
        {"s8", 8192, 64, 3584, "64x64_c1x1"},     // 10.85; 128x64 11.52
        {"s8", 6144, 32, 4096, "128x32_c1x1"},    // 10.85; 128x64 12.06
        // (a long main loop: 448 k-tiles, two consumers first; 2026-11-28, the test above)
        {"f16", 8192, 64, 28672, "128x64_c1x1"},
    };
    for (const Case& c : cases) {
        const bool s8 = c.type == "s8";
        const TileConfig* t = chosen(configs(c.type, s8 ? "s32" : "f32"), c.m, c.n, c.k, s8 ? 4 : 2, true, kH200);
        REQUIRE(t != nullptr);
        INFO(c.type << " " << c.m << "x" << c.n << "x" << c.k << ": chose " << config_name(*t));
        CHECK(config_name(*t) == c.tile);
    }
    // (the rules themselves: two consumers first only where they fill the clusters or run long)
    Estimate one{0, true, 1, 64 * 64, 0, 0.97, 64, 128}, two{0, true, 1, 128 * 64, 128, 0.48, 64, 128};
    CHECK_FALSE(two_consumers_first(one, two));
    two.k_tiles = one.k_tiles = kShortTileKTiles + 1;
    CHECK(two_consumers_first(one, two));
    two.k_tiles = one.k_tiles = 64;
    two.turns = kOneConsumerFillsSms;
    CHECK(two_consumers_first(one, two));
    one.turns = 0.85;
    two.turns = 0.42;
    CHECK_FALSE(two_consumers_first(one, two));
    const TileConfig t32{Family::B8, 128, 32, 1, 1, 12}, t64{Family::B8, 128, 64, 1, 1, 10};
    CHECK_FALSE(epilogue_rows_decide(t32, t64, 32));
    CHECK(epilogue_rows_decide(t32, t64, 64));
}

TEST_CASE("sm90a heuristic: decode tiles fewer than the clusters run whole or cut into the ranges the H100 measured fastest",
          "[sm90a][model]") {
    // bench/decode/splits.sh, 2026-11-27 (H100): each tile whole (s = 1) or cut into s ranges.
    struct Case {
        std::string type;
        int64_t m, n, k;
        std::string tile;
        int ranges;  // per tile; 0: the last turn split over every cluster (a turn or more of tiles)
    };
    const std::vector<Case> cases = {
        {"e4m3", 8192, 16, 8192, "128x16_c1x1", 1},    // 64 tiles: 20.9 us whole, 21.9 in two
        {"f16", 7168, 16, 8192, "128x16_c1x1", 1},     // 56 tiles: 29.3 whole, 29.8 in two
        {"e4m3", 4096, 16, 14336, "128x16_c1x1", 2},   // 32 tiles of 112 k-tiles: 21.9 whole, 20.2 in two
        {"e4m3", 1280, 16, 8192, "128x16_c1x1", 4},    // 10 tiles: 14.9 whole, 12.2 in two, 11.1 in four
        {"f16", 8192, 128, 28672, "128x128_c2x1", 2},  // 127.0 whole, 101.9 in two, 112.3 on every cluster
        {"e4m3", 57344, 16, 8192, "128x16_c1x1", 0},   // 448 tiles: 3.4 turns
    };
    for (const Case& c : cases) {
        const std::string acc = c.type == "s8" ? "s32" : "f32";
        const auto cs = configs(c.type, acc);
        const TileConfig* t = chosen(cs, c.m, c.n, c.k, 2, false, kH100);
        REQUIRE(t != nullptr);
        INFO(c.type << " " << c.m << "x" << c.n << "x" << c.k << ": chose " << config_name(*t));
        CHECK(config_name(*t) == c.tile);
        const int64_t tiles = ((c.m + t->bm - 1) / t->bm + t->cm - 1) / t->cm * ((c.n + t->bn - 1) / t->bn);
        const int g = stream_k_clusters(*t, c.m, c.n, c.k, 2, 132, false, kH100);
        CHECK(g == (c.ranges == 0 ? 132 / t->cluster_size() : c.ranges == 1 ? 0 : tiles * c.ranges));
        CHECK(estimate(*t, c.m, c.n, c.k, 2, 132, false, kH100).sk_clusters == g);
    }
}

TEST_CASE("sm90a heuristic: narrow decode tiles whose owners add their partials together cut few tiles into more ranges",
          "[sm90a][model]") {
    // bench/decode/ab_build.sh, 2026-11-28 (H200): with the flags read side by side and four
    // partials loaded together (add_partials), f16 1280x16x8192 on 128x16 ran 11.5 us in eight
    // ranges, 12.3 in four, 22.4 whole (the kernels before: 12.8 in four, the plan the model
    // chose while it counted a flag's and a load's round trip for every partial).
    const auto cs = configs("f16", "f32");
    const TileConfig* t = chosen(cs, 1280, 16, 8192, 2, false, kH200);
    REQUIRE(t != nullptr);
    CHECK(config_name(*t) == "128x16_c1x1");
    CHECK(stream_k_clusters(*t, 1280, 16, 8192, 2, 132, false, kH200) == 10 * 8);
}

TEST_CASE("sm90a heuristic: 128x128 at 128 tokens runs without a cluster under a turn of tiles of at most 160 k-tiles, in 2x1 with a turn or more or a longer main loop",
          "[sm90a][model]") {
    // bench/decode/device.sh's kernels stage, 2026-11-28 14:10 (H200; µs, 1x1 against 2x1):
    // plugins/sm90a/NOTES.md, "What holds the 128-token mid layers".
    struct Case {
        std::string type;
        int64_t m, k;
        std::string tile;
    };
    const std::vector<Case> cases = {
        {"f16", 8192, 3584, "128x128_c1x1"},   // 19.42 against 20.70
        {"f16", 7168, 8192, "128x128_c1x1"},   // 28.67 against 29.89
        {"e4m3", 8192, 3584, "128x128_c1x1"},  // 13.63 against 14.78
        {"e4m3", 7168, 8192, "128x128_c1x1"},  // 19.87 against 21.50
        {"f16", 57344, 8192, "128x128_c2x1"},  // 448 tiles, 3.4 turns: 2x1 5 % ahead (H100, 2026-11-27)
        // the long main loops under a turn (the decode set of 2026-11-28 14:25 against 13:07):
        {"f16", 8192, 28672, "128x128_c2x1"},   // 448 k-tiles: 1x1 6.1 % behind
        {"e4m3", 8192, 28672, "128x128_c2x1"},  // 224: 1x1 2.1 % behind
        {"f16", 4096, 14336, "128x128_c2x1"},   // 224: 1x1 1.8 % behind
        {"e4m3", 4096, 14336, "128x128_c1x1"},  // 112: 1x1 ahead
    };
    for (const Case& c : cases) {
        const TileConfig* t = chosen(configs(c.type, "f32"), c.m, 128, c.k, 2, false, kH200);
        REQUIRE(t != nullptr);
        INFO(c.type << " " << c.m << "x128x" << c.k << ": chose " << config_name(*t));
        CHECK(config_name(*t) == c.tile);
    }
}

TEST_CASE("sm90a heuristic: 64x128 whole tiles replace a 128-row pick at 128 tokens where they give half to all SMs a tile, up to the k measured",
          "[sm90a][model]") {
    // bench/NOTES.md, 2026-11-29, "64-row tiles at 128 tokens" (H200, µs, the pick against
    // 64x128 by name, two rounds).
    struct Case {
        std::string type;
        int64_t m, n, k;
        bool rows64;
    };
    const std::vector<Case> cases = {
        {"e4m3", 8192, 128, 8192, true},    // 19.66 -> 18.74
        {"s8", 6144, 128, 4096, true},      // 14.03 -> 12.16
        {"e4m3", 7168, 128, 8192, true},    // 18.50 -> 18.22
        {"f16", 8192, 128, 3584, true},     // 17.68 -> 16.77
        {"f16", 8192, 128, 1024, true},     // 10.06 -> 8.91
        {"f16", 8192, 128, 8192, false},    // 28.58, 64x128 30.51
        {"f16", 6144, 128, 4096, false},    // 16.62, 17.14
        {"f16", 7168, 128, 8192, false},    // 26.91, 29.58
        {"e4m3", 8192, 128, 28672, false},  // 224 k-tiles: not measured
        {"f16", 1280, 128, 8192, false},    // 20 tiles of 64 rows: 64x128 1.8x slower
        {"e4m3", 4096, 128, 4096, false},   // 64 tiles of 64 rows (under half the SMs): 1.1x slower
        {"e4m3", 8192, 64, 8192, false},    // 64 tokens: not this rule's
    };
    for (const Case& c : cases) {
        const std::vector<TileConfig> cs = configs(c.type, c.type == "s8" ? "s32" : "f32");
        const TileConfig* pick = chosen(cs, c.m, c.n, c.k, 2, true, kH200);
        REQUIRE(pick != nullptr);
        const TileConfig* run = pick;
        for (const TileConfig& t : cs)  // as Sm90aBackend::choose applies it
            if (prefer_64_row_tiles(*pick, t, c.m, c.n, c.k, 132)) {
                run = &t;
                break;
            }
        INFO(c.type << " " << c.m << "x" << c.n << "x" << c.k << ": pick " << config_name(*pick) << ", runs " << config_name(*run));
        CHECK((config_name(*run) == "64x128_c1x1") == c.rows64);
    }
    const TileConfig p128{Family::B8, 128, 128, 1, 1, 8}, r64{Family::B8, 64, 128, 1, 1, 6};
    CHECK(prefer_64_row_tiles(p128, r64, 64 * 66, 128, 8192, 132));       // half the SMs
    CHECK_FALSE(prefer_64_row_tiles(p128, r64, 64 * 65, 128, 8192, 132)); // under half
    CHECK(prefer_64_row_tiles(p128, r64, 64 * 132, 128, 8192, 132));      // every SM
    CHECK_FALSE(prefer_64_row_tiles(p128, r64, 64 * 133, 128, 8192, 132)); // a turn and more
    CHECK_FALSE(prefer_64_row_tiles(p128, r64, 8192, 128, 8193, 132));     // past 64 k-tiles
    CHECK_FALSE(prefer_64_row_tiles(TileConfig{Family::B8, 128, 128, 2, 1, 8}, r64, 8192, 128, 8192, 132));  // a cluster
}

TEST_CASE("sm90a search: the kernels within 1.5x of the fastest estimate beside the pick, at most six in all, none where the pick is not bound by DRAM",
          "[sm90a][model]") {
    Estimate dram{10, true, 1, 1, 0};
    Estimate tensor{10, false, 1, 1, 0};
    const std::vector<double> clocks = {10, 14, 16, 12, 15};
    CHECK(search_others(dram, clocks, 0) == std::vector<size_t>{3, 1, 4});  // 16 > 1.5 x 10
    CHECK(search_others(dram, clocks, std::nullopt) == std::vector<size_t>{0, 3, 1, 4});  // a split pick: not among them
    CHECK(search_others(tensor, clocks, 0).empty());
    const std::vector<double> many(9, 10.0);
    CHECK(search_others(dram, many, 2).size() == kSearchKernels - 1);
    CHECK(search_others(dram, {}, std::nullopt).empty());
}

TEST_CASE("sm90a heuristic: among estimates within 1.5 %, a 2x1 cluster beats 1x1, which beats 2x2 and 1x2",
          "[sm90a][model]") {
    const std::vector<TileConfig> cs = {TileConfig{Family::B16, 256, 192, 1, 2, 5}, TileConfig{Family::B16, 256, 192, 2, 2, 5},
                                        TileConfig{Family::B16, 256, 192, 1, 1, 5}, TileConfig{Family::B16, 256, 192, 2, 1, 5}};
    auto flat = [](const TileConfig&) { return 1000.0; };
    CHECK(choose_config(cs, flat) == 3);
    // Outside the 1 % band the estimate decides.
    auto one_faster = [](const TileConfig& c) { return c.cluster_size() == 1 ? 980.0 : 1000.0; };
    CHECK(choose_config(cs, one_faster) == 2);
    // The band's edge is 1.5 % (kEstimateTieBand): 1000 vs 986 (1.4 %) ties, 1000 vs 984 (1.6 %) does not.
    auto band_inside = [](const TileConfig& c) { return c.cluster_size() == 1 ? 986.0 : 1000.0; };
    auto band_outside = [](const TileConfig& c) { return c.cluster_size() == 1 ? 984.0 : 1000.0; };
    CHECK(choose_config(cs, band_inside) == 3);
    CHECK(choose_config(cs, band_outside) == 2);
    CHECK(choose_config(std::vector<TileConfig>{}, flat) == -1);
}

TEST_CASE("sm90a heuristic: among estimates within 1.5 % and the same cluster, wider epilogue rows win, then the smaller tile",
          "[sm90a][model]") {
    // 16-bit: 128x256 (128-byte rows) over 256x192 (64-byte rows); 8-bit: 256x192 with 4 stages
    // (128-byte rows) over 128x256 (64-byte rows); equal rows: the smaller tile.
    const TileConfig h128x256{Family::B16, 128, 256, 2, 1, 5}, h256x192{Family::B16, 256, 192, 2, 1, 5};
    const TileConfig b128x256{Family::B8, 128, 256, 2, 1, 5}, b256x192{Family::B8, 256, 192, 2, 1, 4};
    REQUIRE(h128x256.epi_row_bytes() == 128);
    REQUIRE(h256x192.epi_row_bytes() == 64);
    REQUIRE(b128x256.epi_row_bytes() == 64);
    REQUIRE(b256x192.epi_row_bytes() == 128);
    auto flat = [](const TileConfig&) { return 1000.0; };
    CHECK(choose_config(std::vector<TileConfig>{h256x192, h128x256}, flat) == 1);
    CHECK(choose_config(std::vector<TileConfig>{b128x256, b256x192}, flat) == 1);
    const TileConfig h256x128{Family::B16, 256, 128, 2, 1, 6};
    REQUIRE(h256x128.epi_row_bytes() == 128);
    CHECK(choose_config(std::vector<TileConfig>{h128x256, h256x128}, flat) == 0);  // equal area: the first listed
    const TileConfig h128x128{Family::B16, 128, 128, 2, 1, 8};
    CHECK(choose_config(std::vector<TileConfig>{h128x256, h128x128}, flat) == 1);
}

TEST_CASE("sm90a heuristic: the 128x256 split kernel replaces the pick at 8 turns and more, not at the 4-turn shapes",
          "[sm90a][model]") {
    // plugins/sm90a/NOTES.md, "The split launch" (H200, 2026-11-25): split against 128x256 c2x1
    // +1-3.5 % at 8192^3, 11008x4096x4096 and 28672x4096x8192; against 256x192 c2x1 at 16384^3
    // sustained +3-4 % f16, +0-3 % bf16, 8-bit level; at 8192^3 and 28672x4096x8192 8-bit level;
    // mixed at 4096^3 and 8192x2048x28672 (4 turns).
    struct Case {
        int64_t m, n, k;
        bool split;
    };
    const std::vector<Case> cases = {{4096, 4096, 4096, false},  {8192, 8192, 8192, true},    {16384, 16384, 16384, true},
                                     {11008, 4096, 4096, true},  {28672, 4096, 8192, true},   {8192, 2048, 28672, false}};
    for (const auto& [a, acc] : std::vector<std::pair<std::string, std::string>>{
             {"f16", "f32"}, {"bf16", "f32"}, {"e4m3", "f32"}, {"s8", "s32"}}) {
        const auto cs = configs(a, acc);
        const int out_bytes = acc == "s32" ? 4 : 2;
        const TileConfig rest{a[0] == 'f' || a[0] == 'b' ? Family::B16 : Family::B8, 128, 256, 2, 1, 5};
        for (const Case& c : cases) {
            const TileConfig* pick = chosen(cs, c.m, c.n, c.k, out_bytes);
            REQUIRE(pick != nullptr);
            const double pick_clocks = estimated_clocks(*pick, c.m, c.n, c.k, out_bytes, 132, true);
            const double rest_clocks = estimated_clocks(rest, c.m, c.n, c.k, out_bytes, 132, true);
            INFO(a << " " << c.m << "x" << c.n << "x" << c.k << ": pick " << config_name(*pick));
            CHECK(prefer_split(pick_clocks, rest_clocks, c.m, c.n, rest, 132) == c.split);
        }
    }
}

TEST_CASE("the fused epilogue: every tile with at most 160 accumulator registers fuses it, in the TMA stores too except the 16-bit family's one-m64-block 128-register consumers",
          "[epilogue]") {
    const auto regs = [](const TileConfig& c) { return c.acc_regs(false); };
    const TileConfig t256x192{Family::B16, 256, 192, 1, 1, 4}, t256x128{Family::B16, 256, 128, 1, 1, 6},
        t128x256{Family::B16, 128, 256, 1, 1, 5}, t128x128{Family::B16, 128, 128, 1, 1, 8},
        f8_128x256{Family::B8, 128, 256, 1, 1, 5};
    CHECK(regs(t256x192) == 192);
    CHECK_FALSE(t256x192.fuses_epilogue(regs(t256x192)));
    CHECK_FALSE(t256x192.fuses_epilogue_in_tma_stores(regs(t256x192)));
    CHECK(regs(t256x128) == 128);  // two m64 blocks of 64
    CHECK(t256x128.fuses_epilogue(regs(t256x128)));
    CHECK(t256x128.fuses_epilogue_in_tma_stores(regs(t256x128)));
    CHECK(regs(t128x256) == 128);  // one m64 block of 128
    CHECK(t128x256.fuses_epilogue(regs(t128x256)));
    CHECK_FALSE(t128x256.fuses_epilogue_in_tma_stores(regs(t128x256)));
    CHECK(f8_128x256.fuses_epilogue_in_tma_stores(regs(f8_128x256)));
    CHECK(t128x128.fuses_epilogue_in_tma_stores(regs(t128x128)));
    CHECK(t256x192.acc_regs(true) == 96);  // f16 accumulators
    CHECK(t256x192.fuses_epilogue(t256x192.acc_regs(true)));
    CHECK(t256x192.fuses_epilogue_in_tma_stores(t256x192.acc_regs(true)));
}

namespace {
// The heuristic's pick on the H200 for a weight of m x k (type) times 16 tokens, checked to be
// the decode tile 128x16 without a cluster (what the whole-tile rules' cases run on).
TileConfig decode_pick_128x16(const std::string& type, int64_t m, int64_t k) {
    const auto cs = configs(type, type == "s8" ? "s32" : "f32");
    const TileConfig* t = chosen(cs, m, 16, k, 2, true, kH200);
    REQUIRE(t != nullptr);
    INFO(type << " " << m << "x16x" << k << ": chose " << config_name(*t));
    CHECK(config_name(*t) == "128x16_c1x1");
    return *t;
}
}  // namespace

TEST_CASE("sm90a heuristic: past two turns a main loop of at most 32 k-tiles runs whole where the last turn's tiles alone pull what DRAM gives",
          "[sm90a][model]") {
    // plugins/sm90a/NOTES.md, "Whole tiles where the last turn alone pulls what DRAM gives" (H200,
    // 2026-11-29: 8-bit tiles of 32 k-tiles up to 8 % ahead whole from 60 tiles in the last turn,
    // level at 40; 16-bit tiles of 64 k-tiles behind at 40-60). Past two turns (kBalancedWholeTurns)
    // the rule alone decides: 352 tiles of 128 rows leave 88 to the last turn, 320 leave 56.
    struct Case {
        std::string type;
        int64_t m, k;
        bool whole;
    };
    const std::vector<Case> cases = {
        {"e4m3", 45056, 4096, true},   // 88 x 37 B a clock over DRAM's 0.9 x 2424
        {"s8", 45056, 4096, true},
        {"e4m3", 40960, 4096, false},  // 56 x 37 short of it
        {"f16", 45056, 4096, false},   // 64 k-tiles
        {"e4m3", 57344, 8192, false},  // 448 tiles, 52 in the last turn, 64 k-tiles: 74.4 / 74.5 split, 75.6 / 76.4 whole
    };
    for (const Case& c : cases) {
        const TileConfig t = decode_pick_128x16(c.type, c.m, c.k);
        const int g = stream_k_clusters(t, c.m, 16, c.k, 2, 132, true, kH200);
        CHECK(g == (c.whole ? 0 : 132));
        CHECK(estimate(t, c.m, 16, c.k, 2, 132, true, kH200).sk_clusters == g);
    }
}

TEST_CASE("sm90a heuristic: where DRAM bounds the launch tiles narrower than 128 columns of at most two turns run whole with as many on every cluster",
          "[sm90a][model]") {
    // plugins/sm90a/NOTES.md, "The same number of whole tiles on every cluster" (H200, 2026-11-30,
    // us at 16 tokens, three rounds: the split last turn or whole tiles on 132 SMs / whole on 112).
    struct Case {
        std::string type;
        int64_t m, k;
        int clusters;  // balanced_clusters of the 128x16 tiles on 132
    };
    const std::vector<Case> cases = {
        {"f16", 28672, 4096, 112},   // 224 tiles: 37.0-37.1 split / 36.5-36.7
        {"e4m3", 28672, 4096, 112},  // 22.7-23.4 whole on 132 / 22.8-22.9
        {"s8", 28672, 4096, 112},    // 22.7-23.6 / 22.9-23.0
        {"f16", 24576, 4096, 96},    // 192 tiles
        {"e4m3", 22016, 4096, 86},   // 172 tiles
    };
    for (const Case& c : cases) {
        const TileConfig t = decode_pick_128x16(c.type, c.m, c.k);
        CHECK(stream_k_pays(t, c.m, 16, c.k, 2, 132, true, kH200));
        CHECK(stream_k_clusters(t, c.m, 16, c.k, 2, 132, true, kH200) == 0);
        CHECK(balanced_clusters((c.m + 127) / 128, 132) == c.clusters);
    }
    // 128 tokens: f16 28672x128x4096 keeps 256x128 c2x1 (one turn, 40.1 us), which 128x128 c2x1
    // whole over two turns displaced (43.1 us) when the rule held for it.
    const auto f16 = configs("f16", "f32");
    const TileConfig* wide = chosen(f16, 28672, 128, 4096, 2, true, kH200);
    REQUIRE(wide != nullptr);
    CHECK(config_name(*wide) == "256x128_c2x1");
    // The arithmetic: tiles in as few turns as all clusters take, the same number on each.
    CHECK(balanced_clusters(224, 132) == 112);
    CHECK(balanced_clusters(448, 132) == 112);
    CHECK(balanced_clusters(133, 132) == 67);
    CHECK(balanced_clusters(264, 132) == 132);
    CHECK(balanced_clusters(100, 132) == 132);  // under a turn: every resident cluster (plan_work takes the tiles)
    // (The standard set keeps every resident cluster: none of its picks is bound by DRAM, which
    // the standard-set case above checks with stream_k_pays, whole_tile_clusters' condition.)
}

TEST_CASE("sm90a heuristic: tiles fewer than half the clusters run in two ranges over a main loop of 448 k-tiles or more",
          "[sm90a][model]") {
    // plugins/sm90a/NOTES.md, "Two ranges over the longest main loops" (H200, 2026-11-30,
    // bench/decode/splits.sh, us whole / two ranges, two rounds).
    struct Case {
        std::string type;
        int64_t m, n, k;
        bool two_ranges;
    };
    const std::vector<Case> cases = {
        {"f16", 8192, 1, 28672, true},    // 448 k-tiles: 66.8 / 65.0
        {"f16", 8192, 16, 28672, true},   // 67.1 / 65.2-65.4
        {"f16", 8192, 32, 28672, true},   // 128x32: 69.9 / 66.7-66.9
        {"e4m3", 8192, 16, 28672, false}, // 224 k-tiles: 39.1-39.2 / 39.2-39.5
        {"f16", 8192, 16, 8192, false},   // 128 k-tiles: 23.6 / 23.6
        {"e4m3", 8192, 1, 8192, false},   // 64 k-tiles: 15.5-15.7 / 16.0
    };
    for (const Case& c : cases) {
        const auto cs = configs(c.type, "f32");
        const TileConfig* t = chosen(cs, c.m, c.n, c.k, 2, true, kH200);
        REQUIRE(t != nullptr);
        INFO(c.type << " " << c.m << "x" << c.n << "x" << c.k << ": chose " << config_name(*t));
        CHECK(t->bm == 128);
        CHECK(t->bn == (c.n <= 16 ? 16 : 32));
        const int g = stream_k_clusters(*t, c.m, c.n, c.k, 2, 132, true, kH200);
        CHECK(g == (c.two_ranges ? 2 * 64 : 0));
        CHECK(estimate(*t, c.m, c.n, c.k, 2, 132, true, kH200).sk_clusters == g);
    }
}

TEST_CASE("sm90a heuristic: tiles of at most 32 columns on a quarter of the clusters or fewer run in two ranges where the model keeps them whole",
          "[sm90a][model]") {
    // bench/NOTES.md, 2026-11-30, "128x32 in ranges on the small layers" (H200, bench/decode/splits.sh,
    // us whole / two ranges / four, two rounds).
    struct Case {
        std::string type;
        int64_t m, k;
        int clusters;  // stream_k_clusters of the 128x32 pick at 32 tokens
    };
    const std::vector<Case> cases = {
        {"e4m3", 4096, 4096, 64},   // 32 tiles: 10.7-10.8 / 9.8 / 10.4-10.8
        {"s8", 4096, 4096, 64},     // 10.5-10.6 / 9.7-9.9 / 10.3-10.4
        {"e4m3", 6144, 4096, 0},    // 48 tiles: 10.9 / 11.1-11.2 / 12.2-12.4
        {"s8", 6144, 4096, 0},      // 10.7-11.1 / 10.9-11.0 / 12.1-12.3
        {"f16", 4096, 4096, 128},   // the model's four ranges: 14.8-15.0 / 12.3-12.4 / 12.3-12.4
        {"e4m3", 4096, 14336, 128}, // the model's four ranges: 22.0-22.2 / 15.8-15.9 / 16.4
    };
    for (const Case& c : cases) {
        const auto cs = configs(c.type, c.type == "s8" ? "s32" : "f32");
        const TileConfig* t = chosen(cs, c.m, 32, c.k, 2, true, kH200);
        REQUIRE(t != nullptr);
        INFO(c.type << " " << c.m << "x32x" << c.k << ": chose " << config_name(*t));
        // (the rule's ranges keep whole tiles' estimate: with the model's own for them 128x64 in
        // a cluster of two took 4096x32x4096)
        CHECK(config_name(*t) == "128x32_c1x1");
        const Estimate e = estimate(*t, c.m, 32, c.k, 2, 132, true, kH200);
        CHECK(e.sk_clusters == c.clusters);
        CHECK(stream_k_clusters(*t, c.m, 32, c.k, 2, 132, true, kH200) == c.clusters);
    }
}

// The cost model behind the sm90a heuristic (src/selection.cpp): how long a kernel
// configuration takes on a problem, in SM clocks, from the bytes its tiles move per flop. Pure
// C++ so that tests/sm90a can check its choices without a GPU.
//
// NOTES (plugins/sm90a/NOTES.md, "machine model"): a sparse wgmma m64nNk reads its whole B
// operand (N rows x 64 B) and 64 rows x 32 B of compressed A from shared memory, so at the sparse
// peak the tensor cores alone read 128 + 4096/N bytes of shared memory per clock; TMA writes
// each stage's A, B and metadata on top. Shared memory serves a bounded number of bytes per
// clock, so a tile runs at min(1, smem_bytes_per_clk / bytes it needs per peak clock) of the
// peak, and likewise for what L2 delivers to the SM (which multicast divides). Tiles are
// dealt to the persistent CTAs in turns; the last turn is as long as any.
#pragma once

#include <spmma_sm90a/tile_config.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

namespace spmma_sm90a {

// NOTES: fill_weight and l2_bytes_per_clk are fitted to measurements, not derived
// (plugins/sm90a/NOTES.md, "v4": the heuristic refitted): with D through TMA stores, 128x256 and
// 256x192 ran level at 8192^3 and 16384^3 (f16/bf16) although the first takes 46 % more TMA fill
// per flop, so TMA's writes cost shared memory far less than the tensor cores' reads (at 0.3 of
// a read the model puts the two tiles level but for their turns, and picks the tiles measured
// fastest on the standard set); and 2x2 clusters never beat 2x1 while Nsight Compute showed L2
// far from saturated ("v2"), so L2 is not the limit (64 B/clk keeps the term from deciding
// between clusters).
struct MachineModel {
    double smem_bytes_per_clk = 105;  // what shared memory serves the tensor cores' reads (+ weighted fill)
    double fill_weight = 0.3;         // a byte TMA writes into shared memory, in units of a read byte
    double l2_bytes_per_clk = 64;     // what L2 delivers to one SM when every SM pulls
    double epilogue_bytes_per_clk = 32;  // D (and C) per SM when the warps store it directly
    double epilogue_smem_bytes_per_clk = 128;  // D per SM into the epilogue buffers (TMA stores it)
    double tile_overhead_clk = 600;   // per tile: barrier round trips, scheduler, pipeline drain
    // The device's DRAM bytes per SM clock, all SMs together (0: no DRAM term), and the share of it
    // a stream of TMA loads reaches. NOTES.md, "Decode": a weight times a few tokens streams A
    // from DRAM, and that, not shared memory, bounds the launch.
    double dram_bytes_per_clk = 0;
    double dram_efficiency = 0.9;
    // NOTES: fitted to the decode measurements (plugins/sm90a/NOTES.md, "How many ranges a decode
    // tile takes"): what one SM streams from DRAM of the A rows and metadata only it reads (about
    // 73 GB/s at 1.98 GHz, and alike with 6 to 20 stages); what a stream-K launch costs once
    // (flags, the owners' first wait) and for each further partial an owner adds in turn (a flag's
    // acquire, then the load; fitted before the narrow tiles' owners waited for all their flags
    // at once and loaded their partials in groups: perf_model.cpp, partial_round_trips_clk); and
    // the rate at which a consumer stores or loads a partial (128 threads, 16 bytes each, through
    // L2).
    double sm_stream_bytes_per_clk = 37;
    double stream_k_clk = 2500;
    double stream_k_partial_clk = 660;
    double partial_bytes_per_clk = 16;
    // NOTES: a tile of one consumer warpgroup (64 rows) leaves the tensor cores idle while that
    // consumer waits for its own wgmma group: fitted at 0.6 of the peak on the standard set's
    // tiles, and at 0.8 on the decode tiles (bn <= 64), whose short groups wait less
    // (plugins/sm90a/NOTES.md, "A 64-row decode tile": the H200 sweep of 2026-11-28).
    double one_consumer_efficiency = 0.6;
    double one_consumer_decode_efficiency = 0.8;
};

// Whether the model weighs configuration c for n columns of D at all: not a 64-row decode tile
// with half its columns or more past the tokens. NOTES: 64x64 at 1 and 16 tokens ran 1.2-1.5x
// behind 128x16 on every layer measured (plugins/sm90a/NOTES.md, "A 64-row decode tile"): TMA
// fills the B rows past the tokens with zeros and the tensor cores multiply them, which the model
// counts for neither tile.
inline bool weighs(const TileConfig& c, int64_t n) { return !(c.bm == 64 && c.bn <= 64 && 2 * n <= c.bn); }

// Bytes a launch moves through DRAM at least: compressed A and its metadata (4 bits per group of
// four), B and D, once each (A padded along k to whole stages, as the kernels read it).
double dram_bytes(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes);

// Whether a launch deals k-ranges to every cluster (stream-K, stream_k.hpp) rather than whole tiles:
// where DRAM bounds it even with every SM busy (decode: a weight times a few tokens, where every
// SM must pull its share of A and none may idle in the last turn). NOTES.md, "Stream-K with ranges
// in step": where the SMs bound the launch, the partials cost more than the idle share won back.
bool stream_k_pays(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count,
                   bool tma_epilogue, const MachineModel& mm = {});

// The clusters a launch deals stream-K ranges to, or 0 for whole tiles: where stream-K pays
// (stream_k_pays), with a turn of tiles or more every cluster (the last turn's tiles split over
// all of them) unless tiles narrower than 128 columns take at most kBalancedWholeTurns turns,
// or a tile's main loop is at most kWholeLastTurnKTiles long and the last turn's tiles alone pull
// what DRAM gives (each SM sm_stream_bytes_per_clk): whole tiles (on balanced_clusters,
// whole_tile_clusters), and
// where the tiles are fewer than the clusters the least estimate of whole tiles and of every
// tile cut into s equal ranges on s x tiles clusters (s = 2, 3, ... dividing the tile's k-tiles),
// two ranges where that keeps whole tiles over a main loop of kTwoRangesKTiles or more, or
// tiles of at most kFewNarrowTilesBn columns fill at most a quarter of the clusters.
// NOTES.md, "How many ranges a decode tile takes": a range's SM streams its A at
// sm_stream_bytes_per_clk, so few tiles need more ranges than one, but each range more is a
// partial its owner adds in turn, so where the SMs that whole tiles occupy already pull what DRAM
// gives, whole tiles are fastest.
int stream_k_clusters(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count,
                      bool tma_epilogue, const MachineModel& mm = {});

// NOTES (plugins/sm90a/NOTES.md, "Whole tiles where the last turn alone pulls what DRAM gives"):
// on the H200 at k = 4096 and 1-64 tokens, 8-bit tiles (32 k-tiles) ran up to 8 % ahead whole
// from 60 tiles in the last turn on (one of those sixteen cells 2 % behind), level at 40; 16-bit
// tiles (64 k-tiles) within 4 % either way at 76-110 and 1-10 % behind at 40-60; 57344x8192 (64
// k-tiles and more) 2-6 % behind.
// Where the split's fixed cost (the exchange, the owners' waits) weighs more than what a last
// turn of whole tiles loses, a short main loop, whole tiles go first.
constexpr int64_t kWholeLastTurnKTiles = 32;

// The most turns of whole tiles narrower than 128 columns on a balanced grid (balanced_clusters)
// that run whole rather than with the last turn split (stream_k_clusters), where DRAM bounds the
// launch. NOTES (plugins/sm90a/NOTES.md, "The same number of whole tiles on every cluster"): on
// the H200 at 28672x4096 (224 tiles of 128 rows, two turns on 112 SMs) f16 ran 1-3 % ahead of the
// split last turn on 132, the 8-bit types at whole tiles' fast level in every round; 57344x8192
// (448 tiles, four turns on 112) ran up to 2.4 % behind the split. At 128 tokens the rule let f16
// 128x128 c2x1 (two turns) displace 256x128 c2x1 (one turn), 7 % slower: the 128-column tiles
// keep the split in the estimate.
constexpr int64_t kBalancedWholeTurns = 2;

// The clusters, of `clusters` resident, that give each the same number of `cluster_tiles` whole
// tiles in as few turns as all of them take: ceil(tiles / ceil(tiles / clusters)). NOTES
// (plugins/sm90a/NOTES.md, "The same number of whole tiles on every cluster"): with a last turn
// short of the clusters, the launch ends with the slowest of the SMs that run one tile more; on a
// balanced grid DRAM-bound whole tiles ran at the fast level of the two they showed from process
// to process (e4m3 28672x16x4096 22.4 and 24.2 us, H200).
constexpr int balanced_clusters(int64_t cluster_tiles, int clusters) {
    if (cluster_tiles <= 0 || clusters <= 0 || cluster_tiles <= clusters) return clusters;
    const int64_t turns = (cluster_tiles + clusters - 1) / clusters;
    return static_cast<int>((cluster_tiles + turns - 1) / turns);
}

// The shortest main loop (k-tiles a tile) at which tiles fewer than half the clusters run in two
// ranges rather than whole (stream_k_clusters). NOTES (plugins/sm90a/NOTES.md, "Two ranges over
// the longest main loops"): on the H200 at 8192 rows (64 tiles) two ranges ran 2.4-4.6 % ahead
// over 448 k-tiles (f16, k = 28672), level over 224 (e4m3 there) and 0-7 % behind over 64-128
// (k = 8192). The model has 64 SMs pulling what DRAM gives; measured, they read about 9 % short
// of it (f16 8192x1x28672 3.97 TB/s, 57344x1x8192 on 132 SMs 4.37, the 2026-11-29 22:38 set).
constexpr int64_t kTwoRangesKTiles = 448;

// The widest tiles (columns) that run in two ranges rather than whole where they fill at most a
// quarter of the clusters and the model keeps them whole (stream_k_clusters). NOTES (bench/NOTES.md,
// 2026-11-30, "128x32 in ranges on the small layers"): on the H200 at 32 tokens 8-bit 128x32
// over 32 k-tiles ran 8-9 % ahead in two ranges at 4096 rows (32 tiles on 132 SMs), where the
// model, which charges the split more than its exchange in a cluster of two costs, kept them
// whole; at 6144 rows (48 tiles) whole tiles stayed 1-3 % ahead.
constexpr int kFewNarrowTilesBn = 32;

// Bytes per clock at the sparse peak, per SM (dense-equivalent rate: 2 m n k flops take
// bm bn bk / 64 clocks per k-tile for every family): what the tensor cores read from shared
// memory, what TMA writes into it (the fill), their sum, and what L2 delivers.
double smem_read_bytes_per_peak_clk(const TileConfig& c);
double smem_fill_bytes_per_peak_clk(const TileConfig& c);
double smem_bytes_per_peak_clk(const TileConfig& c);
double l2_bytes_per_peak_clk(const TileConfig& c);

// Fraction of the sparse peak the mainloop of configuration c can reach (0..1].
double mainloop_efficiency(const TileConfig& c, const MachineModel& mm = {});

// Estimated clocks for D (m x n, out_bytes per element) = A (m x k) B (k x n) on sm_count SMs;
// tma_epilogue: the problem lets D leave through TMA stores (no C, rows of D whole 16-byte
// units), which configurations with epilogue buffers (TileConfig::tma_store) then do.
double estimated_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count,
                        bool tma_epilogue, const MachineModel& mm = {});

// What choose_config weighs: the estimate, whether DRAM bounds it (the SMs' part, turns of main
// loop, epilogue and overhead with the stream-K choice of stream_k_pays, is below the DRAM term),
// and for such launches the tile's columns of D (ceil(n / bn): each reads A again) and its area;
// an infinite estimate where the model does not weigh the configuration (weighs).
struct Estimate {
    double clocks;
    bool dram_bound;
    int64_t n_tiles, area;
    int sk_clusters;  // stream_k_clusters: 0 for whole tiles
    double turns = 0;  // cluster tiles per cluster the SMs hold
    int64_t k_tiles = 0;  // the main loop's k-tiles per tile
    int64_t n = 0;  // D's columns (the tokens of a decode launch); 0 where only clocks were given
};
Estimate estimate(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                  const MachineModel& mm = {});

// Rank of a configuration's cluster shape among estimates that tie (lower first): 2x1, 1x1, 2x2,
// then the rest (1x2, 4x1, 8x1). NOTES: the model sees no effect of a cluster (shared memory, not
// L2, limits it), but the cluster sweeps put 2x1 (B multicast) ahead of 1x1 on every large tile,
// and 2x2 and 1x2 level with or behind it (plugins/sm90a/NOTES.md, "v2" and "v3"). Clusters of
// four or eight run on 120 of the H200's 132 SMs (30 of four or 15 of eight fit), which the model,
// counting every SM, does not see: alone they ran behind 2x1 ("Four CTAs share B"); both run
// inside the split kernels (split_plan.hpp). The decode tiles (bn < 128) rank 1x1 first: 128x64
// without a cluster ran ahead of its 2x1 form at every decode cell (NOTES.md, "How many ranges a
// decode tile takes"). So does 128x128 where its tiles fill less than a turn (e, the estimate of
// c) and its main loop is at most kShortTileKTiles long: at 128 tokens on the 48-64-tile layers
// it ran 4-13 % ahead of its 2x1 form on the H200, except at k = 28672 (16-bit: 448 k-tiles,
// 8-bit: 224) and 16-bit k = 14336 (224), where it ran 1-6 % behind ("What holds the 128-token
// mid layers"); with a turn of tiles or more the 2x1 rank stays.
constexpr int64_t kShortTileKTiles = 160;
int cluster_tie_rank(const TileConfig& c, const Estimate& e);

// Estimates within this factor of the fastest tie (choose_config). NOTES (plugins/sm90a/NOTES.md,
// "Heuristic tie band 1.5 %"): wide enough that 8-bit 256x192 at 8192^3, estimated 1.4 % behind
// 128x256 but measured ahead of it, ties, and the tie rules below then pick it by its wider
// epilogue rows; narrow enough that 16-bit 128x256 at 16384^3, estimated 1.6 % behind 256x192
// and measured level or behind, stays outside.
constexpr double kEstimateTieBand = 1.015;

// The share of the clusters (cluster tiles per cluster) from which, among DRAM-bound estimates
// within the tie band, the tile with two consumer warpgroups goes first (choose_config).
constexpr double kOneConsumerFillsSms = 0.9;

// Between two estimates within the tie band, at least one bound by DRAM, whose tiles differ in
// consumer warpgroups: whether the one with two goes first. Where the one-consumer tiles fill
// kOneConsumerFillsSms of the clusters, and the two-consumer tiles fill them too or run a main
// loop longer than kShortTileKTiles. NOTES (plugins/sm90a/NOTES.md, "Two consumers under a
// turn"): with fewer two-consumer tiles than clusters they run in stream-K ranges, and over a
// short main loop the partials' fixed cost, which the model hides under the DRAM term, let 64x64
// whole tiles run ahead (8192x64x3584, 4096x128x4096); over a long one (8192x64x28672) 128x64
// in two ranges ran ahead.
inline bool two_consumers_first(const Estimate& one, const Estimate& two) {
    if (std::max(one.turns, two.turns) < kOneConsumerFillsSms) return false;
    return two.turns >= kOneConsumerFillsSms || two.k_tiles > kShortTileKTiles;
}

// Whether the tie rule of wider epilogue rows parts two tiles: only where both tiles' columns lie
// within D's. NOTES (plugins/sm90a/NOTES.md, "Two consumers under a turn"): a tile wider than
// the tokens multiplies zero-filled B columns and stores nothing in its wider rows (s8
// 6144x32x4096: 128x32 ran ahead of 128x64).
inline bool epilogue_rows_decide(const TileConfig& a, const TileConfig& b, int64_t n) { return a.bn <= n && b.bn <= n; }

// Between two configurations estimated within kEstimateTieBand of the fastest, at least one bound
// by DRAM: -1 when ci goes first, 1 when cb does, 0 when this rule does not part them. The fewer
// columns of tiles (each reads A again), then the one bound by DRAM (its SMs have time to spare),
// then the smaller tile (NOTES.md, "Decode": at 128 tokens 128x128 ran ahead of 256x128, whose SM
// time the model puts lower).
inline int memory_bound_order(const Estimate& ei, const Estimate& eb) {
    if (ei.n_tiles != eb.n_tiles) return ei.n_tiles < eb.n_tiles ? -1 : 1;
    if (ei.dram_bound != eb.dram_bound) return ei.dram_bound ? -1 : 1;
    if (ei.area != eb.area) return ei.area < eb.area ? -1 : 1;
    return 0;
}

// Index of the configuration to run: among those estimated within kEstimateTieBand of the fastest,
// where either is bound by DRAM the one with more consumer warpgroups (where two_consumers_first
// says so), then memory_bound_order; else (or where it does not part them) the best
// cluster_tie_rank, then the wider epilogue buffer rows where epilogue_rows_decide (fewer, larger
// tma stores per byte of D: where 128x256 and 256x192 estimate level, the tile with 128-byte rows
// measured ahead of the one with 64-byte rows, for 16-bit and 8-bit alike), then the smaller
// tile (within the model's error it wastes less on partial tiles and turns, and measured ahead),
// then the least estimate, then the first listed (plugins/sm90a/NOTES.md, "Heuristic tie band
// 1.5 %"). -1 when cs is empty.
// `estimate_of` returns an Estimate, or only the clocks (a double: never bound by DRAM).
template <class Configs, class EstimateOf>
int choose_config(const Configs& cs, EstimateOf&& estimate_of) {
    const int count = static_cast<int>(cs.size());
    std::vector<Estimate> e(static_cast<size_t>(count));
    std::vector<double> t(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        if constexpr (std::is_same_v<std::decay_t<decltype(estimate_of(cs[i]))>, Estimate>) {
            e[i] = estimate_of(cs[i]);
        } else {
            e[i] = Estimate{estimate_of(cs[i]), false, 0, 0, 0};
        }
        t[i] = e[i].clocks;
    }
    if (count == 0) return -1;
    const double least = *std::min_element(t.begin(), t.end());
    int best = -1;
    for (int i = 0; i < count; ++i) {
        if (t[i] > least * kEstimateTieBand) continue;
        if (best < 0) {
            best = i;
            continue;
        }
        const int ri = cluster_tie_rank(cs[i], e[i]), rb = cluster_tie_rank(cs[best], e[best]);
        const int wi = cs[i].epi_row_bytes(), wb = cs[best].epi_row_bytes();
        const int ai = cs[i].bm * cs[i].bn, ab = cs[best].bm * cs[best].bn;
        const Estimate &ei = e[i], &eb = e[best];
        if (ei.dram_bound || eb.dram_bound) {
            // (two_consumers_first: fitted to the H200 sweeps; NOTES.md, "A 64-row decode tile"
            // and "Two consumers under a turn")
            if (cs[i].consumers() != cs[best].consumers()) {
                const bool i_two = cs[i].consumers() > cs[best].consumers();
                if (two_consumers_first(i_two ? eb : ei, i_two ? ei : eb)) {
                    if (i_two) best = i;
                    continue;
                }
            }
            if (const int order = memory_bound_order(ei, eb); order != 0) {
                if (order < 0) best = i;
                continue;
            }
        }
        if (ri != rb) {
            if (ri < rb) best = i;
        } else if (wi != wb && (ei.n == 0 || epilogue_rows_decide(cs[i], cs[best], ei.n))) {
            if (wi > wb) best = i;
        } else if (ai < ab || (ai == ab && t[i] < t[best])) {
            best = i;
        }
    }
    return best;
}

// The timed search (SPMMA_SM90A_SEARCH): beside the heuristic's pick, the configurations the
// model estimates within kSearchBand of its fastest, at most kSearchKernels in all, where the
// model's ranking may be wrong by less than that band.
constexpr double kSearchBand = 1.5;
constexpr size_t kSearchKernels = 6;

// Indices into `clocks` (the estimates of the kernels weighed) of the ones the search times beside
// the pick (`pick_index`: the pick's place there, if it is one of them), fastest first. None where
// the model does not put the pick under DRAM's bound. NOTES (bench/NOTES.md, 2026-11-29, the
// search on the standard set): there, bound by the tensor cores at the power cap, the search's
// short timings chose kernels that ran 3-4 % behind the heuristic's.
inline std::vector<size_t> search_others(const Estimate& pick, const std::vector<double>& clocks, std::optional<size_t> pick_index) {
    std::vector<size_t> order(clocks.size()), out;
    if (!pick.dram_bound || clocks.empty()) return out;
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return clocks[a] < clocks[b]; });
    for (size_t i : order) {
        if (out.size() + 1 >= kSearchKernels || clocks[i] > kSearchBand * clocks[order.front()]) break;
        if (!pick_index || i != *pick_index) out.push_back(i);
    }
    return out;
}

// The most k-tiles at which prefer_64_row_tiles holds, by family: as far as it was measured
// faster (8-bit: 64 k-tiles of 128, k = 8192; 16-bit: 56 of 64, k = 3584, while at 64 k-tiles,
// k = 4096, it ran 3-5 % behind and at 128 7-10 %).
constexpr int64_t kRows64MaxKTiles8 = 64, kRows64MaxKTiles16 = 56;

// Whether `alt`, a 64x128 tile without a cluster, runs in place of the heuristic's `pick`, a
// 128-row tile without a cluster, on m x n x k: where n takes one column of 128 (64 < n <= 128)
// and the 64-row tiles give at least half the SMs, and at most all of them, one tile each (no
// turn, no stream-K), up to kRows64MaxKTiles*. NOTES (bench/NOTES.md, 2026-11-29, "64-row tiles
// at 128 tokens"): there 64x128 whole tiles ran 1.5-14 % ahead of the picks (128x128 whole or in
// two ranges, 128x64) for 8-bit types at 6144x4096, 7168x8192 and 8192 x 1024-8192, and for
// 16-bit at 8192 x 1024 and 3584; the cost model, which charges the 128-row tile's ranges less
// than the 1.3-1.9 µs their exchange took, ranks them behind.
inline bool prefer_64_row_tiles(const TileConfig& pick, const TileConfig& alt, int64_t m, int64_t n, int64_t k, int sm_count) {
    if (pick.bm != 128 || pick.cluster_size() != 1 || alt.bm != 64 || alt.bn != 128 || alt.cluster_size() != 1) return false;
    if (alt.family != pick.family || (alt.family != Family::B8 && alt.family != Family::B16)) return false;
    if (n <= 64 || n > 128) return false;
    const int64_t tiles = (m + 63) / 64;
    if (2 * tiles < sm_count || tiles > sm_count) return false;
    const int64_t k_tiles = (k + alt.bk() - 1) / alt.bk();
    return k_tiles <= (alt.family == Family::B8 ? kRows64MaxKTiles8 : kRows64MaxKTiles16);
}

}  // namespace spmma_sm90a

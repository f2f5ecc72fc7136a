#include <spmma_sm90a/perf_model.hpp>

#include <algorithm>
#include <limits>

namespace spmma_sm90a {

namespace {

double peak_clocks_per_k_tile(const TileConfig& c) { return static_cast<double>(c.bm) * c.bn / 64.0; }

}  // namespace

double smem_read_bytes_per_peak_clk(const TileConfig& c) {
    // B 128 B/clk whatever N; A 64 rows x 32 B per instruction of N/2 clocks.
    return 128.0 + 4096.0 / c.bn;
}

double smem_fill_bytes_per_peak_clk(const TileConfig& c) { return c.stage_bytes() / peak_clocks_per_k_tile(c); }

double smem_bytes_per_peak_clk(const TileConfig& c) {
    return smem_read_bytes_per_peak_clk(c) + smem_fill_bytes_per_peak_clk(c);
}

double l2_bytes_per_peak_clk(const TileConfig& c) {
    // Each CTA loads its slice of what its cluster row / column shares.
    const double bytes = static_cast<double>(c.a_stage_bytes() + c.e_stage_bytes()) / c.cn +
                         static_cast<double>(c.b_stage_bytes()) / c.cm;
    return bytes / peak_clocks_per_k_tile(c);
}

double mainloop_efficiency(const TileConfig& c, const MachineModel& mm) {
    const double smem = smem_read_bytes_per_peak_clk(c) + mm.fill_weight * smem_fill_bytes_per_peak_clk(c);
    double e = std::min(1.0, mm.smem_bytes_per_clk / smem);
    e = std::min(e, mm.l2_bytes_per_clk / l2_bytes_per_peak_clk(c));
    // One consumer warpgroup leaves the tensor cores idle while it waits for its own group.
    if (c.consumers() == 1) e *= c.bn <= 64 ? mm.one_consumer_decode_efficiency : mm.one_consumer_efficiency;
    return e;
}

double dram_bytes(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes) {
    const int64_t kp = (k + c.bk() - 1) / c.bk() * c.bk();
    const double eb = traits(c.family).elem_bytes;
    const double a = static_cast<double>(m) * kp / 2 * eb + static_cast<double>(m) * kp / 8;
    return a + static_cast<double>(n) * kp * eb + static_cast<double>(m) * n * out_bytes;
}

namespace {

struct Turns {
    int64_t cluster_tiles, clusters;
};

Turns turns_of(const TileConfig& c, int64_t m, int64_t n, int sm_count) {
    const int64_t tiles_m = (m + c.bm - 1) / c.bm, tiles_n = (n + c.bn - 1) / c.bn;
    return {((tiles_m + c.cm - 1) / c.cm) * ((tiles_n + c.cn - 1) / c.cn), std::max<int64_t>(1, sm_count / c.cluster_size())};
}

int64_t k_tiles_of(const TileConfig& c, int64_t k) { return (k + c.bk() - 1) / c.bk(); }

// A k-tile's main loop on the tensor cores, and (with the DRAM term) the time its SM needs to
// pull the A rows and metadata it alone reads from DRAM (B, which every tile of a column shares,
// comes from L2).
double k_tile_compute_clocks(const TileConfig& c, const MachineModel& mm) {
    return peak_clocks_per_k_tile(c) / mainloop_efficiency(c, mm);
}
double k_tile_stream_clocks(const TileConfig& c, const MachineModel& mm) {
    return mm.dram_bytes_per_clk > 0
               ? static_cast<double>(c.a_stage_bytes() + c.e_stage_bytes()) / c.cn / mm.sm_stream_bytes_per_clk
               : 0.0;
}

// The round trips an owner waits for to add `partials` partials: with a partial of at most 16
// words a thread (sm90a_spgemm.cuh, add_partials) the flags are read side by side and the loads
// of a group (4 partials of up to 4 words, 2 of up to 8, else 1) go together; wider partials take
// a flag, then a load, one after the other. A flag's round trip and a load's each taken as half of
// stream_k_partial_clk (fitted as their sum).
double partial_round_trips_clk(const TileConfig& c, int64_t partials, const MachineModel& mm) {
    if (partials <= 0) return 0;
    // (f32 accumulators: the f16-accumulator kernels hold half)
    const int64_t group = partial_group(c.acc_regs(false) / 4);
    if (group == 0) return static_cast<double>(partials) * mm.stream_k_partial_clk;
    return mm.stream_k_partial_clk / 2 * static_cast<double>(1 + (partials + group - 1) / group);
}

// The stream-K part of a launch on `g` clusters: once, with a partial's store, then each partial
// an owner adds (as many as the ranges that share a split tile, less one): its load's bytes, and
// the round trips of all of them (partial_round_trips_clk).
double stream_k_cost(const TileConfig& c, int64_t cluster_tiles, int64_t k_tiles, int64_t g, const MachineModel& mm) {
    const int64_t split = cluster_tiles >= g ? cluster_tiles % g : cluster_tiles;
    // (a range that ends inside a tile adds one more to the tile it shares)
    const int64_t ranges_per_tile =
        split > 0 ? (g + split - 1) / split + ((split * k_tiles) % g != 0 ? 1 : 0) : 1;
    const double partial_clk = static_cast<double>(c.bm) * c.bn * 4 / mm.partial_bytes_per_clk;
    return mm.stream_k_clk + partial_clk + static_cast<double>(ranges_per_tile - 1) * partial_clk +
           partial_round_trips_clk(c, ranges_per_tile - 1, mm);
}

// The SMs' time for the tiles: turns of tiles (whole turns, or with stream-K on sk_clusters
// clusters the tiles' share of each) of main loop, epilogue and per-tile overhead.
double tile_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                   int64_t sk_clusters, const MachineModel& mm) {
    const Turns t = turns_of(c, m, n, sm_count);
    const int64_t g = sk_clusters > 0 ? sk_clusters : t.clusters;
    const double turns = sk_clusters > 0 ? static_cast<double>(t.cluster_tiles) / g
                                         : static_cast<double>((t.cluster_tiles + g - 1) / g);
    const double k_tile_clocks = std::max(k_tile_compute_clocks(c, mm), k_tile_stream_clocks(c, mm));
    const double mainloop = static_cast<double>(k_tiles_of(c, k)) * k_tile_clocks;
    const double epilogue = static_cast<double>(c.bm) * c.bn * out_bytes /
                            (tma_epilogue && c.tma_store() ? mm.epilogue_smem_bytes_per_clk : mm.epilogue_bytes_per_clk);
    return turns * mainloop + std::max(1.0, turns) * (epilogue + mm.tile_overhead_clk);
}

// The SMs' time alone: the tiles', and stream-K's own cost where it runs.
double sm_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                 int64_t sk_clusters, const MachineModel& mm) {
    const double tiles = tile_clocks(c, m, n, k, out_bytes, sm_count, tma_epilogue, sk_clusters, mm);
    if (sk_clusters <= 0) return tiles;
    return tiles + stream_k_cost(c, turns_of(c, m, n, sm_count).cluster_tiles, k_tiles_of(c, k), sk_clusters, mm);
}

// What a launch reads from DRAM: dram_bytes, and A again for each further column of tiles of the
// decode tiles (bn < 128). NOTES.md, "How many ranges a decode tile takes": 128x16 at 64 tokens
// (four columns, 4096x64x4096) ran as if it read A two or three times, 128x64 at 128 tokens as
// if twice; the wider tiles' raster bands are laid out to keep A's re-reads in L2.
double dram_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, const MachineModel& mm) {
    if (mm.dram_bytes_per_clk <= 0) return 0.0;
    const int64_t n_tiles = (n + c.bn - 1) / c.bn;
    const double a_again = c.bn < 128 ? static_cast<double>(n_tiles - 1) * dram_bytes(c, m, 0, k, 0) : 0.0;
    return (dram_bytes(c, m, n, k, out_bytes) + a_again) / (mm.dram_bytes_per_clk * mm.dram_efficiency);
}

// Whether whole tiles go before the split last turn (stream_k_clusters, a turn of tiles or more):
// a main loop of at most kWholeLastTurnKTiles, and the tiles past the whole turns alone pull what
// DRAM gives.
bool whole_last_turn_pays(const TileConfig& c, const Turns& t, int64_t k, const MachineModel& mm) {
    const int64_t last_turn_ctas = t.cluster_tiles % t.clusters * c.cluster_size();
    return k_tiles_of(c, k) <= kWholeLastTurnKTiles &&
           static_cast<double>(last_turn_ctas) * mm.sm_stream_bytes_per_clk >= mm.dram_bytes_per_clk * mm.dram_efficiency;
}

}  // namespace

bool stream_k_pays(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                   const MachineModel& mm) {
    // (what the SMs would take with every cluster busy, before stream-K's own cost, against DRAM)
    const double busy = tile_clocks(c, m, n, k, out_bytes, sm_count, tma_epilogue, turns_of(c, m, n, sm_count).clusters, mm);
    return dram_clocks(c, m, n, k, out_bytes, mm) > busy;
}

namespace {

// stream_k_clusters' plan, and whether a measured rule (kTwoRangesKTiles, kFewNarrowTilesBn) cut
// the tiles that the model's own estimate keeps whole.
struct RangePlan {
    int clusters = 0;
    bool by_rule = false;
};

RangePlan plan_ranges(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                      const MachineModel& mm) {
    if (!stream_k_pays(c, m, n, k, out_bytes, sm_count, tma_epilogue, mm)) return {};
    const Turns t = turns_of(c, m, n, sm_count);
    // NOTES: with a turn of whole tiles or more, the split last turn measured ahead of whole tiles
    // (57344x8192: 1-5 %) but for the tiles narrow in n over two turns on a balanced grid
    // (kBalancedWholeTurns) and over short main loops whose last turn keeps DRAM busy
    // (kWholeLastTurnKTiles), which this model does not see.
    if (t.cluster_tiles >= t.clusters) {
        const bool whole = (c.bn < 128 && t.cluster_tiles <= kBalancedWholeTurns * t.clusters) || whole_last_turn_pays(c, t, k, mm);
        return {whole ? 0 : static_cast<int>(t.clusters)};
    }
    const int64_t iters = t.cluster_tiles * k_tiles_of(c, k);
    const double dram = dram_clocks(c, m, n, k, out_bytes, mm);
    const auto time = [&](int64_t g) { return std::max(dram, sm_clocks(c, m, n, k, out_bytes, sm_count, tma_epilogue, g, mm)); };
    // (stream_k.hpp, plan_work: every range keeps a k-tile, and whole turns that fill every cluster
    // leave nothing to split)
    const auto plannable = [&](int64_t g) { return g > 1 && iters >= g && t.cluster_tiles % g != 0; };
    int64_t best = 0;
    double least = time(0);
    const auto consider = [&](int64_t g) {
        if (!plannable(g)) return;
        if (const double e = time(g); e < least) {
            best = g;
            least = e;
        }
    };
    // (s dividing the k-tiles: every range inside one tile. NOTES: every cluster, ranges ending
    // inside tiles, was never fastest where the tiles are fewer than the clusters, on the H100
    // and on the H200 sweeps, and the model rated it too well: f16 1280x128x8192 on 64x64
    // 18.5 us, against 15.7 in two ranges; NOTES.md, "A 64-row decode tile")
    for (int64_t s = 2; t.cluster_tiles * s < t.clusters; ++s)
        if (k_tiles_of(c, k) % s == 0) consider(t.cluster_tiles * s);
    // NOTES: where the model keeps whole tiles, two ranges a tile over a main loop of
    // kTwoRangesKTiles or more (the s = 2 plan above, where it is one): fewer than all SMs read
    // less of DRAM than the model gives them (kTwoRangesKTiles).
    const int64_t two = 2 * t.cluster_tiles;
    const int64_t k_tiles = k_tiles_of(c, k);
    const bool long_loop = k_tiles >= kTwoRangesKTiles && two < t.clusters;
    // (and few narrow tiles: each SM's intake, not DRAM, bounds them)
    const bool few_narrow = c.bn <= kFewNarrowTilesBn && 4 * t.cluster_tiles <= t.clusters;
    if (best == 0 && (long_loop || few_narrow) && k_tiles % 2 == 0 && plannable(two)) return {static_cast<int>(two), true};
    return {static_cast<int>(best)};
}

}  // namespace

int stream_k_clusters(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                      const MachineModel& mm) {
    return plan_ranges(c, m, n, k, out_bytes, sm_count, tma_epilogue, mm).clusters;
}

Estimate estimate(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                  const MachineModel& mm) {
    if (!weighs(c, n)) return {std::numeric_limits<double>::infinity(), false, (n + c.bn - 1) / c.bn, int64_t{c.bm} * c.bn, 0};
    const RangePlan plan = plan_ranges(c, m, n, k, out_bytes, sm_count, tma_epilogue, mm);
    const int g = plan.clusters;
    // NOTES: a rule's ranges ran at least as fast as whole tiles where it was measured, so the
    // configuration keeps whole tiles' estimate (the model's own for its ranges is dearer, and
    // ranked 128x64 in a cluster of two ahead of 8-bit 128x32 at 4096x32x4096).
    const double sm = sm_clocks(c, m, n, k, out_bytes, sm_count, tma_epilogue, plan.by_rule ? 0 : g, mm);
    const double dram = dram_clocks(c, m, n, k, out_bytes, mm);
    const Turns t = turns_of(c, m, n, sm_count);
    return {std::max(sm, dram), sm < dram, (n + c.bn - 1) / c.bn, static_cast<int64_t>(c.bm) * c.bn, g,
            static_cast<double>(t.cluster_tiles) / static_cast<double>(t.clusters), k_tiles_of(c, k), n};
}

double estimated_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count,
                        bool tma_epilogue, const MachineModel& mm) {
    return estimate(c, m, n, k, out_bytes, sm_count, tma_epilogue, mm).clocks;
}

int cluster_tie_rank(const TileConfig& c, const Estimate& e) {
    const bool short_under_a_turn = c.bm == 128 && c.bn == 128 && e.turns > 0 && e.turns < 1 && e.k_tiles <= kShortTileKTiles;
    if (c.bn < 128 || short_under_a_turn) return c.cluster_size() == 1 ? 0 : 1;
    if (c.cm == 2 && c.cn == 1) return 0;
    if (c.cluster_size() == 1) return 1;
    if (c.cm == 2 && c.cn == 2) return 2;
    return 3;
}

}  // namespace spmma_sm90a

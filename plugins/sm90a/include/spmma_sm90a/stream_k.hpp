// How the persistent sm90a kernel deals its work to the clusters: whole cluster tiles
// (data-parallel) and, where whole tiles would leave clusters idle in the last turn, stream-K
// (the k-tiles of the last turn's tiles split evenly across all clusters). Host and device compute
// the same schedule from one definition; pure C++, so the tests walk it without a GPU.
//
// NOTES (plugins/sm90a/NOTES.md, "stream-K"): with T cluster tiles on G clusters, whole tiles take
// ceil(T / G) turns and the last one runs with T % G clusters busy: 512 tiles of 128x256 on 132
// SMs (4096^3, 8192x2048x28672) make 3.88 turns and lose 3 % to the idle SMs, 11008x4096x4096
// loses 5 %, and a problem with fewer tiles than clusters leaves most SMs idle. The plan keeps
// floor(T / G) turns of whole tiles and splits the T % G tiles left (all of them when T < G) into G
// equal ranges of k-tiles, one per cluster, run after its whole tiles (every cluster has the same
// number of those). A range shorter than a tile holds at most two pieces: the end of one tile and
// the start of the next. It runs the start first ("heads first"): at step t of its range every
// range computes k-tile t of its first piece, or k-tile t + k_tiles - range length of its second
// (an offset all ranges share, to one k-tile), so concurrent ranges read the same A and B
// k-slices, as concurrent whole tiles of a raster band do, and L2 serves them (v6 ran each range
// in k order, all at different offsets, and lost most at long k: NOTES.md, "v6"). A tile cut
// between ranges is finished by the range holding its last k-tile (the "owner"), which reaches it
// at the end of its range; the other ranges hold its earlier k-tiles as their first piece, store
// their partial accumulators to a workspace and raise a flag; the owner adds the partials and
// writes D. So every range starts with work that waits for nothing, and a range holds at most one
// partial (its first piece): one workspace slot and one flag per range and CTA.
//
// Measured (plugins/sm90a/NOTES.md, "Stream-K with ranges in step along k"): ranges in step took
// away v6's long-k loss, but the partials, stored and loaded by every range at the same moment,
// cost more than the idle share they win back at the standard shapes. With fewer cluster tiles
// than clusters it pays, yet there whole tiles of a smaller tile come close to it. So the
// heuristic runs it only where DRAM bounds the launch, and there on as many clusters as the cost
// model finds fastest (perf_model.hpp, stream_k_clusters: NOTES.md, "How many ranges a decode
// tile takes"); `SPMMA_SM90A_STREAMK=on|off` stays for A/B runs.
#pragma once

#include <spmma_sm90a/layout.hpp>  // SPMMA_HD

#include <cstdint>

namespace spmma_sm90a {

// One piece of work: k-tiles [k_begin, k_end) of cluster tile `tile` (an index of TileScheduler).
struct WorkUnit {
    int32_t tile;
    int32_t k_begin, k_end;
};

struct WorkPlan {
    int32_t dp_tiles;   // cluster tiles [0, dp_tiles): whole, tile L to cluster L % clusters
    int32_t sk_tiles;   // cluster tiles [dp_tiles, dp_tiles + sk_tiles): split into `clusters` ranges
    int32_t clusters;   // persistent clusters in the grid
    int32_t k_tiles;    // k-tiles per tile
    int32_t range_len;  // stream-K k-tiles per range: range_len + 1 for the first range_extra ranges
    int32_t range_extra;

    // NOTES: 32-bit arithmetic throughout (plan_work splits only when the stream-K k-tiles fit):
    // a 64-bit division is a call in device code, and a call inside the consumer's tile loop,
    // across which the accumulators live, spilled 6.6 KB per thread of the 256x192 kernels.
    SPMMA_HD constexpr bool stream_k() const { return sk_tiles > 0; }
    // First stream-K iteration (k-tile of the split tiles, tile-major) of range c; range c ends
    // where c + 1 begins.
    SPMMA_HD constexpr int32_t range_begin(int32_t c) const { return c * range_len + (c < range_extra ? c : range_extra); }
    // The range holding stream-K iteration `it` (0 <= it < sk_tiles * k_tiles).
    SPMMA_HD constexpr int32_t range_of(int32_t it) const {
        const int32_t long_part = range_extra * (range_len + 1);
        return it < long_part ? it / (range_len + 1) : range_extra + (it - long_part) / range_len;
    }
    // The first range holding a k-tile of split tile `tile` (a cluster tile index >= dp_tiles):
    // the owner, range_of(its last k-tile), adds the partials of the ranges from this one up to its own.
    SPMMA_HD constexpr int32_t first_range_of_tile(int32_t tile) const { return range_of((tile - dp_tiles) * k_tiles); }
};

// The work of cluster c in order: its whole tiles, then its stream-K range, the pieces of its
// range from the last tile back to the first (heads first, above). NOTES: two registers of state
// (the 24-register producer of the 256x192 kernels spilled with three): the start and the end of
// what is left, `end` negative while whole tiles remain; whole tiles end at dp_tiles + c exactly
// (dp_tiles is a multiple of the clusters when there is a stream-K part), which gives back c. The
// plan is referred to (in the kernel: the parameter space), not copied.
struct WorkCursor {
    const WorkPlan& plan;
    int32_t pos, end;

    SPMMA_HD WorkCursor(const WorkPlan& p, int32_t c) : plan(p), pos(c), end(-1) {}

    SPMMA_HD bool next(WorkUnit& u) {
        if (end < 0) {
            if (pos < plan.dp_tiles) {
                u.tile = pos;
                u.k_begin = 0;
                u.k_end = plan.k_tiles;
                pos += plan.clusters;
                return true;
            }
            const int32_t c = pos - plan.dp_tiles;  // (without a stream-K part every range is empty)
            pos = plan.range_begin(c);
            end = plan.range_begin(c + 1);
        }
        if (pos >= end) return false;
        // The last tile that [pos, end) touches, from its k-tile 0 (or from pos when it is the only one).
        const int32_t t = (end - 1) / plan.k_tiles, tile_begin = t * plan.k_tiles;
        u.tile = plan.dp_tiles + t;
        u.k_begin = pos > tile_begin ? pos - tile_begin : 0;
        u.k_end = end - tile_begin;
        end = pos > tile_begin ? pos : tile_begin;
        return true;
    }
};

// The ranges per tile where plan w deals every tile as s >= 2 equal ranges and nothing else (no
// whole tiles, each range 1 / s of a tile's k-tiles, so ranges s t .. s t + s - 1 hold tile t in k
// order and the last of them is its owner); 0 for any other plan. Such a launch can run each
// tile's ranges as a cluster of s CTAs and hand the partials over in the owner's shared memory
// (KernelParams::sk_cluster_ranges). NOTES: the partials through the global workspace, a flag
// and the owner's loads cost 1.0-1.8 us a launch over a whole-tile twin of the same work
// (plugins/sm90a/NOTES.md, "What a split tile's exchange costs").
SPMMA_HD constexpr int ranges_per_cluster(const WorkPlan& w) {
    if (w.dp_tiles != 0 || w.sk_tiles <= 0 || w.range_extra != 0 || w.clusters % w.sk_tiles != 0) return 0;
    const int s = w.clusters / w.sk_tiles;
    return s >= 2 && s * w.range_len == w.k_tiles ? s : 0;
}

// Off: whole tiles only (the default). On: stream-K wherever whole tiles leave a cluster idle in
// the last turn, if every range keeps at least one k-tile.
enum class StreamKMode { Off, On };

SPMMA_HD constexpr WorkPlan plan_work(int64_t cluster_tiles, int clusters, int k_tiles, StreamKMode mode) {
    const int32_t whole_clusters = static_cast<int32_t>(cluster_tiles < clusters ? cluster_tiles : clusters);
    const WorkPlan whole{static_cast<int32_t>(cluster_tiles), 0, whole_clusters, k_tiles, 0, 0};
    if (mode == StreamKMode::Off || clusters <= 1 || cluster_tiles % clusters == 0) return whole;
    const int64_t dp = cluster_tiles / clusters * clusters;
    const int64_t iters = (cluster_tiles - dp) * k_tiles;
    if (iters > INT32_MAX || iters < clusters) return whole;
    return WorkPlan{static_cast<int32_t>(dp), static_cast<int32_t>(cluster_tiles - dp), clusters, k_tiles,
                    static_cast<int32_t>(iters / clusters), static_cast<int32_t>(iters % clusters)};
}

}  // namespace spmma_sm90a

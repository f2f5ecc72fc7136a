// The persistent kernel's work schedule (stream_k.hpp), walked on the host exactly as the
// producer and consumers walk it: every k-tile of every tile exactly once, ranges balanced, and
// the order that keeps the partial-sum handshake free of waiting cycles.
#include <catch2/catch.hpp>

#include <spmma_sm90a/stream_k.hpp>

#include <algorithm>
#include <map>
#include <vector>

using namespace spmma_sm90a;

namespace {

struct Walk {
    std::vector<std::vector<WorkUnit>> by_cluster;
};

Walk walk(const WorkPlan& plan) {
    Walk w;
    w.by_cluster.resize(static_cast<size_t>(plan.clusters));
    for (int c = 0; c < plan.clusters; ++c) {
        WorkUnit u{};
        for (WorkCursor cur(plan, c); cur.next(u);) w.by_cluster[static_cast<size_t>(c)].push_back(u);
    }
    return w;
}

// Everything the kernel relies on, for one plan.
void check_plan(const WorkPlan& plan, int64_t cluster_tiles) {
    INFO("tiles " << cluster_tiles << ", clusters " << plan.clusters << ", k_tiles " << plan.k_tiles << ", dp "
                  << plan.dp_tiles << ", sk " << plan.sk_tiles);
    REQUIRE(plan.dp_tiles + plan.sk_tiles == cluster_tiles);
    const Walk w = walk(plan);
    std::map<int, std::vector<int>> hits;  // tile -> times each k-tile was computed
    std::map<int, std::vector<int>> ranges_of_tile;
    std::map<int, int> owner_of_tile;
    int64_t least = INT64_MAX, most = 0;
    for (int c = 0; c < plan.clusters; ++c) {
        const auto& units = w.by_cluster[static_cast<size_t>(c)];
        int64_t sk_k_tiles = 0;
        size_t whole = 0;  // whole tiles of this cluster (they come first)
        while (whole < units.size() && units[whole].tile < plan.dp_tiles) ++whole;
        for (size_t i = 0; i < units.size(); ++i) {
            const WorkUnit& u = units[i];
            REQUIRE(u.tile >= 0);
            REQUIRE(u.tile < cluster_tiles);
            REQUIRE(0 <= u.k_begin);
            REQUIRE(u.k_begin < u.k_end);
            REQUIRE(u.k_end <= plan.k_tiles);
            auto& h = hits[u.tile];
            h.resize(static_cast<size_t>(plan.k_tiles));
            for (int k = u.k_begin; k < u.k_end; ++k) ++h[static_cast<size_t>(k)];
            const bool split = u.tile >= plan.dp_tiles;
            if (!split) {
                REQUIRE(u.k_begin == 0);
                REQUIRE(u.k_end == plan.k_tiles);
                REQUIRE(u.tile % plan.clusters == c);
                continue;
            }
            sk_k_tiles += u.k_end - u.k_begin;
            // Whole tiles come before the split units of a cluster, and every cluster has as many
            // (so the ranges start together).
            REQUIRE(i >= whole);
            if (plan.stream_k()) REQUIRE(static_cast<int64_t>(whole) == plan.dp_tiles / plan.clusters);
            // A unit that leaves its partial to an owner is the first of its range: it waits for
            // nothing (nor do the whole tiles before it), so every owner's wait ends.
            if (u.k_end < plan.k_tiles) REQUIRE(i == whole);
            // Heads first: a range's first piece starts at k-tile 0 unless it is the range's only one.
            if (i == whole && i + 1 < units.size()) REQUIRE(u.k_begin == 0);
            ranges_of_tile[u.tile].push_back(c);
            if (u.k_end == plan.k_tiles) owner_of_tile[u.tile] = c;
        }
        if (plan.stream_k()) {
            least = std::min(least, sk_k_tiles);
            most = std::max(most, sk_k_tiles);
        }
    }
    for (int t = 0; t < cluster_tiles; ++t) {
        INFO("tile " << t);
        REQUIRE(hits.count(t) == 1);
        for (int k = 0; k < plan.k_tiles; ++k) REQUIRE(hits[t][static_cast<size_t>(k)] == 1);
    }
    // The owner adds exactly the partials of the other ranges that hold the tile.
    for (const auto& [tile, ranges] : ranges_of_tile) {
        INFO("split tile " << tile);
        REQUIRE(owner_of_tile.count(tile) == 1);
        const int owner = owner_of_tile[tile];
        std::vector<int> expected;
        for (int r = plan.first_range_of_tile(tile); r <= owner; ++r) expected.push_back(r);
        std::vector<int> got = ranges;
        std::sort(got.begin(), got.end());
        REQUIRE(got == expected);
    }
    if (plan.stream_k()) REQUIRE(most - least <= 1);
}

}  // namespace

TEST_CASE("stream-K plans keep floor(T/G) whole turns and split the rest into one k-range per cluster",
          "[stream_k]") {
    // 8192x2048x28672 s8, 128x256 tiles, 2x1 clusters on 132 SMs: 256 cluster tiles, 66 clusters.
    const WorkPlan p = plan_work(256, 66, 224, StreamKMode::On);
    CHECK(p.dp_tiles == 198);
    CHECK(p.sk_tiles == 58);
    CHECK(p.clusters == 66);
    CHECK(p.range_len == 58 * 224 / 66);
    CHECK(p.range_extra == 58 * 224 % 66);
    // Whole turns when they fill every cluster, and when told off (the default).
    CHECK(!plan_work(264, 66, 64, StreamKMode::On).stream_k());
    CHECK(!plan_work(256, 66, 224, StreamKMode::Off).stream_k());
    CHECK(plan_work(13331, 132, 64, StreamKMode::On).stream_k());
    // Fewer tiles than clusters: all of them split (split-K), every cluster busy.
    const WorkPlan s = plan_work(16, 66, 64, StreamKMode::On);
    CHECK(s.dp_tiles == 0);
    CHECK(s.sk_tiles == 16);
    CHECK(s.clusters == 66);
    // Whole tiles on fewer clusters than the device has when there are fewer tiles.
    CHECK(plan_work(16, 66, 4, StreamKMode::Off).clusters == 16);
    // Never below one k-tile per range.
    CHECK(!plan_work(3, 66, 4, StreamKMode::On).stream_k());
}

TEST_CASE("every schedule computes each k-tile of each tile once, owners wait only on first units", "[stream_k]") {
    const int cases[][3] = {
        {256, 66, 224}, {512, 132, 64}, {688, 66, 64}, {2048, 66, 128}, {16, 66, 64}, {16, 66, 16},
        {1, 66, 100},   {3, 66, 23},    {67, 66, 1},   {67, 66, 7},    {133, 132, 5}, {200, 7, 9},
        {7, 7, 3},      {5, 1, 10},     {131, 132, 2}, {250, 66, 3},
    };
    for (const auto& c : cases)
        for (StreamKMode mode : {StreamKMode::Off, StreamKMode::On})
            check_plan(plan_work(c[0], c[1], c[2], mode), c[0]);
}

TEST_CASE("stream-K ranges walk k in step: heads from k-tile 0, second pieces at one shared offset", "[stream_k]") {
    // 4096^3 and 8192x2048x28672 with 128x256 tiles and 2x1 clusters: 58 of 256 cluster tiles split.
    for (int k_tiles : {64, 448}) {
        INFO("k_tiles " << k_tiles);
        const WorkPlan plan = plan_work(256, 66, k_tiles, StreamKMode::On);
        REQUIRE(plan.range_len < k_tiles);
        int two_piece_ranges = 0;
        for (int c = 0; c < plan.clusters; ++c) {
            std::vector<WorkUnit> sk;
            WorkUnit u{};
            for (WorkCursor cur(plan, c); cur.next(u);)
                if (u.tile >= plan.dp_tiles) sk.push_back(u);
            REQUIRE(sk.size() <= 2);
            if (sk.size() < 2) continue;
            ++two_piece_ranges;
            // Step t of every range computes k-tile t of its head, then k-tile t + offset: the
            // offset is k_tiles minus the range's length.
            const int len = plan.range_len + (c < plan.range_extra ? 1 : 0);
            CHECK(sk[0].k_begin == 0);
            CHECK(sk[1].k_begin - sk[0].k_end == k_tiles - len);
        }
        CHECK(two_piece_ranges > plan.clusters / 2);
    }
}

// ranges_per_cluster: the plans whose ranges a launch can run as clusters of s CTAs
// (KernelParams::sk_cluster_ranges): ranges s t .. s t + s - 1 the parts of tile t in k order, the
// last its owner, one unit each.
TEST_CASE("every tile in s equal ranges and nothing else is a plan of s ranges a cluster whose last range owns the tile",
          "[stream_k]") {
    struct Case {
        int64_t tiles;
        int clusters, k_tiles, s;
    };
    // 6144x4096 on 128x16 in two ranges a tile; 4096x4096 in four; f16 1280x8192 in eight
    for (const Case& x : {Case{48, 96, 64, 2}, Case{32, 128, 64, 4}, Case{10, 80, 128, 8}}) {
        const WorkPlan plan = plan_work(x.tiles, x.clusters, x.k_tiles, StreamKMode::On);
        INFO(x.tiles << " tiles on " << x.clusters);
        REQUIRE(ranges_per_cluster(plan) == x.s);
        const int len = x.k_tiles / x.s;
        for (int c = 0; c < plan.clusters; ++c) {
            std::vector<WorkUnit> units;
            WorkUnit u{};
            for (WorkCursor cur(plan, c); cur.next(u);) units.push_back(u);
            REQUIRE(units.size() == 1);
            CHECK(units[0].tile == c / x.s);
            CHECK(units[0].k_begin == (c % x.s) * len);
            CHECK(units[0].k_end == (c % x.s + 1) * len);
            CHECK(plan.first_range_of_tile(units[0].tile) == c - c % x.s);
            CHECK((units[0].k_end == x.k_tiles) == (c % x.s == x.s - 1));  // the owner is the cluster's last
        }
    }
    CHECK(ranges_per_cluster(plan_work(48, 96, 63, StreamKMode::On)) == 0);   // odd k-tiles: halves unequal
    CHECK(ranges_per_cluster(plan_work(32, 128, 66, StreamKMode::On)) == 0);  // 66 k-tiles in four: unequal
    CHECK(ranges_per_cluster(plan_work(48, 96, 64, StreamKMode::Off)) == 0);  // whole tiles
    CHECK(ranges_per_cluster(plan_work(180, 132, 64, StreamKMode::On)) == 0); // whole tiles, then the rest split
    CHECK(ranges_per_cluster(plan_work(48, 95, 64, StreamKMode::On)) == 0);   // ranges across tiles
}

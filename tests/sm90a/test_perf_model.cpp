// The sm90a heuristic's cost model (include/spmma_sm90a/perf_model.hpp): its traffic figures
// for known tiles, and the choices it leads to between the plugin's tile shapes.
#include <catch2/catch.hpp>

#include <spmma_sm90a/perf_model.hpp>

#include <string>
#include <vector>

using namespace spmma_sm90a;

namespace {

std::vector<TileConfig> f16_configs() {
    std::vector<TileConfig> v;
    auto fam = [](const char* a) { return a[0] == 'e' || a[0] == 's' || a[0] == 'u' ? Family::B8 : a[0] == 't' ? Family::B32 : Family::B16; };
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S) \
    if (std::string(#A) == "f16" && std::string(#ACC) == "f32") v.push_back(TileConfig{fam(#A), BM, BN, CM, CN, S});
#include <spmma_sm90a/kernels/f16.inc>
#undef SPMMA_SM90A_KERNEL
    return v;
}

const TileConfig* cheapest(const std::vector<TileConfig>& cs, int64_t m, int64_t n, int64_t k) {
    const TileConfig* best = nullptr;
    double best_clk = 0;
    for (const TileConfig& c : cs) {
        const double clk = estimated_clocks(c, m, n, k, 2, 132);
        if (!best || clk < best_clk) {
            best = &c;
            best_clk = clk;
        }
    }
    return best;
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
        CHECK(estimated_clocks(c, 4096, 4096, 8192, 2, 132) > estimated_clocks(c, 4096, 4096, 4096, 2, 132));
    }
}

TEST_CASE("sm90a cost model: large square problems take a 256-row tile, small m*n a tile of at most 128x128",
          "[sm90a][model]") {
    const auto cs = f16_configs();
    const TileConfig* big = cheapest(cs, 16384, 16384, 16384);
    REQUIRE(big != nullptr);
    CHECK(big->bm == 256);
    CHECK(big->bn >= 128);
    // 1024 x 1024: 24 tiles of 256x192 would leave 108 of 132 SMs idle.
    const TileConfig* small = cheapest(cs, 1024, 1024, 8192);
    REQUIRE(small != nullptr);
    CHECK(small->bm * small->bn <= 128 * 128);
}

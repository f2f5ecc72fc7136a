#include <spmma_sm90a/perf_model.hpp>

#include <algorithm>

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
    if (c.consumers() == 1) e *= 0.6;
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

// The SMs' time alone: turns of tiles (whole turns, or with stream-K the tiles' share of every
// cluster) of main loop, epilogue and per-tile overhead.
double sm_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                 bool stream_k, const MachineModel& mm) {
    const Turns t = turns_of(c, m, n, sm_count);
    const double turns = stream_k ? static_cast<double>(t.cluster_tiles) / t.clusters
                                  : static_cast<double>((t.cluster_tiles + t.clusters - 1) / t.clusters);
    const int64_t k_tiles = (k + c.bk() - 1) / c.bk();
    const double mainloop = static_cast<double>(k_tiles) * peak_clocks_per_k_tile(c) / mainloop_efficiency(c, mm);
    const double epilogue = static_cast<double>(c.bm) * c.bn * out_bytes /
                            (tma_epilogue && c.tma_store() ? mm.epilogue_smem_bytes_per_clk : mm.epilogue_bytes_per_clk);
    return turns * mainloop + std::max(1.0, turns) * (epilogue + mm.tile_overhead_clk);
}

double dram_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, const MachineModel& mm) {
    return mm.dram_bytes_per_clk > 0 ? dram_bytes(c, m, n, k, out_bytes) / (mm.dram_bytes_per_clk * mm.dram_efficiency) : 0.0;
}

}  // namespace

bool stream_k_pays(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                   const MachineModel& mm) {
    return dram_clocks(c, m, n, k, out_bytes, mm) > sm_clocks(c, m, n, k, out_bytes, sm_count, tma_epilogue, true, mm);
}

Estimate estimate(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count, bool tma_epilogue,
                  const MachineModel& mm) {
    const bool sk = stream_k_pays(c, m, n, k, out_bytes, sm_count, tma_epilogue, mm);
    const double sm = sm_clocks(c, m, n, k, out_bytes, sm_count, tma_epilogue, sk, mm);
    const double dram = dram_clocks(c, m, n, k, out_bytes, mm);
    return {std::max(sm, dram), sm < dram, (n + c.bn - 1) / c.bn, static_cast<int64_t>(c.bm) * c.bn};
}

double estimated_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count,
                        bool tma_epilogue, const MachineModel& mm) {
    return estimate(c, m, n, k, out_bytes, sm_count, tma_epilogue, mm).clocks;
}

int cluster_tie_rank(const TileConfig& c) {
    if (c.cm == 2 && c.cn == 1) return 0;
    if (c.cluster_size() == 1) return 1;
    if (c.cm == 2 && c.cn == 2) return 2;
    return 3;
}

}  // namespace spmma_sm90a

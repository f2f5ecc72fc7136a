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

double estimated_clocks(const TileConfig& c, int64_t m, int64_t n, int64_t k, int out_bytes, int sm_count,
                        bool tma_epilogue, const MachineModel& mm) {
    const int64_t tiles_m = (m + c.bm - 1) / c.bm, tiles_n = (n + c.bn - 1) / c.bn;
    const int64_t cluster_tiles = ((tiles_m + c.cm - 1) / c.cm) * ((tiles_n + c.cn - 1) / c.cn);
    const int64_t clusters = std::max<int64_t>(1, sm_count / c.cluster_size());
    const int64_t turns = (cluster_tiles + clusters - 1) / clusters;
    const int64_t k_tiles = (k + c.bk() - 1) / c.bk();
    const double mainloop = static_cast<double>(k_tiles) * peak_clocks_per_k_tile(c) / mainloop_efficiency(c, mm);
    const double epilogue = static_cast<double>(c.bm) * c.bn * out_bytes /
                            (tma_epilogue && c.tma_store() ? mm.epilogue_smem_bytes_per_clk : mm.epilogue_bytes_per_clk);
    return static_cast<double>(turns) * (mainloop + epilogue + mm.tile_overhead_clk);
}

int cluster_tie_rank(const TileConfig& c) {
    if (c.cm == 2 && c.cn == 1) return 0;
    if (c.cluster_size() == 1) return 1;
    if (c.cm == 2 && c.cn == 2) return 2;
    return 3;
}

}  // namespace spmma_sm90a

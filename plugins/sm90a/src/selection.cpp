#include "selection.hpp"

#include <spmma_plugin/env_choice.hpp>
#include <spmma_sm90a/problem_check.hpp>

#include <algorithm>
#include <cstdint>

namespace spmma_sm90a {

std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelEntry*> v;
    for (const KernelEntry& e : kernel_table().entries())
        if (kernel_types_match(e.a_type, e.b_type, e.acc_type, e.satfinite, p) &&
            (!spmma_problem_has_epilogue(&p) || kernel_fuses_epilogue(e)))
            v.push_back(&e);
    return v;
}

bool kernel_fuses_epilogue(const KernelEntry& e) {
    const bool f16_acc = e.acc_type == SPMMA_F16;
    const auto fuses = [&](const TileConfig& c) { return c.fuses_epilogue(c.acc_regs(f16_acc)); };
    return e.acc_type != SPMMA_S32 && fuses(e.cfg) && (!e.split() || fuses(e.rest_cfg));
}

bool tma_epilogue_possible(const spmma_problem& p) {
    // NOTES: the kernels compile the general epilogue (an activation, a column bias) into their
    // direct stores only (Epi in device/sm90a_spgemm.cuh: compile time).
    return p.beta == 0.0 && epilogue_form(p) != EpilogueForm::General && (p.n * (spmma_dtype_storage_bits(p.d_type) / 8)) % 16 == 0;
}

bool tma_epilogue_for(const TileConfig& cfg, const spmma_problem& p) {
    return tma_epilogue_possible(p) &&
           (!spmma_problem_has_epilogue(&p) || cfg.fuses_epilogue_in_tma_stores(cfg.acc_regs(p.acc_type == SPMMA_F16)));
}

MachineModel machine_model(const spmma_plugin::cuda::DeviceProperties& dev) {
    MachineModel mm;
    if (dev.sm_clock_khz > 0) mm.dram_bytes_per_clk = dev.dram_bytes_per_s() / (dev.sm_clock_khz * 1e3);
    return mm;
}

int stream_k_clusters(const TileConfig& cfg, const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                      int64_t cluster_tiles, int clusters) {
    const auto forced = spmma_plugin::env_choice("SPMMA_SM90A_STREAMK", {"off", "on"});
    if (forced == 0) return 0;
    // Tuning (bench/decode/splits.sh): SPMMA_SM90A_SK_SPLITS=s cuts every tile into s ranges where
    // the tiles are fewer than the clusters (s = 1: whole tiles).
    if (const auto s = spmma_plugin::env_count("SPMMA_SM90A_SK_SPLITS", 1024)) {
        if (cluster_tiles < clusters)
            return s->count == 1 ? 0 : static_cast<int>(std::min<int64_t>(clusters, cluster_tiles * s->count));
    }
    if (forced == 1) return clusters;
    const int g = spmma_sm90a::stream_k_clusters(cfg, p.m, p.n, p.k, spmma_dtype_storage_bits(p.d_type) / 8, dev.sm_count,
                                                 tma_epilogue_for(cfg, p), machine_model(dev));
    return std::min(g, clusters);
}

int whole_tile_clusters(const TileConfig& cfg, const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                        int64_t cluster_tiles, int clusters) {
    if (const auto v = spmma_plugin::env_count("SPMMA_SM90A_CLUSTERS", 4096, {"resident", "balanced"})) {
        if (v->word == 0) return clusters;
        if (v->word == 1) return balanced_clusters(cluster_tiles, clusters);
        return static_cast<int>(std::min<long>(v->count, clusters));
    }
    const bool dram_bound = stream_k_pays(cfg, p.m, p.n, p.k, spmma_dtype_storage_bits(p.d_type) / 8, dev.sm_count,
                                          tma_epilogue_for(cfg, p), machine_model(dev));
    return dram_bound ? balanced_clusters(cluster_tiles, clusters) : clusters;
}

}  // namespace spmma_sm90a

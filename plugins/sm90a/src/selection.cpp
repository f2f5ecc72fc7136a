#include "selection.hpp"

#include <spmma_plugin/refusals.hpp>
#include <spmma_sm90a/pack.hpp>
#include <spmma_sm90a/perf_model.hpp>
#include <spmma_sm90a/problem_check.hpp>

#include <algorithm>
#include <cstdint>

namespace spmma_sm90a {

std::string Sm90aBackend::runs_on(const spmma_plugin::cuda::DeviceProperties& p) const {
    if (p.major == 9 && p.minor == 0) return {};
    return "needs sm_90a (Hopper), device is " + p.arch();
}

std::string Sm90aBackend::problem_reason(const spmma_problem& p) const {
    if (std::string why = problem_unsupported_reason(p); !why.empty()) return why;
    if (matching_kernels(p).empty()) return "unsupported: no sm90a kernel for " + spmma_plugin::types_label(p.a_type, p.b_type, p.acc_type);
    return {};
}

std::string Sm90aBackend::kernel_reason(const KernelEntry& e, const spmma_problem& p) const {
    return kernel_types_reason(e.name, e.a_type, e.b_type, e.acc_type, e.satfinite, p);
}

std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelEntry*> v;
    for (const KernelEntry& e : kernel_table().entries())
        if (kernel_types_match(e.a_type, e.b_type, e.acc_type, e.satfinite, p)) v.push_back(&e);
    return v;
}

const KernelEntry* Sm90aBackend::choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                                        std::string* why) const {
    const int out_bytes = spmma_dtype_storage_bits(p.d_type) / 8;
    const std::vector<const KernelEntry*> ks = matching_kernels(p);
    std::vector<TileConfig> cs;
    for (const KernelEntry* e : ks) cs.push_back(e->cfg);
    const bool tma_epilogue = tma_epilogue_possible(p);
    const int i = choose_config(cs, [&](const TileConfig& c) {
        return estimated_clocks(c, p.m, p.n, p.k, out_bytes, dev.sm_count, tma_epilogue);
    });
    if (i < 0 && why) *why = "unsupported: no sm90a kernel for this problem";
    return i < 0 ? nullptr : ks[static_cast<size_t>(i)];
}

bool tma_epilogue_possible(const spmma_problem& p) {
    return p.beta == 0.0 && (p.n * (spmma_dtype_storage_bits(p.d_type) / 8)) % 16 == 0;
}

int raster_group(const TileConfig& cfg, int64_t cluster_tiles_m) {
    const int64_t rows_per_cluster_tile = static_cast<int64_t>(cfg.bm) * cfg.cm;
    const int64_t g = std::max<int64_t>(1, 2048 / rows_per_cluster_tile);
    return static_cast<int>(std::max<int64_t>(1, std::min(g, cluster_tiles_m)));
}

}  // namespace spmma_sm90a

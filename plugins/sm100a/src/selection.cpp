#include "selection.hpp"

#include <spmma_sm100a/pack.hpp>
#include <spmma_sm100a/problem_check.hpp>

#include <algorithm>
#include <cstdint>

namespace spmma_sm100a {
std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelEntry*> v;
    for (const KernelEntry& e : kernel_table())
        if (kernel_mismatch(e.cfg.kind, e.cfg.sv, e.acc_type, p).empty()) v.push_back(&e);
    return v;
}

std::string problem_unsupported_reason(const spmma_problem& p) {
    std::vector<KernelKind> kinds;
    for (const KernelEntry& e : kernel_table()) kinds.push_back({e.cfg.kind, e.cfg.sv, e.acc_type});
    return problem_unsupported_reason(kinds, p);
}

const KernelEntry* choose_kernel(const spmma_problem& p, int sm_count) {
    const auto cands = matching_kernels(p);
    if (cands.empty()) return nullptr;
    auto tiles = [&](const TileConfig& c) { return ((p.m + c.bm() - 1) / c.bm()) * ((p.n + c.bn - 1) / c.bn); };
    // SMs a configuration keeps busy: one per CTA.
    auto busy = [&](const TileConfig& c) { return tiles(c) * c.cg; };
    auto score = [](const TileConfig& c) { return c.bm() * c.bn * 4 + c.cg; };
    const KernelEntry* best = nullptr;
    for (const KernelEntry* e : cands) {
        if (busy(e->cfg) < static_cast<int64_t>(sm_count)) continue;
        if (!best || score(e->cfg) > score(best->cfg)) best = e;
    }
    if (best) return best;
    for (const KernelEntry* e : cands)
        if (!best || busy(e->cfg) > busy(best->cfg) || (busy(e->cfg) == busy(best->cfg) && e->cfg.cg < best->cfg.cg))
            best = e;
    return best;
}

int raster_group(const TileConfig& cfg, int64_t tiles_m) {
    const int64_t g = std::max<int64_t>(1, 2048 / cfg.bm());
    return static_cast<int>(std::max<int64_t>(1, std::min(g, tiles_m)));
}

}  // namespace spmma_sm100a

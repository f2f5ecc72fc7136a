#include "selection.hpp"

#include <spmma_sm100a/pack.hpp>
#include <spmma_sm100a/problem_check.hpp>
#include <spmma_sm100a/target.hpp>

#include <algorithm>
#include <cstdint>

namespace spmma_sm100a {

std::string Sm100aBackend::runs_on(const spmma_plugin::cuda::DeviceProperties& p) const {
    return device_reason(p.major, p.minor);
}

std::string Sm100aBackend::problem_reason(const spmma_problem& p) const {
    std::vector<KernelKind> kinds;
    for (const KernelEntry& e : kernel_table().entries()) kinds.push_back({e.cfg.kind, e.cfg.sv, e.acc_type});
    return problem_unsupported_reason(kinds, p);
}

std::string Sm100aBackend::kernel_reason(const KernelEntry& e, const spmma_problem& p) const {
    const std::string why = kernel_mismatch(e.cfg.kind, e.cfg.sv, e.acc_type, p);
    return why.empty() ? why : why + " [kernel " + e.name + "]";
}

std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelEntry*> v;
    for (const KernelEntry& e : kernel_table().entries())
        if (kernel_mismatch(e.cfg.kind, e.cfg.sv, e.acc_type, p).empty()) v.push_back(&e);
    return v;
}

const KernelEntry* Sm100aBackend::choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                                         std::string* why) const {
    const int sm_count = dev.sm_count;
    const auto cands = matching_kernels(p);
    if (cands.empty()) {
        if (why) *why = "unsupported: no sm100a kernel for this problem";
        return nullptr;
    }
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

// The sm100a plugin: sparse GEMM on tcgen05.mma.sp (5th-generation tensor cores, tensor memory)
// for every kind sm_100a's sparse instruction has, block-scaled ones included. Its code is
// compiled for sm_100a only: on any other device probe says so and nothing is launched. Its
// answers to the kit's checks (kernel_backend.hpp): the problems its kernels take
// (problem_check.hpp, shared with the emu plugin) and the heuristic that picks a kernel.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/kernel_backend.hpp>
#include <spmma_plugin/tile_grid.hpp>
#include <spmma_sm100a/problem_check.hpp>
#include <spmma_sm100a/target.hpp>

namespace spmma_sm100a {
namespace {

class Sm100aBackend final : public spmma_plugin::cuda::KernelBackend<KernelEntry> {
public:
    spmma_plugin_info info() const override {
        return spmma_plugin::plugin_info(
            "sm100a", "sm_100a",
            "tcgen05.mma.sp with tensor memory, TMA and persistent warp-specialised kernels, every kind incl. block "
            "scaling (Blackwell B200/GB200); compiled and checked on the instruction model, not yet run on sm_100 "
            "hardware");
    }

    // sm_100a: B200 / GB200 only (target.hpp).
    std::string runs_on(const spmma_plugin::cuda::DeviceProperties& p) const override { return device_reason(p.major, p.minor); }

protected:
    const spmma_plugin::KernelRegistry<KernelEntry>& registry() const override { return kernel_table(); }

    // The most specific reason over every kernel.
    std::string problem_reason(const spmma_problem& p) const override {
        std::vector<KernelKind> kinds;
        for (const KernelEntry& e : kernel_table().entries()) kinds.push_back({e.cfg.kind, e.cfg.sv, e.acc_type});
        return problem_unsupported_reason(kinds, p);
    }

    // The float kernels fuse every epilogue of ABI 1.2 into their stores (sm100a_spgemm.cuh,
    // store_float16).
    std::string epilogue_reason(const spmma_problem& p) const override { return spmma_plugin::fused_epilogue_reason(p); }

    // The kernel's own mismatch, "[kernel NAME]" after it.
    std::string kernel_reason(const KernelEntry& e, const spmma_problem& p) const override {
        const std::string why = kernel_mismatch(e.cfg.kind, e.cfg.sv, e.acc_type, p);
        return why.empty() ? why : why + " [kernel " + e.name + "]";
    }

    // The largest tile that still fills the machine with one wave, else the most tiles.
    const KernelEntry* choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                              std::string* why) const override {
        const auto cands = matching_kernels(p);
        if (cands.empty()) {
            if (why) *why = "unsupported: no sm100a kernel for this problem";
            return nullptr;
        }
        // SMs a configuration keeps busy: one per CTA.
        auto busy = [&](const TileConfig& c) { return spmma_plugin::tile_grid(p.m, p.n, c.bm(), c.bn).tiles() * c.cg; };
        auto score = [](const TileConfig& c) { return c.bm() * c.bn * 4 + c.cg; };
        const KernelEntry* best = nullptr;
        for (const KernelEntry* e : cands) {
            if (busy(e->cfg) < static_cast<int64_t>(dev.sm_count)) continue;
            if (!best || score(e->cfg) > score(best->cfg)) best = e;
        }
        if (best) return best;
        for (const KernelEntry* e : cands)
            if (!best || busy(e->cfg) > busy(best->cfg) || (busy(e->cfg) == busy(best->cfg) && e->cfg.cg < best->cfg.cg))
                best = e;
        return best;
    }
};

}  // namespace
}  // namespace spmma_sm100a

SPMMA_DEFINE_PLUGIN_BACKEND(spmma_sm100a::Sm100aBackend)

// The sm90a plugin: sparse GEMM on wgmma.mma_async.sp with a TMA/mbarrier pipeline, for every
// type sm_90a's sparse tensor cores take. Its answers to the kit's checks (kernel_backend.hpp):
// the problems its kernels take (problem_check.hpp, shared with the emu plugin) and the heuristic
// that picks a kernel from the shape when the host names none.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/kernel_backend.hpp>
#include <spmma_plugin/refusals.hpp>
#include <spmma_sm90a/perf_model.hpp>
#include <spmma_sm90a/problem_check.hpp>
#include <spmma_sm90a/split_plan.hpp>

#include <optional>
#include <vector>

namespace spmma_sm90a {
namespace {

class Sm90aBackend final : public spmma_plugin::cuda::KernelBackend<KernelEntry> {
public:
    spmma_plugin_info info() const override {
        return spmma_plugin::plugin_info("sm90a", "sm_90a",
                                         "wgmma.mma_async.sp with TMA multicast, warp-specialised persistent kernels (Hopper)");
    }

    // sm_90a: Hopper only.
    std::string runs_on(const spmma_plugin::cuda::DeviceProperties& p) const override {
        if (p.major == 9 && p.minor == 0) return {};
        return "needs sm_90a (Hopper), device is " + p.arch();
    }

protected:
    const spmma_plugin::KernelRegistry<KernelEntry>& registry() const override { return kernel_table(); }

    std::string problem_reason(const spmma_problem& p) const override {
        if (std::string why = problem_unsupported_reason(p); !why.empty()) return why;
        if (matching_kernels(p).empty())
            return "unsupported: no sm90a kernel for " + spmma_plugin::types_label(p.a_type, p.b_type, p.acc_type);
        return {};
    }

    // The float kernels fuse every epilogue of ABI 1.2 into their stores (sm90a_spgemm.cuh,
    // scaled_pair).
    std::string epilogue_reason(const spmma_problem& p) const override { return spmma_plugin::fused_epilogue_reason(p); }

    std::string kernel_reason(const KernelEntry& e, const spmma_problem& p) const override {
        if (std::string why = kernel_types_reason(e.name, e.a_type, e.b_type, e.acc_type, e.satfinite, p); !why.empty()) return why;
        if (spmma_problem_has_epilogue(&p) && !kernel_fuses_epilogue(e))
            return "unsupported: kernel " + e.name + " does not fuse the epilogue (its accumulators leave too few registers); " +
                   "the heuristic picks one that does";
        return {};
    }

    // The least estimated time of the cost model (include/spmma_sm90a/perf_model.hpp: bytes per
    // flop against shared-memory and L2 bandwidth, turns of tiles over the persistent CTAs,
    // epilogue) among the matching kernels; then a split kernel in its place where that pays
    // (split_plan.hpp, prefer_split: measured, the model has no term for clusters of four or
    // eight), the one with the tallest clusters (tallest_paying_split); before that, 64x128 whole
    // tiles in place of a 128-row pick where prefer_64_row_tiles (measured) says so.
    const KernelEntry* choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                              std::string* why) const override {
        const Kernels k = kernels_for(p);
        std::vector<TileConfig> cs;
        for (const KernelEntry* e : k.whole) cs.push_back(e->cfg);
        // (a kernel that fuses an epilogue in its direct stores only is costed with them)
        const MachineModel mm = machine_model(dev);
        const int out_bytes = spmma_dtype_storage_bits(p.d_type) / 8;
        const auto clocks = [&](const TileConfig& c) {
            return estimated_clocks(c, p.m, p.n, p.k, out_bytes, dev.sm_count, tma_epilogue_for(c, p), mm);
        };
        const int i = choose_config(
            cs, [&](const TileConfig& c) { return estimate(c, p.m, p.n, p.k, out_bytes, dev.sm_count, tma_epilogue_for(c, p), mm); });
        if (i < 0) {
            if (why) *why = "unsupported: no sm90a kernel for this problem";
            return nullptr;
        }
        const KernelEntry* pick = k.whole[static_cast<size_t>(i)];
        for (const KernelEntry* e : k.whole)
            if (prefer_64_row_tiles(pick->cfg, e->cfg, p.m, p.n, p.k, dev.sm_count)) return e;
        const double pick_clocks = clocks(pick->cfg);
        std::vector<bool> pays;
        std::vector<int> main_cm;
        for (const KernelEntry* s : k.splits) {
            pays.push_back(prefer_split(pick_clocks, clocks(s->rest_cfg), p.m, p.n, s->rest_cfg, dev.sm_count));
            main_cm.push_back(s->cfg.cm);
        }
        const int split = tallest_paying_split(pays, main_cm);
        return split >= 0 ? k.splits[static_cast<size_t>(split)] : pick;
    }

    const char* search_env() const override { return "SPMMA_SM90A_SEARCH"; }

    // The heuristic's pick, then the kernels perf_model.hpp's search_others names (within
    // kSearchBand of the fastest estimate, only where the pick is under DRAM's bound).
    std::vector<const KernelEntry*> search_candidates(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                                                      const KernelEntry& pick) const override {
        const MachineModel mm = machine_model(dev);
        const int out_bytes = spmma_dtype_storage_bits(p.d_type) / 8;
        const auto estimate_of = [&](const TileConfig& c) {
            return estimate(c, p.m, p.n, p.k, out_bytes, dev.sm_count, tma_epilogue_for(c, p), mm);
        };
        const std::vector<const KernelEntry*> whole = kernels_for(p).whole;
        std::vector<double> clocks;
        std::optional<size_t> pick_index;
        for (size_t i = 0; i < whole.size(); ++i) {
            clocks.push_back(estimate_of(whole[i]->cfg).clocks);
            if (whole[i] == &pick) pick_index = i;
        }
        std::vector<const KernelEntry*> out{&pick};
        for (size_t i : search_others(estimate_of(pick.cfg), clocks, pick_index)) out.push_back(whole[i]);
        return out;
    }

private:
    // The kernels the heuristic weighs for p: whole-grid kernels and split ones apart.
    struct Kernels {
        std::vector<const KernelEntry*> whole, splits;
    };
    static Kernels kernels_for(const spmma_problem& p) {
        Kernels k;
        for (const KernelEntry* e : matching_kernels(p)) (e->split() ? k.splits : k.whole).push_back(e);
        // NOTES: with an epilogue, D fit for TMA stores and k up to kTmaEpilogueMaxK, the kernels
        // that would store it directly (the 16-bit family's 128x256: 128 f32 accumulators in one
        // m64 block leave no registers for it in the TMA stores, TileConfig::
        // fuses_epilogue_in_tma_stores) are passed over while one that keeps TMA is left: the
        // serving op measured slower on them up to k = 8192 and faster beyond (bench/NOTES.md,
        // 2026-11-27, the epilogue's second form). The cost model has the direct stores' cost and
        // did not see either.
        constexpr int64_t kTmaEpilogueMaxK = 8192;
        if (spmma_problem_has_epilogue(&p) && tma_epilogue_possible(p) && p.k <= kTmaEpilogueMaxK) {
            const auto keeps_tma = [&](const TileConfig& c) { return tma_epilogue_for(c, p) || !c.tma_store(); };
            Kernels keep;
            for (const KernelEntry* e : k.whole)
                if (keeps_tma(e->cfg)) keep.whole.push_back(e);
            for (const KernelEntry* e : k.splits)
                if (keeps_tma(e->cfg) && keeps_tma(e->rest_cfg)) keep.splits.push_back(e);
            if (!keep.whole.empty()) k = keep;
        }
        return k;
    }
};

}  // namespace
}  // namespace spmma_sm90a

SPMMA_DEFINE_PLUGIN_BACKEND(spmma_sm90a::Sm90aBackend)

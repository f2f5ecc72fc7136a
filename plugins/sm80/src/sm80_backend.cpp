// The sm80 plugin: sparse GEMM with sm_80 mma.sp / mma.sp::ordered_metadata (HMMA.SP, IMMA.SP)
// for f16, bf16, tf32, s8/u8, s4/u4 and (sm_89+) e4m3/e5m2, on any device from sm_80 on. Its
// answers to the kit's checks (kernel_backend.hpp): which problems its kernels run, on which
// devices, and the kernel chosen when the host names none. Every "no" comes with its reason.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/kernel_backend.hpp>
#include <spmma_plugin/refusals.hpp>
#include <spmma_plugin/tile_grid.hpp>
#include <spmma_sm80/pack.hpp>
#include <spmma_sm80/split_k.hpp>

#include <cmath>
#include <limits>
#include <vector>

namespace spmma_sm80 {
namespace {

using spmma_plugin::cuda::DeviceProperties;
using spmma_plugin::is_float_type;
using spmma_plugin::types_label;

class Sm80Backend final : public spmma_plugin::cuda::KernelBackend<KernelDesc> {
public:
    spmma_plugin_info info() const override {
        return spmma_plugin::plugin_info(
            "sm80", "sm_80", "mma.sp (sm_80 warp-level sparse MMA): f16, bf16, tf32, s8/u8, s4/u4, e4m3/e5m2 (sm_89+)");
    }

    std::string runs_on(const DeviceProperties& dev) const override {
        if (dev.major < 8) return "needs sm_80 or newer, device is " + dev.arch();
        return {};
    }

protected:
    const spmma_plugin::KernelRegistry<KernelDesc>& registry() const override { return kernel_table(); }

    // Types, pattern, epilogue, sizes.
    std::string problem_reason(const spmma_problem& p) const override {
        const std::string types = types_label(p.a_type, p.b_type, p.acc_type);
        if (p.scale_type != SPMMA_DTYPE_NONE)
            return "block-scaled operands are not an mma.sp form before sm_120a (this plugin runs sm_80 mma.sp)";
        if (p.saturate && p.acc_type != SPMMA_S32) return "satfinite applies to s32 accumulation only";
        const std::vector<const KernelDesc*> matching = matching_kernels(p);
        if (matching.empty())
            return "no sm_80 mma.sp form for " + types + (p.saturate ? " satfinite" : "") +
                   "; supported: f16 (f32/f16 acc), bf16, tf32, s8/u8, s4/u4 (s32 acc), e4m3/e5m2 (f32 acc, sm_89+)";
        const OpInfo* op = matching.front()->op;
        if (p.pattern != pattern_of(op->family))
            return std::string(spmma_dtype_name(p.a_type)) + " takes the " + spmma_pattern_name(pattern_of(op->family)) +
                   " pattern on A, not " + spmma_pattern_name(p.pattern);
        if (op->acc == SPMMA_S32) {
            if (p.d_type != SPMMA_S32) return std::string("integer problems write s32 D, not ") + spmma_dtype_name(p.d_type);
            if (p.beta != 0 && p.c_type != SPMMA_S32)
                return std::string("integer problems read s32 C, not ") + spmma_dtype_name(p.c_type);
            if (p.alpha != std::floor(p.alpha) || p.beta != std::floor(p.beta) || std::fabs(p.alpha) > 9.0e15 ||
                std::fabs(p.beta) > 9.0e15)
                return "integer problems take integer alpha and beta";
        } else {
            if (!is_float_type(p.d_type))
                return std::string("D must be f32, f16 or bf16 for ") + types + ", not " + spmma_dtype_name(p.d_type);
            if (p.beta != 0 && !is_float_type(p.c_type))
                return std::string("C must be f32, f16 or bf16 for ") + types + ", not " + spmma_dtype_name(p.c_type);
        }
        constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max() - 256;
        if (p.m > kMaxDim || p.n > kMaxDim || p.k > kMaxDim) return "m, n and k must be below 2^31";
        return {};
    }

    // The float kernels fuse every epilogue of ABI 1.2 into their epilogue (sm80_spgemm.cuh,
    // epilogue_tile).
    std::string epilogue_reason(const spmma_problem& p) const override { return spmma_plugin::fused_epilogue_reason(p); }

    // The kernel's type combination.
    std::string kernel_reason(const KernelDesc& k, const spmma_problem& p) const override {
        if (op_matches(*k.op, p)) return {};
        return "kernel " + k.name + " runs " + types_label(k.op->a, k.op->b, k.op->acc, k.op->satfinite) + ", not " +
               types_label(p);
    }

    // The device's arch (e4m3/e5m2 need sm_89), shared memory, the grid.
    std::string kernel_device_reason(const KernelDesc& k, const spmma_problem& p, const DeviceProperties& dev) const override {
        if (dev.major * 10 + dev.minor < k.op->min_sm)
            return std::string(spmma_dtype_name(k.op->a)) + " mma.sp needs sm_" + std::to_string(k.op->min_sm) +
                   " or newer, device is " + dev.arch();
        return spmma_plugin::cuda::cta_tile_reason(k.name, k.smem_bytes(), k.tile.bm, k.tile.bn, p, dev);
    }

    // Ordered metadata, the tile whose waves fill the device best (big tiles preferred); the
    // decode tiles (n below 128) only where n fits one tile column, so A is read once, and the
    // widest of them (64) also in two, so that grids of 65-128 tokens split too.
    const KernelDesc* choose(const spmma_problem& p, const DeviceProperties& dev, std::string* why) const override {
        const auto candidate = [&](const KernelDesc& k) {
            return k.ordered && (k.tile.bn >= 128 || p.n <= k.tile.bn || (k.tile.bn == 64 && p.n <= 128));
        };
        return best_fit(p, dev, why, candidate, [&](const KernelDesc& k) {
            // NOTES: the share of the last wave's SMs that get work, times a per-tile efficiency
            // (fewer bytes per flop for the big tiles; 3 stages hide less latency than 4), times
            // the share of computed elements inside m x n. A grid that split-K spreads over the
            // device (split_k.hpp) fills the CTA slots it counts, not waves of one CTA an SM.
            const spmma_plugin::TileGrid grid = spmma_plugin::tile_grid(p.m, p.n, k.tile.bm, k.tile.bn);
            const int smem_per_sm = dev.max_smem_per_block_optin + 1024;
            const int64_t slots = int64_t(dev.sm_count) * resident_ctas_per_sm(k.tile, k.op->family, smem_per_sm);
            const int64_t stages = (p.k + k.op->family.stage_k() - 1) / k.op->family.stage_k();
            const int splits = k_splits_on(k.tile, k.op->family, grid.tiles(), stages, dev.sm_count, smem_per_sm);
            const double fill = splits > 1 ? double(grid.tiles() * splits) / double(slots) : grid.wave_fill(dev.sm_count);
            const double area = double(k.tile.bm) * k.tile.bn;
            double eff = area >= 32768 ? (k.tile.bm >= k.tile.bn ? 1.0 : 0.97) : 0.82;
            if (k.tile.stages < 4) eff *= 0.95;
            return fill * eff * grid.used(p.m, p.n);
        });
    }
};

}  // namespace
}  // namespace spmma_sm80

SPMMA_DEFINE_PLUGIN_BACKEND(spmma_sm80::Sm80Backend)

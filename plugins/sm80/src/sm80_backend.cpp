// The sm80 plugin: sparse GEMM with sm_80 mma.sp / mma.sp::ordered_metadata (HMMA.SP, IMMA.SP)
// for f16, bf16, tf32, s8/u8, s4/u4 and (sm_89+) e4m3/e5m2, on any device from sm_80 on. Its
// answers to the kit's checks (kernel_backend.hpp): which problems its kernels run, on which
// devices, and the kernel chosen when the host names none. Every "no" comes with its reason.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/kernel_backend.hpp>
#include <spmma_plugin/refusals.hpp>
#include <spmma_sm80/pack.hpp>
#include <spmma_sm80/tile_choice.hpp>

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

    // Ordered metadata, the candidate tile of the highest score (tile_choice.hpp).
    const KernelDesc* choose(const spmma_problem& p, const DeviceProperties& dev, std::string* why) const override {
        return best_fit(
            p, dev, why, [&](const KernelDesc& k) { return k.ordered && tile_candidate(k.tile, p.n); },
            [&](const KernelDesc& k) {
                return tile_score(k.tile, k.op->family, p.m, p.n, p.k, dev.sm_count, dev.max_smem_per_block_optin + 1024);
            });
    }
};

}  // namespace
}  // namespace spmma_sm80

SPMMA_DEFINE_PLUGIN_BACKEND(spmma_sm80::Sm80Backend)

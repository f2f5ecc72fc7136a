// Which problems the sm80 kernels can run, on which device, and the kernel chosen when the host
// names none: the sm80 plugin's answers to the kit's checks (kernel_backend.hpp).
#include "sm80_backend.hpp"

#include "../pack/pack.hpp"

#include <spmma_plugin/refusals.hpp>

#include <cmath>
#include <limits>

namespace spmma_sm80 {
namespace {

using spmma_plugin::cuda::DeviceProperties;
using spmma_plugin::is_float_type;
using spmma_plugin::types_label;

std::string type_list() {
    return "f16 (f32/f16 acc), bf16, tf32, s8/u8, s4/u4 (s32 acc), e4m3/e5m2 (f32 acc, sm_89+)";
}

bool op_matches(const OpInfo& op, const spmma_problem& p) {
    return op.a == p.a_type && op.b == p.b_type && op.acc == p.acc_type && op.satfinite == (p.saturate != 0);
}

}  // namespace

std::string Sm80Backend::runs_on(const DeviceProperties& dev) const {
    if (dev.major < 8) return "needs sm_80 or newer, device is " + dev.arch();
    return {};
}

std::string Sm80Backend::problem_reason(const spmma_problem& p) const {
    const std::string types = types_label(p.a_type, p.b_type, p.acc_type);
    if (p.scale_type != SPMMA_DTYPE_NONE)
        return "block-scaled operands are not an mma.sp form before sm_120a (this plugin runs sm_80 mma.sp)";
    if (p.saturate && p.acc_type != SPMMA_S32) return "satfinite applies to s32 accumulation only";
    const OpInfo* op = nullptr;
    for (const KernelDesc& k : kernel_table().entries())
        if (op_matches(*k.op, p)) {
            op = k.op;
            break;
        }
    if (!op) return "no sm_80 mma.sp form for " + types + (p.saturate ? " satfinite" : "") + "; supported: " + type_list();
    if (p.pattern != pattern_of(op->family))
        return std::string(spmma_dtype_name(p.a_type)) + " takes the " + spmma_pattern_name(pattern_of(op->family)) +
               " pattern on A, not " + spmma_pattern_name(p.pattern);
    if (op->acc == SPMMA_S32) {
        if (p.d_type != SPMMA_S32) return std::string("integer problems write s32 D, not ") + spmma_dtype_name(p.d_type);
        if (p.beta != 0 && p.c_type != SPMMA_S32) return std::string("integer problems read s32 C, not ") + spmma_dtype_name(p.c_type);
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

std::string Sm80Backend::kernel_reason(const KernelDesc& k, const spmma_problem& p) const {
    if (op_matches(*k.op, p)) return {};
    return std::string("kernel ") + k.name + " runs " + types_label(k.op->a, k.op->b, k.op->acc, k.op->satfinite) +
           ", not " + types_label(p);
}

std::string Sm80Backend::kernel_device_reason(const KernelDesc& k, const spmma_problem& p, const DeviceProperties& dev) const {
    const int cc = dev.major * 10 + dev.minor;
    if (cc < k.op->min_sm)
        return std::string(spmma_dtype_name(k.op->a)) + " mma.sp needs sm_" + std::to_string(k.op->min_sm) +
               " or newer, device is " + dev.arch();
    if (auto why = spmma_plugin::shared_memory_reason(k.name, k.smem_bytes(), dev.max_smem_per_block_optin, dev.arch());
        !why.empty())
        return why;
    return spmma_plugin::tile_count_reason(p.m, p.n, k.tile.bm, k.tile.bn);
}

const KernelDesc* Sm80Backend::choose(const spmma_problem& p, const DeviceProperties& dev, std::string* why) const {
    const KernelDesc* best = nullptr;
    double best_score = -1;
    std::string last;
    const int sms = dev.sm_count > 0 ? dev.sm_count : 1;
    for (const KernelDesc& k : kernel_table().entries()) {
        if (!k.ordered || !kernel_reason(k, p).empty()) continue;
        if (std::string r = kernel_device_reason(k, p, dev); !r.empty()) {
            last = r;
            continue;
        }
        // NOTES: the share of the last wave's SMs that get work, times a per-tile efficiency
        // (fewer bytes per flop for the big tiles; 3 stages hide less latency than 4).
        const double tiles = double((p.m + k.tile.bm - 1) / k.tile.bm) * double((p.n + k.tile.bn - 1) / k.tile.bn);
        const double waves = std::ceil(tiles / sms);
        const double fill = tiles / (waves * sms);
        const double area = double(k.tile.bm) * k.tile.bn;
        double eff = area >= 32768 ? (k.tile.bm >= k.tile.bn ? 1.0 : 0.97) : 0.82;
        if (k.tile.stages < 4) eff *= 0.95;
        // Padding waste: rows and columns computed past m and n.
        const double used = double(p.m) * double(p.n) /
                            (double((p.m + k.tile.bm - 1) / k.tile.bm * k.tile.bm) * double((p.n + k.tile.bn - 1) / k.tile.bn * k.tile.bn));
        const double score = fill * eff * used;
        if (score > best_score) {
            best_score = score;
            best = &k;
        }
    }
    if (!best && why) *why = last.empty() ? problem_reason(p) : last;
    return best;
}

}  // namespace spmma_sm80

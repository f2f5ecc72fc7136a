// The sm120a plugin: sparse GEMM with the sm_120a mma.sp::ordered_metadata .kind forms
// (kind::f8f6f4 QMMA.SP; block-scaled kind::mxf8f6f4 QMMA.SF.SP, kind::mxf4 / mxf4nvf4
// OMMA.SF.SP) on sm_120 / sm_121 devices only. Compiled and checked on the instruction model;
// not yet run on sm_120 hardware (README.md). Its answers to the kit's checks
// (kernel_backend.hpp): the device (sm_120 / sm_121 only), the problems that map onto an sm_120a
// mma.sp .kind form, and the kernel chosen for a problem.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/kernel_backend.hpp>
#include <spmma_plugin/refusals.hpp>
#include <spmma_plugin/tile_grid.hpp>

#include <limits>

namespace spmma_sm120a {
namespace {

using spmma_plugin::cuda::DeviceProperties;
using spmma_plugin::is_float_type;

std::string problem_label(const spmma_problem& p) {
    std::string s = spmma_plugin::types_label(p.a_type, p.b_type, p.acc_type) + " (" + spmma_pattern_name(p.pattern) + ")";
    if (p.scale_type != SPMMA_DTYPE_NONE)
        s += std::string(", ") + spmma_dtype_name(p.scale_type) + " per " + std::to_string(p.scale_block) + " k";
    return s;
}

// Why the block-scale parameters fit no sm_120a sparse form (empty when they fit one).
std::string scale_reason(const spmma_problem& p) {
    const std::string block = std::to_string(p.scale_block);
    if (p.scale_type != SPMMA_UE8M0 && p.scale_type != SPMMA_UE4M3)
        return std::string("block scales are ue8m0 or ue4m3, not ") + spmma_dtype_name(p.scale_type);
    if (p.acc_type != SPMMA_F32) return "block-scaled mma.sp accumulates in f32";
    if (p.pattern == SPMMA_PATTERN_2_4) {
        if (p.scale_type != SPMMA_UE8M0)
            return "kind::mxf8f6f4 (2:4 A) takes ue8m0 scales; ue4m3 (nvf4) is kind::mxf4nvf4, e2m1 with the pairwise 4:8 pattern";
        if (p.scale_block != 64)
            return "sparse kind::mxf8f6f4 (m16n8k64, scale_vec::1X) scales 64 elements of k per factor; a " + block +
                   "-element scale block is no sm_120a mma.sp form";
        return {};
    }
    if (p.scale_type == SPMMA_UE8M0) {
        if (p.scale_block == 64) return {};
        if (p.scale_block == 32)
            return "ue8m0 scales per 32 elements of k need mma.sp kind::mxf4nvf4 scale_vec::4X with ue8m0 (PTX ISA 9.1), "
                   "which this build's ptxas lacks; sparse ue8m0 e2m1 blocks are 64 elements (scale_vec::2X)";
        return "sparse kind::mxf4 / mxf4nvf4 (m16n8k128) with ue8m0 scale 64 elements of k per factor (scale_vec::2X); a " +
               block + "-element scale block is no sm_120a mma.sp form";
    }
    if (p.scale_block != 32)
        return "sparse kind::mxf4nvf4 with ue4m3 is scale_vec::4X: one scale per 32 elements of k (m16n8k128); a " + block +
               "-element scale block is no sm_120a mma.sp form";
    return {};
}

class Sm120aBackend final : public spmma_plugin::cuda::KernelBackend<KernelDesc> {
public:
    spmma_plugin_info info() const override {
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
        return spmma_plugin::plugin_info(
            "sm120a-swmma", "sm_80",
            "CHECK BUILD of the sm120a kernels for sm_80 / sm_90: pipeline, fragments, scale words and epilogue on the GPU, "
            "the mma.sp in software; not a performance plugin");
#else
        return spmma_plugin::plugin_info(
            "sm120a", "sm_120a",
            "mma.sp .kind forms of sm_120a: kind::f8f6f4 (e4m3/e5m2/e3m2/e2m3/e2m1), block-scaled kind::mxf8f6f4, "
            "kind::mxf4, kind::mxf4nvf4 (compiled and checked on the model; not yet run on sm_120 hardware)");
#endif
    }

    std::string runs_on(const DeviceProperties& dev) const override {
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
        // The check build: sm_80 / sm_90 SASS with the mma.sp in software (mma_software.cuh).
        if (dev.major == 8 || dev.major == 9) return {};
        return "the sm120a software-mma check build runs on sm_80 .. sm_90; device is " + dev.arch();
#endif
        if (dev.major == 12 && (dev.minor == 0 || dev.minor == 1)) return {};
        return "built, needs sm_120a (RTX Blackwell / GB20x) or sm_121a (GB10); device is " + dev.arch();
    }

protected:
    const spmma_plugin::KernelRegistry<KernelDesc>& registry() const override { return kernel_table(); }

    // The kernels fuse every epilogue of ABI 1.2 into theirs (sm120a_spgemm.cuh, epilogue_vec4).
    std::string epilogue_reason(const spmma_problem& p) const override { return spmma_plugin::fused_epilogue_reason(p); }

    // Types, pattern, scales, epilogue, sizes, and a kernel for that form.
    std::string problem_reason(const spmma_problem& p) const override {
        if (!is_f8f6f4_type(p.a_type) || !is_f8f6f4_type(p.b_type))
            return std::string("no sm_120a mma.sp .kind form takes ") + spmma_dtype_name(p.a_type) + " x " +
                   spmma_dtype_name(p.b_type) + ": A and B must be e4m3, e5m2, e3m2, e2m3 or e2m1 (other types: the sm80 plugin)";
        if (p.saturate) return "satfinite applies to s32 accumulation only";
        if (!is_float_type(p.d_type)) return std::string("D must be f32, f16 or bf16, not ") + spmma_dtype_name(p.d_type);
        if (p.beta != 0 && p.c_type != p.d_type)
            return std::string("C must have D's type (") + spmma_dtype_name(p.d_type) + "), not " + spmma_dtype_name(p.c_type);
        if (p.pattern != SPMMA_PATTERN_2_4 && p.pattern != SPMMA_PATTERN_4_8_PAIRWISE)
            return std::string("A must be 2:4 sparse (kind::f8f6f4 / mxf8f6f4) or pairwise 4:8 e2m1 (kind::mxf4 / mxf4nvf4), not ") +
                   spmma_pattern_name(p.pattern);
        if (p.pattern == SPMMA_PATTERN_4_8_PAIRWISE && (p.a_type != SPMMA_E2M1 || p.b_type != SPMMA_E2M1))
            return std::string("pairwise 4:8 sparsity is kind::mxf4 / mxf4nvf4, e2m1 x e2m1 only, not ") +
                   spmma_dtype_name(p.a_type) + " x " + spmma_dtype_name(p.b_type) + " (those take 2:4)";
        if (p.scale_type == SPMMA_DTYPE_NONE) {
            if (p.pattern != SPMMA_PATTERN_2_4)
                return "pairwise 4:8 e2m1 is kind::mxf4 / mxf4nvf4, which are block-scaled: give a scale type";
            if (p.acc_type != SPMMA_F32 && p.acc_type != SPMMA_F16)
                return std::string("kind::f8f6f4 accumulates in f32 or f16, not ") + spmma_dtype_name(p.acc_type);
            if (p.acc_type == SPMMA_F16 && p.d_type != SPMMA_F16)
                return std::string("f16 accumulation writes f16 D, not ") + spmma_dtype_name(p.d_type);
        } else {
            const std::string why = scale_reason(p);
            if (!why.empty()) return why;
        }
        if (p.scale_type != SPMMA_DTYPE_NONE && p.k % p.scale_block != 0)
            return "k must be a multiple of the scale block " + std::to_string(p.scale_block) + " (k = " + std::to_string(p.k) + ")";
        constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max() - 512;
        if (p.m > kMaxDim || p.n > kMaxDim || p.k > kMaxDim) return "m, n and k must be below 2^31";
        if (!matching_kernels(p).empty()) return {};
        return "no sm120a kernel for " + problem_label(p);
    }

    // The kernel's form (types, pattern, accumulator, scales).
    std::string kernel_reason(const KernelDesc& k, const spmma_problem& p) const override {
        if (form_matches(k.form, p)) return {};
        return "kernel " + k.name + " runs " + form_label(k.form) + ", not " + problem_label(p);
    }

    // Shared memory and the grid.
    std::string kernel_device_reason(const KernelDesc& k, const spmma_problem& p, const DeviceProperties& dev) const override {
        return spmma_plugin::cuda::cta_tile_reason(k.name, k.smem_bytes(), k.tile.bm, k.tile.bn, p, dev);
    }

    // The tile whose waves fill the device best.
    const KernelDesc* choose(const spmma_problem& p, const DeviceProperties& dev, std::string* why) const override {
        return best_fit(p, dev, why, [](const KernelDesc&) { return true; }, [&](const KernelDesc& k) {
            // NOTES: the share of the last wave's SMs that get work, times a per-tile efficiency
            // (the 128x128 tile moves fewer bytes per flop), times the share of computed elements
            // that lie inside m x n. Ties keep the first kernel (kind::mxf4 before mxf4nvf4 2X).
            const spmma_plugin::TileGrid grid = spmma_plugin::tile_grid(p.m, p.n, k.tile.bm, k.tile.bn);
            const double eff = k.tile.bn >= 128 ? 1.0 : 0.85;
            return grid.wave_fill(dev.sm_count) * eff * grid.used(p.m, p.n);
        });
    }
};

}  // namespace
}  // namespace spmma_sm120a

SPMMA_DEFINE_PLUGIN_BACKEND(spmma_sm120a::Sm120aBackend)

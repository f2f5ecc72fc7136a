#include "kernel_table.hpp"

#include <spmma_plugin/cuda_gemm.hpp>

#include <vector>

SPMMA_DECLARE_FATBIN(sm80_spgemm_f16)
SPMMA_DECLARE_FATBIN(sm80_spgemm_bf16)
SPMMA_DECLARE_FATBIN(sm80_spgemm_tf32)
SPMMA_DECLARE_FATBIN(sm80_spgemm_i8)
SPMMA_DECLARE_FATBIN(sm80_spgemm_i4)
SPMMA_DECLARE_FATBIN(sm80_spgemm_f8)

namespace spmma_sm80 {
namespace {

std::string describe(const OpInfo& op, bool ordered, const Tile& t) {
    std::string s = std::string(spmma_dtype_name(op.a)) + " x " + spmma_dtype_name(op.b) + " -> " +
                    spmma_dtype_name(op.acc) + (op.satfinite ? " (satfinite)" : "") + ", " +
                    std::to_string(t.bm) + "x" + std::to_string(t.bn) + " CTA of " + std::to_string(t.warps()) +
                    " warps (" + std::to_string(t.wm) + "x" + std::to_string(t.wn) + " each), " +
                    std::to_string(t.stages) + " cp.async stages, " +
                    std::to_string(t.smem_bytes(op.family) / 1024) + " KiB shared, " +
                    (ordered ? "mma.sp::ordered_metadata" : "mma.sp");
    if (op.min_sm > 80) s += ", sm_" + std::to_string(op.min_sm) + "+";
    return s;
}

std::vector<KernelDesc> build() {
    std::vector<KernelDesc> v;
    auto add = [&](const void* image, const char* name, const OpInfo& op, bool ordered, Tile t) {
        v.push_back(KernelDesc{{name, describe(op, ordered, t), image, {}}, &op, ordered, t});
    };
#define SPMMA_SM80_KERNEL(name, tag, ordered, bm, bn, wm, wn, stages) \
    add(image, #name, tags::tag, bool(ordered), Tile{bm, bn, wm, wn, stages});
    {
        const void* image = SPMMA_FATBIN(sm80_spgemm_f16);
#include <spmma_sm80/kernels/f16.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm80_spgemm_bf16);
#include <spmma_sm80/kernels/bf16.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm80_spgemm_tf32);
#include <spmma_sm80/kernels/tf32.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm80_spgemm_i8);
#include <spmma_sm80/kernels/i8.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm80_spgemm_i4);
#include <spmma_sm80/kernels/i4.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm80_spgemm_f8);
#include <spmma_sm80/kernels/f8.inc>
    }
#undef SPMMA_SM80_KERNEL
    return v;
}

}  // namespace

const spmma_plugin::KernelRegistry<KernelDesc>& kernel_table() { return spmma_plugin::kernel_registry<KernelDesc, build>(); }

}  // namespace spmma_sm80

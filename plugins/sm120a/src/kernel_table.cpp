#include "kernel_table.hpp"

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_sm120a/kernel_tiles.hpp>

#include <vector>

#if defined(SPMMA_SM120A_SOFTWARE_MMA)
SPMMA_DECLARE_FATBIN(sm120a_spgemm_swmma)
#else
SPMMA_DECLARE_FATBIN(sm120a_spgemm_f8f6f4)
SPMMA_DECLARE_FATBIN(sm120a_spgemm_mxf8f6f4)
SPMMA_DECLARE_FATBIN(sm120a_spgemm_mxf4)
SPMMA_DECLARE_FATBIN(sm120a_spgemm_mxf4nvf4)
#endif

namespace spmma_sm120a {

std::string form_label(const Form& f) {
    std::string s = kind_name(f.kind);
    if (f.scaled()) s += ".block_scale.scale_vec::" + std::to_string(f.scale_vec) + "X";
    s += std::string(" ") + spmma_dtype_name(f.a) + " x " + spmma_dtype_name(f.b) + " -> " + spmma_dtype_name(f.acc);
    if (f.scaled()) s += std::string(", ") + spmma_dtype_name(f.scale) + " per " + std::to_string(f.scale_block()) + " k";
    return s;
}

namespace {

std::string describe(const Form& f, const Tile& t) {
    return form_label(f) + ", " + std::to_string(t.bm) + "x" + std::to_string(t.bn) + " CTA of " +
           std::to_string(t.warps()) + " warps (" + std::to_string(t.wm) + "x" + std::to_string(t.wn) + " each), " +
           std::to_string(t.stages) + " cp.async stages, " + std::to_string(t.smem_bytes(f) / 1024) + " KiB shared"
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
           + " (check build: the mma.sp is done in software)"
#endif
        ;
}

std::vector<KernelDesc> build() {
    std::vector<KernelDesc> v;
#define SPMMA_SM120A_KERNEL(name, KIND, A, B, ACC, SV, SCALE, bm, bn, wm, wn, stages)                    \
    {                                                                                                     \
        const Form f = SPMMA_SM120A_FORM(KIND, A, B, ACC, SV, SCALE);                                     \
        const Tile t{bm, bn, wm, wn, stages};                                                             \
        v.push_back(KernelDesc{{#name, describe(f, t), image, {}}, f, t});                                \
    }
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
    {
        const void* image = SPMMA_FATBIN(sm120a_spgemm_swmma);
#include <spmma_sm120a/kernels/swmma.inc>
    }
#else
    {
        const void* image = SPMMA_FATBIN(sm120a_spgemm_f8f6f4);
#include <spmma_sm120a/kernels/f8f6f4.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm120a_spgemm_mxf8f6f4);
#include <spmma_sm120a/kernels/mxf8f6f4.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm120a_spgemm_mxf4);
#include <spmma_sm120a/kernels/mxf4.inc>
    }
    {
        const void* image = SPMMA_FATBIN(sm120a_spgemm_mxf4nvf4);
#include <spmma_sm120a/kernels/mxf4nvf4.inc>
    }
#endif
#undef SPMMA_SM120A_KERNEL
    return v;
}

}  // namespace

const spmma_plugin::KernelRegistry<KernelDesc>& kernel_table() { return spmma_plugin::kernel_registry<KernelDesc, build>(); }

}  // namespace spmma_sm120a

// The sm120a plugin's kernels as the host sees them: name, form, tile, and the embedded fatbin
// the kernel lives in (include/spmma_sm120a/kernels/*.inc lists them).
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/backend.hpp>
#include <spmma_plugin/kernel_registry.hpp>
#include <spmma_sm120a/layout.hpp>

#include <memory>
#include <string>

namespace spmma_sm120a {

struct KernelDesc : spmma_plugin::KernelCode {
    Form form{};
    Tile tile{};

    const Form& packing() const { return form; }  // what pack/ packs for
    int smem_bytes() const { return tile.smem_bytes(form); }
    int threads() const { return tile.threads(); }
};

// Every kernel, in the order of the .inc files.
const spmma_plugin::KernelRegistry<KernelDesc>& kernel_table();

// One created problem on kernel k (sm120a_gemm.cpp).
std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k);

// "kind::mxf4nvf4.block_scale.scale_vec::4X e2m1 x e2m1 -> f32, ue4m3" and the like.
std::string form_label(const Form& f);

}  // namespace spmma_sm120a

// The sm120a plugin's kernels as the host sees them: name, form, tile, and the embedded fatbin
// the kernel lives in (include/spmma_sm120a/kernel_list.hpp lists them).
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/kernel_registry.hpp>
#include <spmma_sm120a/layout.hpp>

#include <string>

namespace spmma_sm120a {

struct KernelDesc {
    const char* name;
    Form form;
    Tile tile;
    const void* image;  // the fatbin holding it
    std::string description;

    int smem_bytes() const { return tile.smem_bytes(form); }
    int threads() const { return tile.threads(); }
};

// Every kernel, in kernel_list.hpp's order.
const spmma_plugin::KernelRegistry<KernelDesc>& kernel_table();

// "kind::mxf4nvf4.block_scale.scale_vec::4X e2m1 x e2m1 -> f32, ue4m3" and the like.
std::string form_label(const Form& f);

}  // namespace spmma_sm120a

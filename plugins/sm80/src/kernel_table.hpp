// The sm80 plugin's kernels as the host sees them: name, types, tile, and the embedded fatbin
// the kernel lives in (include/spmma_sm80/kernels/*.inc lists them).
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/backend.hpp>
#include <spmma_plugin/kernel_registry.hpp>
#include <spmma_sm80/layout.hpp>
#include <spmma_sm80/op_tags.hpp>

#include <memory>
#include <string>

namespace spmma_sm80 {

struct KernelDesc : spmma_plugin::KernelCode {
    const OpInfo* op = nullptr;
    bool ordered = true;  // mma.sp::ordered_metadata (else mma.sp)
    Tile tile{};

    const Family& packing() const { return op->family; }  // what pack/ packs for
    int smem_bytes() const { return tile.smem_bytes(op->family); }
    int threads() const { return tile.threads(); }
};

// Every kernel, in the order of the .inc files.
const spmma_plugin::KernelRegistry<KernelDesc>& kernel_table();

// One created problem on kernel k (sm80_gemm.cpp).
std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k);

}  // namespace spmma_sm80

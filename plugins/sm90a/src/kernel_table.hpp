// The sm90a kernels the plugin offers (one per line of include/spmma_sm90a/kernels/*.inc) with
// what the host needs to run each: its fatbin, its operand types and its tile configuration.
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/backend.hpp>
#include <spmma_plugin/kernel_registry.hpp>
#include <spmma_sm90a/tile_config.hpp>

#include <memory>
#include <string>

namespace spmma_sm90a {

struct KernelEntry : spmma_plugin::KernelCode {
    spmma_dtype a_type, b_type;
    spmma_dtype acc_type;     // F32, F16 or S32
    bool satfinite;           // s32 with .satfinite
    TileConfig cfg;
    // A split kernel (split_plan.hpp) runs `symbol` (its main grid, cfg) beside the kernel
    // rest_symbol (its rest grid, rest_cfg); an ordinary one has no rest_symbol.
    std::string rest_symbol;
    TileConfig rest_cfg{};

    bool split() const { return !rest_symbol.empty(); }
};

// Every kernel, in the order of the .inc files.
const spmma_plugin::KernelRegistry<KernelEntry>& kernel_table();

// One created problem on kernel e (sm90a_gemm.cpp).
std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelEntry& e);

}  // namespace spmma_sm90a

// The sm90a kernels the plugin offers (one per line of include/spmma_sm90a/kernels/*.inc) with
// what the host needs to run each: its fatbin, its operand types and its tile configuration.
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/kernel_registry.hpp>
#include <spmma_sm90a/tile_config.hpp>

#include <string>

namespace spmma_sm90a {

struct KernelEntry {
    std::string name;         // also the extern "C" symbol in the fatbin
    std::string description;  // one line
    const void* image;        // embedded fatbin holding the kernel
    spmma_dtype a_type, b_type;
    spmma_dtype acc_type;     // F32, F16 or S32
    bool satfinite;           // s32 with .satfinite
    TileConfig cfg;
};

// Every kernel, in the order of the .inc files.
const spmma_plugin::KernelRegistry<KernelEntry>& kernel_table();

}  // namespace spmma_sm90a

// One emulated kernel: a GPU plugin's kernel as the emu plugin runs it on the CPU (that family's
// host packing, then every instruction the kernel issues -- mma.sp, wgmma.mma_async.sp or
// tcgen05.mma.sp, with the copies that feed them -- through the instruction models).
#pragma once

#include <spmma/plugin.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace spmma_emu {

// The canonical operands of one problem (plugin.h layouts), owned.
struct Canonical {
    std::vector<uint8_t> a_values, a_indices, b, c, scale_a, scale_b;
};

struct EmuKernel {
    std::string name;          // "emu_" + the GPU kernel's name
    std::string description;
    // Why the kernel cannot compute p ("" when it can): types, pattern, scales, sizes.
    std::function<std::string(const spmma_problem&)> reason;
    // The accumulator the kernel ends with for every element of D (m x n row-major, exact
    // values of the f32/f16/s32 bits), computed through the family's packing and the model.
    std::function<std::vector<double>(const spmma_problem&, const Canonical&)> accumulate;
};

// The emulated kernels of each family built in (sm80, sm90a, sm100a, sm120a).
void add_sm80_kernels(std::vector<EmuKernel>& out);
void add_sm90a_kernels(std::vector<EmuKernel>& out);
void add_sm100a_kernels(std::vector<EmuKernel>& out);
void add_sm120a_kernels(std::vector<EmuKernel>& out);

// Reasons every family shares: D/C types for the accumulator, integer alpha/beta, the size the
// emulator accepts (the sparse multiply-adds the kernel's instructions perform, padding included).
std::string epilogue_reason(const spmma_problem& p);
std::string size_reason(const spmma_problem& p, int64_t multiply_adds);

}  // namespace spmma_emu

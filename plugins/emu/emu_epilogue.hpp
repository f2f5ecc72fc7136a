// The epilogue of the emulated kernels: D = alpha * acc + beta * C in D's type, or with ABI 1.2's
// epilogue act(alpha*rs*cs*acc + beta*C + bias) (plugin.h).
#pragma once

#include "emu_kernel.hpp"

#include <spmma_plugin/host_epilogue.hpp>

namespace spmma_emu {

// Floats: alpha*acc + beta*C computed in double, rounded to nearest even in d_type; with an
// epilogue (p has one), `epi` computes it in f32, as a kernel's epilogue would, rounded once.
// Integers: in 64-bit arithmetic, wrapped to 32 bits or clamped when p.saturate (plugin.h's
// rule). `c` may be empty when beta is 0. Writes m x n elements of d_type into d.
void epilogue(const spmma_problem& p, const std::vector<double>& acc, const std::vector<uint8_t>& c,
              const spmma_plugin::HostEpilogue& epi, void* d);

}  // namespace spmma_emu

// The epilogue of the emulated kernels: D = alpha * acc + beta * C in D's type (plugin.h).
#pragma once

#include "emu_kernel.hpp"

namespace spmma_emu {

// Floats: alpha*acc + beta*C computed in double, rounded to nearest even in d_type. Integers:
// in 64-bit arithmetic, wrapped to 32 bits or clamped when p.saturate (plugin.h's rule).
// `c` may be empty when beta is 0. Writes m x n elements of d_type into d.
void epilogue(const spmma_problem& p, const std::vector<double>& acc, const std::vector<uint8_t>& c, void* d);

}  // namespace spmma_emu

// The walk the mma.sp kernels (sm80, sm120a) share: each 16x8 output atom of D, its mma.sp
// chained along k with the accumulator carried from d to c, exactly what one warp does for one
// atom.
#pragma once

#include <spmma/isa/mma_sp.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace spmma_emu {

// Loads the inputs of mma `step` (0..steps-1 along k) of the atom at (row0, col0) into w: a, b,
// e, selector and scales; c is the walk's.
using LoadMma = std::function<void(spmma::isa::MmaSpWarp& w, int64_t row0, int64_t col0, int64_t step)>;

// Runs the atoms covering an m x n D (OpenMP over atoms, for_each_piece). Returns the final
// accumulators (m x n, row-major, exact values). Throws std::runtime_error naming the kernel, atom
// and step when the model reports an undefined input (the packing handed the instruction something
// PTX leaves undefined; the first atom in row-major order that met one).
std::vector<double> walk_atoms(const spmma::isa::MmaSp& form, int64_t m, int64_t n, int64_t steps, const LoadMma& load,
                               const std::string& kernel);

}  // namespace spmma_emu

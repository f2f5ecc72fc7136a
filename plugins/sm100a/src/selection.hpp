// Which problems the sm100a kernels take, which kernel runs a problem, and the heuristic that
// picks one from the shape when the caller names none.
#pragma once

#include "kernel_table.hpp"

#include <spmma_sm100a/problem_check.hpp>  // kernel_mismatch

#include <string>
#include <vector>

namespace spmma_sm100a {

// Empty when some sm100a kernel can compute `p`; otherwise the most specific reason.
std::string problem_unsupported_reason(const spmma_problem& p);

// The kernels that compute p, in table order.
std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p);

// The heuristic's choice among the matching kernels for a device with `sm_count` SMs (nullptr
// when none match): the largest tile that still fills the machine with one wave, else the most
// tiles.
const KernelEntry* choose_kernel(const spmma_problem& p, int sm_count);

// Raster band (in tiles along m) for a configuration: about 2048 rows of A per band.
int raster_group(const TileConfig& cfg, int64_t tiles_m);

}  // namespace spmma_sm100a

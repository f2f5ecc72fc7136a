// Which sm100a kernels compute a problem, and the raster that follows from the kernel chosen.
// The heuristic that picks a kernel is the backend's (sm100a_backend.cpp).
#pragma once

#include "kernel_table.hpp"

#include <vector>

namespace spmma_sm100a {

// The kernels that compute p, in table order.
std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p);

// Raster band (in tiles along m) for a configuration: about 2048 rows of A per band.
int raster_group(const TileConfig& cfg, int64_t tiles_m);

}  // namespace spmma_sm100a

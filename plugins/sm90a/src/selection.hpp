// Which problems the sm90a kernels take, which kernel runs a problem, and the heuristic that
// picks one from the shape when the caller names none.
#pragma once

#include "kernel_table.hpp"

#include <spmma_sm90a/problem_check.hpp>  // problem_unsupported_reason

#include <string>
#include <vector>

namespace spmma_sm90a {

// Whether kernel `e` computes problems of p's types (a, b, accumulator, satfinite).
bool kernel_matches(const KernelEntry& e, const spmma_problem& p);

// The kernels that match p, in table order.
std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p);

// The heuristic's choice among the matching kernels for a device with `sm_count` SMs (nullptr
// when none match): the least estimated time of the cost model (include/spmma_sm90a/
// perf_model.hpp: bytes per flop against shared-memory and L2 bandwidth, turns of tiles over the
// persistent CTAs, epilogue).
const KernelEntry* choose_kernel(const spmma_problem& p, int sm_count);

// Whether D of `p` may leave through TMA stores (the kernels' epilogue buffers): C is not read
// (beta == 0) and a row of D is a whole number of 16-byte units (TMA's pitch rule). Kernels
// without buffers (TileConfig::tma_store) store directly whatever this says.
bool tma_epilogue_possible(const spmma_problem& p);

// Raster band (in cluster tiles) for a configuration: about 2048 rows of A per band.
int raster_group(const TileConfig& cfg, int64_t cluster_tiles_m);

}  // namespace spmma_sm90a

// Which sm90a kernels compute a problem, and the launch choices that follow from the kernel
// chosen (epilogue; the raster band is tile_scheduler.hpp's). The heuristic that picks a kernel is the backend's
// (sm90a_backend.cpp).
#pragma once

#include "kernel_table.hpp"

#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_sm90a/epilogue_form.hpp>
#include <spmma_sm90a/perf_model.hpp>

#include <vector>

namespace spmma_sm90a {

// The kernels that compute problems of p's types (a, b, accumulator, satfinite) and, where p has
// ABI 1.2's epilogue, fuse it (kernel_fuses_epilogue), in table order.
std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p);

// Whether kernel e fuses ABI 1.2's epilogue: a float kernel whose consumers (both grids' for a
// split kernel) have the registers for it (TileConfig::fuses_epilogue).
bool kernel_fuses_epilogue(const KernelEntry& e);

// Whether D of `p` may leave through TMA stores (the kernels' epilogue buffers): C is not read
// (beta == 0), the epilogue no more than EpilogueForm::Linear, and a row of D is a whole number of
// 16-byte units (TMA's pitch rule). Kernels without buffers (TileConfig::tma_store) store directly
// whatever this says.
bool tma_epilogue_possible(const spmma_problem& p);

// Whether D of `p` leaves through the TMA stores of `cfg`: tma_epilogue_possible, and where p has
// ABI 1.2's epilogue, `cfg` fuses it there (TileConfig::fuses_epilogue_in_tma_stores); what the
// heuristic's estimate and the launch both assume.
bool tma_epilogue_for(const TileConfig& cfg, const spmma_problem& p);

// The cost model of this device: its DRAM bytes per SM clock at the peak clocks.
MachineModel machine_model(const spmma_plugin::cuda::DeviceProperties& dev);

// The clusters the launch of `cfg` on `p` deals stream-K ranges to, at most `clusters` (those
// resident), or 0 for whole tiles: the cost model's choice (perf_model.hpp, stream_k_clusters), as
// the heuristic's estimate assumed. SPMMA_SM90A_STREAMK=off|on (every cluster) and
// SPMMA_SM90A_SK_SPLITS=s (every tile in s ranges where the tiles are fewer than the clusters)
// override it for A/B runs.
int stream_k_clusters(const TileConfig& cfg, const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                      int64_t cluster_tiles, int clusters);

// The clusters whole tiles of `cfg` on `p` run on, of `clusters` resident: where DRAM bounds the
// launch (perf_model.hpp, stream_k_pays) as many as give every cluster the same number of tiles
// (balanced_clusters), else all. SPMMA_SM90A_CLUSTERS=resident|balanced|<count> overrides it for
// A/B runs (a count: at most `clusters`).
int whole_tile_clusters(const TileConfig& cfg, const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                        int64_t cluster_tiles, int clusters);

}  // namespace spmma_sm90a

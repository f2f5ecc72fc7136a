// The sm90a plugin's Backend: which problems its kernels take, which kernel runs a problem, and
// the heuristic that picks one from the shape when the caller names none (selection.cpp); what
// it is and the Gemm it creates (sm90a_backend.cpp). Also the launch choices that follow from
// the selection (epilogue, raster).
#pragma once

#include "kernel_table.hpp"

#include <spmma_plugin/kernel_backend.hpp>

#include <string>
#include <vector>

namespace spmma_sm90a {

class Sm90aBackend final : public spmma_plugin::cuda::KernelBackend<KernelEntry> {
public:
    spmma_plugin_info info() const override;
    // sm_90a: Hopper only.
    std::string runs_on(const spmma_plugin::cuda::DeviceProperties& p) const override;

protected:
    const spmma_plugin::KernelRegistry<KernelEntry>& registry() const override { return kernel_table(); }
    // problem_check.hpp's reasons (shared with the emu plugin), then a kernel for p's types.
    std::string problem_reason(const spmma_problem& p) const override;
    std::string kernel_reason(const KernelEntry& e, const spmma_problem& p) const override;
    // The least estimated time of the cost model (include/spmma_sm90a/perf_model.hpp: bytes per
    // flop against shared-memory and L2 bandwidth, turns of tiles over the persistent CTAs,
    // epilogue) among the matching kernels.
    const KernelEntry* choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                              std::string* why) const override;
    std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelEntry& e) const override;
};

// The kernels that compute problems of p's types (a, b, accumulator, satfinite), in table order.
std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p);

// Whether D of `p` may leave through TMA stores (the kernels' epilogue buffers): C is not read
// (beta == 0) and a row of D is a whole number of 16-byte units (TMA's pitch rule). Kernels
// without buffers (TileConfig::tma_store) store directly whatever this says.
bool tma_epilogue_possible(const spmma_problem& p);

// Raster band (in cluster tiles) for a configuration: about 2048 rows of A per band.
int raster_group(const TileConfig& cfg, int64_t cluster_tiles_m);

}  // namespace spmma_sm90a

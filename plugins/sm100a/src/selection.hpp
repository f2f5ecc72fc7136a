// The sm100a plugin's Backend: which problems its kernels take, which kernel runs a problem, and
// the heuristic that picks one from the shape when the caller names none (selection.cpp); what
// it is and the Gemm it creates (sm100a_backend.cpp).
#pragma once

#include "kernel_table.hpp"

#include <spmma_plugin/kernel_backend.hpp>

#include <string>
#include <vector>

namespace spmma_sm100a {

class Sm100aBackend final : public spmma_plugin::cuda::KernelBackend<KernelEntry> {
public:
    spmma_plugin_info info() const override;
    // sm_100a: B200 / GB200 only (target.hpp).
    std::string runs_on(const spmma_plugin::cuda::DeviceProperties& p) const override;

protected:
    const spmma_plugin::KernelRegistry<KernelEntry>& registry() const override { return kernel_table(); }
    // The most specific reason over every kernel (problem_check.hpp, shared with the emu plugin).
    std::string problem_reason(const spmma_problem& p) const override;
    // The kernel's own mismatch, "[kernel NAME]" after it.
    std::string kernel_reason(const KernelEntry& e, const spmma_problem& p) const override;
    // The largest tile that still fills the machine with one wave, else the most tiles.
    const KernelEntry* choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                              std::string* why) const override;
    std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelEntry& e) const override;
};

// The kernels that compute p, in table order.
std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p);

// Raster band (in tiles along m) for a configuration: about 2048 rows of A per band.
int raster_group(const TileConfig& cfg, int64_t tiles_m);

}  // namespace spmma_sm100a

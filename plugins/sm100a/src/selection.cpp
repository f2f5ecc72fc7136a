#include "selection.hpp"

#include <spmma_sm100a/problem_check.hpp>

#include <algorithm>
#include <cstdint>

namespace spmma_sm100a {

std::vector<const KernelEntry*> matching_kernels(const spmma_problem& p) {
    std::vector<const KernelEntry*> v;
    for (const KernelEntry& e : kernel_table().entries())
        if (kernel_mismatch(e.cfg.kind, e.cfg.sv, e.acc_type, p).empty()) v.push_back(&e);
    return v;
}

int raster_group(const TileConfig& cfg, int64_t tiles_m) {
    const int64_t g = std::max<int64_t>(1, 2048 / cfg.bm());
    return static_cast<int>(std::max<int64_t>(1, std::min(g, tiles_m)));
}

}  // namespace spmma_sm100a

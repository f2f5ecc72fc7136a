// Which output tile a CTA computes at step L of the persistent loop: the kernel's order of cluster
// tiles, shared with the host tests (which walk it to check that a split launch's two grids cover
// D once: split_plan.hpp).
#pragma once

#include <spmma_sm90a/kernel_params.hpp>
#include <spmma_sm90a/layout.hpp>  // SPMMA_HD
#include <spmma_sm90a/tile_config.hpp>

namespace spmma_sm90a {

// Cluster tiles (cm x cn CTA tiles) are visited in bands of `group` cluster rows (or columns when
// raster_along_n): inside a band, down the band first, then across, so that the ~132 tiles in
// flight at a time touch `group` row blocks of A and a few column blocks of B.
struct TileScheduler {
    int ctm, ctn, group, along_n;

    SPMMA_HD TileScheduler(const KernelParams& p, int cm, int cn)
        : ctm((p.tiles_m + cm - 1) / cm),
          ctn((p.tiles_n + cn - 1) / cn),
          group(p.raster_group > 0 ? p.raster_group : 1),
          along_n(p.raster_along_n) {}

    SPMMA_HD void cluster_tile(int L, int& tm, int& tn) const {
        const int rows = along_n ? ctn : ctm, cols = along_n ? ctm : ctn;
        const int per_band = group * cols;
        const int band = L / per_band, r = L % per_band;
        const int first = band * group;
        const int h = group < rows - first ? group : rows - first;
        const int a = first + r % h, b = r / h;
        if (along_n) {
            tn = a;
            tm = b;
        } else {
            tm = a;
            tn = b;
        }
    }
};

// Raster band (in cluster rows) for a configuration: about 2048 rows of A per band, at most the
// problem's `cluster_tiles_m`.
SPMMA_HD constexpr int raster_group(const TileConfig& cfg, int cluster_tiles_m) {
    const int g = 2048 / (cfg.bm * cfg.cm) > 1 ? 2048 / (cfg.bm * cfg.cm) : 1;
    return cluster_tiles_m < 1 ? 1 : g < cluster_tiles_m ? g : cluster_tiles_m;
}

}  // namespace spmma_sm90a

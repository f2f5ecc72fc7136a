// The grid of bm x bn CTA tiles over an m x n D, and the two measures a one-CTA-per-tile
// family's heuristic weighs (with its own per-tile efficiencies): how full the last wave of
// CTAs leaves the device, and how much of the computed area lies inside m x n. Pure C++.
#pragma once

#include <cmath>
#include <cstdint>

namespace spmma_plugin {

struct TileGrid {
    int64_t tiles_m = 0, tiles_n = 0;
    int bm = 0, bn = 0;

    int64_t tiles() const { return tiles_m * tiles_n; }
    // tiles / (waves * sms): 1 when every wave of `sms` CTAs is full (sms below 1 counts as 1).
    double wave_fill(int sms) const {
        sms = sms > 0 ? sms : 1;
        const double t = static_cast<double>(tiles());
        return t / (std::ceil(t / sms) * sms);
    }
    // m x n over the area the tiles compute (padding waste).
    double used(int64_t m, int64_t n) const {
        return static_cast<double>(m) * static_cast<double>(n) /
               (static_cast<double>(tiles_m * bm) * static_cast<double>(tiles_n * bn));
    }
};

inline TileGrid tile_grid(int64_t m, int64_t n, int bm, int bn) { return {(m + bm - 1) / bm, (n + bn - 1) / bn, bm, bn}; }

}  // namespace spmma_plugin

// What a record's plugin_notes say about an sm90a launch (Gemm::describe): each persistent grid's
// function, cluster shape, how many clusters ran at once, and its cluster tiles (those split by
// stream-K among them). A split kernel has two grids. Pure C++, so the tests check it without a
// GPU.
#pragma once

#include <spmma_sm90a/stream_k.hpp>

#include <string>
#include <vector>

namespace spmma_sm90a {

struct GridNote {
    std::string function;  // the extern "C" kernel the grid runs
    int cm, cn;            // its cluster shape
    WorkPlan work;         // its clusters and cluster tiles
    bool pairs = false;    // each tile's two ranges ran as a cluster of two (KernelParams::sk_pairs)
};

// {"grids": [{"function": ..., "cluster": "4x1", "clusters": 30, "cluster_tiles": 992,
// "stream_k_tiles": 0}, ...]}, and "ranges_in_pairs": true where a grid ran so. Function names
// are identifiers: nothing to escape.
inline std::string launch_notes(const std::vector<GridNote>& grids) {
    std::string s;
    for (const GridNote& g : grids) {
        s += s.empty() ? "" : ", ";
        s += "{\"function\": \"" + g.function + "\", \"cluster\": \"" + std::to_string(g.cm) + "x" + std::to_string(g.cn) +
             "\", \"clusters\": " + std::to_string(g.work.clusters) +
             ", \"cluster_tiles\": " + std::to_string(g.work.dp_tiles + g.work.sk_tiles) +
             ", \"stream_k_tiles\": " + std::to_string(g.work.sk_tiles) + (g.pairs ? ", \"ranges_in_pairs\": true" : "") +
             "}";
    }
    return "{\"grids\": [" + s + "]}";
}

}  // namespace spmma_sm90a

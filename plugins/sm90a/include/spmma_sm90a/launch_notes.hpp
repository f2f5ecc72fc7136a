// What a record's plugin_notes say about an sm90a launch (Gemm::describe): each persistent grid's
// function, cluster shape, how many clusters ran at once, and its cluster tiles (those split by
// stream-K among them), and how its D was written: through TMA stores or directly, with which
// epilogue form (epilogue_form.hpp). A split kernel has two grids. Pure C++, so the
// tests check it without a GPU.
#pragma once

#include <spmma_sm90a/stream_k.hpp>

#include <string>
#include <vector>

namespace spmma_sm90a {

struct GridNote {
    std::string function;  // the extern "C" kernel the grid runs
    int cm, cn;            // its cluster shape
    WorkPlan work;         // its clusters and cluster tiles
    int cluster_ranges = 0;  // s: each tile's s ranges ran as a cluster of s (KernelParams::sk_cluster_ranges)
    std::string d_stores{};  // "tma" or "direct" (KernelParams::tma_store); omitted when empty
    std::string epilogue{};  // "plain", "linear" or "general"; omitted when empty
};

// {"grids": [{"function": ..., "cluster": "4x1", "clusters": 30, "cluster_tiles": 992,
// "stream_k_tiles": 0, "d_stores": "tma", "epilogue": "plain"}, ...]}, and "ranges_per_cluster": s
// where a grid ran so. Function names and the two words are identifiers: nothing to escape.
inline std::string launch_notes(const std::vector<GridNote>& grids) {
    std::string s;
    for (const GridNote& g : grids) {
        s += s.empty() ? "" : ", ";
        s += "{\"function\": \"" + g.function + "\", \"cluster\": \"" + std::to_string(g.cm) + "x" + std::to_string(g.cn) +
             "\", \"clusters\": " + std::to_string(g.work.clusters) +
             ", \"cluster_tiles\": " + std::to_string(g.work.dp_tiles + g.work.sk_tiles) +
             ", \"stream_k_tiles\": " + std::to_string(g.work.sk_tiles) +
             (g.cluster_ranges > 0 ? ", \"ranges_per_cluster\": " + std::to_string(g.cluster_ranges) : "") +
             (g.d_stores.empty() ? "" : ", \"d_stores\": \"" + g.d_stores + "\"") +
             (g.epilogue.empty() ? "" : ", \"epilogue\": \"" + g.epilogue + "\"") + "}";
    }
    return "{\"grids\": [" + s + "]}";
}

}  // namespace spmma_sm90a

// The plugin_notes an sm90a launch writes into its record (launch_notes.hpp), checked exactly and
// for what stream-K adds.
#include <catch2/catch.hpp>

#include <spmma_sm90a/launch_notes.hpp>

#include <string>

using namespace spmma_sm90a;

TEST_CASE("launch notes name each grid's function, cluster, resident clusters and tiles, as JSON", "[launch_notes]") {
    const WorkPlan main = plan_work(1006, 30, 128, StreamKMode::Off);
    const WorkPlan rest = plan_work(18, 6, 128, StreamKMode::Off);
    const std::string notes = launch_notes({{"sm90a_f16f16_f32_128x256x64_c4x1_s5", 4, 1, main},
                                            {"sm90a_f16f16_f32_128x256x64_c2x1_s5", 2, 1, rest}});
    CHECK(notes == "{\"grids\": [{\"function\": \"sm90a_f16f16_f32_128x256x64_c4x1_s5\", \"cluster\": \"4x1\", "
                   "\"clusters\": 30, \"cluster_tiles\": 1006, \"stream_k_tiles\": 0}, "
                   "{\"function\": \"sm90a_f16f16_f32_128x256x64_c2x1_s5\", \"cluster\": \"2x1\", "
                   "\"clusters\": 6, \"cluster_tiles\": 18, \"stream_k_tiles\": 0}]}");
    // Stream-K's split tiles are counted among the grid's tiles and named apart.
    const std::string sk = launch_notes({{"k", 2, 1, plan_work(256, 66, 64, StreamKMode::On)}});
    CHECK(sk.find("\"clusters\": 66, \"cluster_tiles\": 256, \"stream_k_tiles\": 58") != std::string::npos);
    CHECK(sk.find("ranges_per_cluster") == std::string::npos);
    // A launch whose tiles' ranges ran in clusters says how many a cluster.
    const std::string four = launch_notes({{"k", 1, 1, plan_work(32, 128, 64, StreamKMode::On), 4}});
    CHECK(four == "{\"grids\": [{\"function\": \"k\", \"cluster\": \"1x1\", \"clusters\": 128, \"cluster_tiles\": 32, "
                  "\"stream_k_tiles\": 32, \"ranges_per_cluster\": 4}]}");
}

TEST_CASE("launch notes say how each grid wrote D and with which epilogue form, where given", "[launch_notes]") {
    const WorkPlan w = plan_work(64, 64, 64, StreamKMode::Off);
    const std::string notes = launch_notes({{"k", 2, 1, w, 0, "tma", "linear"}, {"r", 1, 1, w, 0, "direct", "general"}});
    CHECK(notes == "{\"grids\": [{\"function\": \"k\", \"cluster\": \"2x1\", \"clusters\": 64, \"cluster_tiles\": 64, "
                   "\"stream_k_tiles\": 0, \"d_stores\": \"tma\", \"epilogue\": \"linear\"}, "
                   "{\"function\": \"r\", \"cluster\": \"1x1\", \"clusters\": 64, \"cluster_tiles\": 64, "
                   "\"stream_k_tiles\": 0, \"d_stores\": \"direct\", \"epilogue\": \"general\"}]}");
}

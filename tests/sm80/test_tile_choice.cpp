// The sm80 heuristic's choice (include/spmma_sm80/tile_choice.hpp) replayed on the host over the
// f16 ordered-metadata kernel list, on an H100/H200's 132 SMs and 227 KB: the picks the decode set
// ran on the H200 (bench/results/2026-11-29-h200-sm80-decode/) and the standard set's.
#include <catch2/catch.hpp>

#include <spmma_sm80/op_tags.hpp>
#include <spmma_sm80/tile_choice.hpp>

#include "kernel_list.hpp"

#include <string>
#include <tuple>
#include <vector>

using namespace spmma_sm80;

namespace {

const std::string kPrefix = "sm80_f16f16_f32_";  // f16 x f16 -> f32

// The tile part of the kernel the heuristic picks for m x n x k f16 (the first of equal scores).
std::string pick(int64_t m, int64_t n, int64_t k) {
    const int h100 = 227 * 1024 + 1024;
    std::string best;
    double best_score = 0;
    for (const spmma_sm80_test::ListedKernel& l : spmma_sm80_test::listed_kernels()) {
        if (l.name.rfind(kPrefix, 0) != 0 || !l.ordered || !tile_candidate(l.tile, n)) continue;
        const double s = tile_score(l.tile, kFamilyF16, m, n, k, 132, h100);
        if (best.empty() || s > best_score) best = l.name, best_score = s;
    }
    return best.substr(kPrefix.size());
}

}  // namespace

TEST_CASE("sm80 heuristic: a decode tile as narrow as the tokens, split along k where m is small", "[sm80][choice]") {
    CHECK(pick(4096, 1, 4096) == "128x16x64_s6_om");
    CHECK(pick(28672, 16, 4096) == "128x16x64_s6_om");
    CHECK(pick(8192, 32, 28672) == "128x32x64_s6_om");
    CHECK(pick(57344, 64, 8192) == "128x64x64_s4_om");
}

TEST_CASE("sm80 heuristic: at 65-128 tokens the 64-wide decode tile where it splits, 256x128 where m fills the device",
          "[sm80][choice]") {
    CHECK(pick(4096, 128, 4096) == "128x64x64_s4_om");
    CHECK(pick(10240, 128, 8192) == "128x64x64_s4_om");
    CHECK(pick(28672, 128, 4096) == "256x128x64_s4_om");
    CHECK(pick(57344, 128, 8192) == "256x128x64_s4_om");
}

TEST_CASE("sm80 heuristic: the standard set keeps 256x128", "[sm80][choice]") {
    for (auto [m, n, k] : {std::tuple{4096, 4096, 4096}, {8192, 8192, 8192}, {16384, 16384, 16384}, {11008, 4096, 4096},
                           {28672, 4096, 8192}, {8192, 2048, 28672}}) {
        INFO(m << "x" << n << "x" << k);
        CHECK(pick(m, n, k) == "256x128x64_s4_om");
    }
}

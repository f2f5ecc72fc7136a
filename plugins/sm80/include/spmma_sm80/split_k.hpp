// How many CTAs share one tile of D along k (split-K), for the heuristic (sm80_backend.cpp) and the
// launch (sm80_gemm.cpp) alike. Pure C++, so the tests check it without a GPU.
//
// NOTES: a weight times a few tokens (the decode regime) has m / BM tiles, too few to keep enough
// A bytes in flight to stream it at the DRAM rate: 4096 x 4096 in 128-row tiles is 32 CTAs on
// 132 SMs. Split along k, each tile's CTAs run equal ranges of its k stages and write their
// partial tiles to a workspace; a second launch adds the partials in split order (the same D
// from launch to launch) and writes D (sm80_spgemm.cuh, add_k_splits). Only grids smaller than
// what the device holds at once are split, so the compute-bound shapes keep their one CTA per
// tile; and only the decode tiles split (Tile::splits_k).
#pragma once

#include <spmma_sm80/layout.hpp>

#include <algorithm>
#include <cstdint>

namespace spmma_sm80 {

// A split's least k stages: its pipeline's fill and the partial tile's round trip stay a small
// share of its time (8 stages: 1024 bytes of k a row).
constexpr int kMinStagesPerSplit = 8;
constexpr int kMaxSplits = 16;
// The most CTAs of one kernel the heuristic counts on an SM.
constexpr int kMaxCtasPerSm = 4;
constexpr int kReduceThreads = 256;  // a CTA of the reduction kernel, 4 columns of D a thread

// CTAs of tile t resident on one SM of `smem_per_sm` bytes of shared memory (1 KB of it reserved
// per CTA from sm_80 on), 2048 threads and 65536 registers, each thread taking the most its
// launch bound allows (Tile::min_ctas_per_sm; 255 without one).
inline int resident_ctas_per_sm(const Tile& t, const Family& f, int smem_per_sm) {
    const int by_smem = smem_per_sm / (t.smem_bytes(f) + 1024);
    const int by_threads = 2048 / t.threads();
    const int by_regs = std::max(t.min_ctas_per_sm(), 65536 / (t.threads() * 255));
    return std::max(1, std::min({by_smem, by_threads, by_regs, kMaxCtasPerSm}));
}

// The CTAs a tile's k stages are split among: 1 when the tiles alone fill `resident` CTA slots,
// else as many as fill them, each with at least kMinStagesPerSplit stages, at most kMaxSplits.
inline int k_splits(int64_t tiles, int64_t k_stages, int64_t resident) {
    if (tiles <= 0 || tiles >= resident) return 1;
    const int64_t by_slots = resident / tiles;
    const int64_t by_stages = k_stages / kMinStagesPerSplit;
    return static_cast<int>(std::clamp<int64_t>(std::min(by_slots, by_stages), 1, kMaxSplits));
}

// The ranges each of `tiles` tiles of t (k_stages deep) is split into on a device of sm_count
// SMs with smem_per_sm bytes of shared memory each: 1 for the tiles that do not split.
inline int k_splits_on(const Tile& t, const Family& f, int64_t tiles, int64_t k_stages, int sm_count, int smem_per_sm) {
    if (!t.splits_k()) return 1;
    return k_splits(tiles, k_stages, int64_t(sm_count) * resident_ctas_per_sm(t, f, smem_per_sm));
}

// The first k stage of range `split` of `splits` over a tile's k_stages (range s runs from
// k_split_begin(s) to k_split_begin(s + 1)); the kernel's and the tests' one formula.
SPMMA_SM80_HD constexpr int k_split_begin(int64_t k_stages, int split, int splits) {
    return int(k_stages * split / splits);
}

}  // namespace spmma_sm80

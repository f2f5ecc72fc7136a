// A problem's sizes once padded for a kernel that runs one CTA per bm x bn tile of D and walks k
// in pipeline stages, with A packed in one block per (tile of rows, k stage) (host_pack.hpp
// for_each_stage_block) and B in columns padded to whole stages: the sizes the sm80 and sm120a
// packings and tile_gemm.hpp share.
#pragma once

#include <spmma_plugin/host_pack.hpp>

#include <cstdint>

namespace spmma_plugin::host {

struct StagedShape {
    int64_t m = 0, n = 0, k = 0;   // the problem
    int64_t m_pad = 0, n_pad = 0;  // m to the CTA's rows, n to its columns
    int64_t k_stages = 0;          // pipeline stages along k
    int64_t k_pad = 0;             // k_stages * stage_k
    int64_t ldb = 0;               // bytes between padded B columns (k_stages * the stage's bytes)
    int64_t a_bytes = 0;           // packed A values
    int64_t e_words = 0;           // packed metadata words
    int64_t b_bytes = 0;           // padded B
};

// The stage of a kernel: how many elements of k, how many bytes of a B column, and A's block of
// one tile of rows (values bytes, metadata words) per stage.
struct StageSize {
    int64_t k_elems = 0, b_col_bytes = 0, a_bytes = 0, e_words = 0;
};

// m x n x k padded to bm x bn tiles and `k_stages` stages of `stage`.
inline StagedShape staged_shape(int64_t m, int64_t n, int64_t k, int bm, int bn, int64_t k_stages, const StageSize& stage) {
    StagedShape s;
    s.m = m;
    s.n = n;
    s.k = k;
    s.m_pad = round_up(m, bm);
    s.n_pad = round_up(n, bn);
    s.k_stages = k_stages;
    s.k_pad = k_stages * stage.k_elems;
    s.ldb = k_stages * stage.b_col_bytes;
    s.a_bytes = (s.m_pad / bm) * k_stages * stage.a_bytes;
    s.e_words = (s.m_pad / bm) * k_stages * stage.e_words;
    s.b_bytes = s.n_pad * s.ldb;
    return s;
}

}  // namespace spmma_plugin::host

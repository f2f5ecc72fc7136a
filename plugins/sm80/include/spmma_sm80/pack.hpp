// Host packing for the sm80 kernels (pure C++): the canonical compressed A (values + index
// bytes, abi/include/spmma/plugin.h) into the packed A values and metadata words of
// include/spmma_sm80/layout.hpp, and the column-major B into its padded copy.
#pragma once

#include <spmma/plugin.h>
#include <spmma_plugin/staged_shape.hpp>
#include <spmma_sm80/layout.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace spmma_sm80 {

// Sizes of one problem once padded for a CTA tile (k_stages: k bytes / 128, rounded up).
using PackedShape = spmma_plugin::host::StagedShape;
PackedShape packed_shape(const Family& f, const Tile& t, int64_t m, int64_t n, int64_t k);

// Bytes of the canonical buffers the ABI hands over for a family (values m x k/2, indices
// m x k/chunk, B k x n).
int64_t canonical_a_values_bytes(const Family& f, int64_t m, int64_t k);
int64_t canonical_a_indices_bytes(const Family& f, int64_t m, int64_t k);
int64_t canonical_b_bytes(const Family& f, int64_t n, int64_t k);

// The pattern on A a family takes: 1:2 (tf32), pairwise 4:8 (4-bit), 2:4.
constexpr spmma_pattern pattern_of(const Family& f) {
    return f.chunk == 2 ? SPMMA_PATTERN_1_2 : f.chunk == 8 ? SPMMA_PATTERN_4_8_PAIRWISE : SPMMA_PATTERN_2_4;
}

// Packs A for CTA tile rows `bm`. `values`/`indices` are canonical; `a_out` gets s.a_bytes,
// `e_out` s.e_words. Padding rows and k get zero values and kPadMetadataNibble metadata. `threads`
// > 1 splits the work over m tiles.
void pack_a(const Family& f, const PackedShape& s, int bm, const uint8_t* values, const uint8_t* indices,
            uint8_t* a_out, uint32_t* e_out, int threads = 1);

// Copies column-major B (k x n, canonical) into s.n_pad columns of s.ldb bytes, zero-padded.
void pack_b(const Family& f, const PackedShape& s, const uint8_t* b, uint8_t* out, int threads = 1);

// Checks the canonical index bytes for what mma.sp would take as undefined (equal or
// decreasing indices for 2:4 and 4:8); empty when all are valid, else the first bad one.
std::string check_indices(const Family& f, int64_t m, int64_t k, const uint8_t* indices);

}  // namespace spmma_sm80

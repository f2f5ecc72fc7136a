// Host packing for the sm80 kernels (pure C++): the canonical compressed A (values + index
// bytes, abi/include/spmma/plugin.h) into the packed A values and metadata words of
// include/spmma_sm80/layout.hpp, and the column-major B into its padded copy.
#pragma once

#include <spmma_sm80/layout.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace spmma_sm80 {

// Sizes of one problem once padded for a CTA tile.
struct PackedShape {
    int64_t m = 0, n = 0, k = 0;  // the problem
    int64_t m_pad = 0, n_pad = 0; // m to the CTA's rows, n to its columns
    int64_t k_stages = 0;         // pipeline stages: k bytes / 128, rounded up
    int64_t k_pad = 0;            // k_stages * stage_k
    int64_t ldb = 0;              // bytes between padded B columns (k_stages * 128)
    int64_t a_bytes = 0;          // packed A values
    int64_t e_words = 0;          // packed metadata words
    int64_t b_bytes = 0;          // padded B
};
PackedShape packed_shape(const Family& f, const Tile& t, int64_t m, int64_t n, int64_t k);

// Bytes of the canonical buffers the ABI hands over for a family (values m x k/2, indices
// m x k/chunk, B k x n).
int64_t canonical_a_values_bytes(const Family& f, int64_t m, int64_t k);
int64_t canonical_a_indices_bytes(const Family& f, int64_t m, int64_t k);
int64_t canonical_b_bytes(const Family& f, int64_t n, int64_t k);

// The metadata nibble mma.sp takes for a canonical index byte: the byte itself for 2:4 and
// pairwise 4:8 (bits 1..0 first kept index, 3..2 second), 0b0100 / 0b1110 for tf32's 1:2.
constexpr uint32_t meta_nibble(const Family& f, uint8_t index) {
    if (f.chunk == 2) return (index & 1u) ? 0xEu : 0x4u;
    return index & 0xFu;
}

// Packs A for CTA tile rows `bm`. `values`/`indices` are canonical; `a_out` gets s.a_bytes,
// `e_out` s.e_words. Padding rows and k get zero values and kPadNibble metadata. `threads`
// > 1 splits the work over m tiles.
void pack_a(const Family& f, const PackedShape& s, int bm, const uint8_t* values, const uint8_t* indices,
            uint8_t* a_out, uint32_t* e_out, int threads = 1);

// Copies column-major B (k x n, canonical) into s.n_pad columns of s.ldb bytes, zero-padded.
void pack_b(const Family& f, const PackedShape& s, const uint8_t* b, uint8_t* out, int threads = 1);

// Checks the canonical index bytes for what mma.sp would take as undefined (equal or
// decreasing indices for 2:4 and 4:8); empty when all are valid, else the first bad one.
std::string check_indices(const Family& f, int64_t m, int64_t k, const uint8_t* indices);

}  // namespace spmma_sm80

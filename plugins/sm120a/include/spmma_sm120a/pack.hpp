// Host packing for the sm120a kernels (pure C++, no CUDA): the canonical operands of
// abi/include/spmma/plugin.h (compressed A values + index bytes, column-major B, block scales)
// into the instruction-ordered buffers of include/spmma_sm120a/layout.hpp. Element formats:
// kind::f8f6f4 / kind::mxf8f6f4 read every type in an 8-bit container (e2m1 in bits 5..2,
// e3m2/e2m3 in bits 5..0, e4m3/e5m2 as is), so canonical packed e2m1 is expanded; kind::mxf4 /
// kind::mxf4nvf4 read packed e2m1, copied as is.
#pragma once

#include <spmma_plugin/staged_shape.hpp>
#include <spmma_sm120a/layout.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace spmma_sm120a {

// Sizes of one problem once padded for a CTA tile (k_stages: k / stage_k rounded up), and the
// block scales'.
struct PackedShape : spmma_plugin::host::StagedShape {
    int64_t scale_blocks = 0;  // k / scale_block (0 unscaled)
    int64_t sa_words = 0;      // packed scale-a words
    int64_t sb_words = 0;      // packed scale-b words
};
// Throws std::invalid_argument for sizes the form cannot take (k not a multiple of the pattern
// group or of the scale block).
PackedShape packed_shape(const Form& f, const Tile& t, int64_t m, int64_t n, int64_t k);

// Bytes of the canonical buffers the ABI hands over (values m x k/2 and B k x n in the types'
// storage: e2m1 two per byte, the others one; indices m x k/chunk; scales rows x k/scale_block).
int64_t canonical_a_values_bytes(const Form& f, int64_t m, int64_t k);
int64_t canonical_a_indices_bytes(const Form& f, int64_t m, int64_t k);
int64_t canonical_b_bytes(const Form& f, int64_t n, int64_t k);
int64_t canonical_scale_bytes(const Form& f, int64_t rows, int64_t k);

// The code of 1.0 in a scale type (ue8m0 0x7f, ue4m3 0x38): what padding blocks carry.
uint8_t unit_scale(spmma_dtype scale);
// The 8-bit container of kind::f8f6f4 / mxf8f6f4 for an element code of type t.
uint8_t f8f6f4_container(spmma_dtype t, uint32_t code);

// Packs A for CTA tile rows `bm`: s.a_bytes into a_out, s.e_words into e_out. Padding rows and
// k get zero values and kPadMetadataNibble metadata. `threads` > 1 splits the work over m tiles.
void pack_a(const Form& f, const PackedShape& s, int bm, const uint8_t* values, const uint8_t* indices, uint8_t* a_out,
            uint32_t* e_out, int threads = 1);

// Packs column-major B (k x n, canonical) into s.n_pad columns of s.ldb bytes, zero-padded.
void pack_b(const Form& f, const PackedShape& s, const uint8_t* b, uint8_t* out, int threads = 1);

// Packs scale_A (m x blocks, row-major) into s.sa_words and scale_B (n x blocks) into s.sb_words;
// padding rows, columns and blocks get unit_scale. Only for block-scaled forms.
void pack_scales_a(const Form& f, const PackedShape& s, int bm, const uint8_t* scale_a, uint32_t* out, int threads = 1);
void pack_scales_b(const Form& f, const PackedShape& s, int bn, const uint8_t* scale_b, uint32_t* out, int threads = 1);

// What mma.sp::ordered_metadata would take as undefined in the canonical index bytes (equal or
// decreasing indices, bits above 3 set); empty when all are valid, else the first bad one.
std::string check_indices(const Form& f, int64_t m, int64_t k, const uint8_t* indices);

}  // namespace spmma_sm120a

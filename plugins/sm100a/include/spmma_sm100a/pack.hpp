// Host-side packing of the canonical operands (abi/include/spmma/plugin.h) into what the sm100a
// kernels load with TMA and move to tensor memory. Pure C++ (no CUDA): the plugin and the tests
// link it.
//   A values: m rows of kp/2 elements in the instruction's shared-memory format (16/32-bit and
//             8-bit types as they are; kind::f8f6f4 and mxf8f6f4 with e2m1/e3m2/e2m3: 16 elements
//             bit-packed per 16-byte chunk plus padding, a row as long as with 8-bit elements;
//             kind::mxf4*: packed e2m1 as canonical), zero padded to kp.
//   B:        n rows (columns of B) of kp elements, same formats, zero padded.
//   metadata: one 2048-byte chunk per (128-row block, stage) in tensor-memory order
//             (tmem_layout.hpp meta_position), chunk (rb, kt) at (rb * k_stages + kt) * 2048;
//             rows >= m and groups >= k hold kMetaPadNibble.
//   scales:   one chunk per (row group, stage) of scale_tiles * groups tiles of 512 bytes, tile
//             t * groups + g holding rows g * 128 .. + 127 of the group (tmem_layout.hpp
//             scale_position); rows and blocks past the problem hold 1.0.
//   C:        as f32 (float problems) or s32 (integer problems), so the epilogue reads one type.
#pragma once

#include <spmma/plugin.h>
#include <spmma_sm100a/descriptors.hpp>
#include <spmma_sm100a/kind.hpp>
#include <spmma_sm100a/tmem_layout.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace spmma_sm100a {

// The kind and scale_vec that compute a problem of these types, pattern and scales, or nullopt.
// (Which one also depends on the scale block: see scale_vec_for.)
std::optional<Kind> kind_of(spmma_dtype a_type, spmma_dtype b_type, spmma_pattern pattern, spmma_dtype scale_type);
// The scale_vec whose scale block (kind.hpp scale_block) is `block`, or nullopt.
std::optional<ScaleVec> scale_vec_for(Kind k, spmma_dtype scale_type, int block);
// The sparsity pattern of A a kind takes.
spmma_pattern pattern_of(Kind k);
const char* kind_name(Kind k);        // "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"
const char* scale_vec_name(ScaleVec v);  // "", "1x", "2x", "4x"

// The atype/btype code of an element type under a kind; throws std::invalid_argument when the
// kind does not take it.
uint32_t type_code(Kind k, spmma_dtype t);
// The kernel's base instruction descriptor (selector and scale ids 0) for a problem.
uint32_t make_idesc(Kind k, spmma_dtype a_type, spmma_dtype b_type, spmma_dtype acc_type, int m, int n, bool saturate,
                    spmma_dtype scale_type);

// k rounded up to whole stages; rows rounded up to a multiple.
int64_t padded_k(Kind k, int64_t kk);
int64_t padded_rows(int64_t rows, int64_t multiple);

size_t packed_a_bytes(Kind k, int64_t m, int64_t kp);
size_t packed_b_bytes(Kind k, int64_t n, int64_t kp);
size_t packed_meta_bytes(Kind k, int64_t rows_p, int64_t kp);
size_t packed_scale_bytes(Kind k, ScaleVec v, int64_t rows_p, int64_t kp, int groups);

// Compressed A values (m x k/2 of a_type, canonical) -> m x kp/2 elements, zero padded.
void pack_a_values(Kind k, spmma_dtype a_type, const void* a_values, int64_t m, int64_t kk, int64_t kp, void* out);
// B (column-major kk x n, canonical) -> n rows of kp elements, zero padded.
void pack_b(Kind k, spmma_dtype b_type, const void* b, int64_t n, int64_t kk, int64_t kp, void* out);
// Canonical index bytes (m x kk/group) -> metadata chunks for rows_p (a multiple of 128) rows.
void pack_metadata(Kind k, const uint8_t* indices, int64_t m, int64_t kk, int64_t rows_p, int64_t kp, uint8_t* out);
// Canonical scales (rows x kk/block, one byte each) -> scale chunks of `groups` 128-row groups
// each (rows_p a multiple of 128 * groups). `block` must be scale_block(k, v).
void pack_scales(Kind k, ScaleVec v, spmma_dtype scale_type, const uint8_t* scales, int64_t rows, int64_t kk,
                 int block, int64_t rows_p, int64_t kp, int groups, uint8_t* out);

// Offsets of one chunk in the packed metadata and scales.
int64_t meta_chunk_offset(int64_t row_block, int64_t k_stages, int64_t kt);
int64_t scale_chunk_offset(ScaleVec v, int groups, int64_t row_group, int64_t k_stages, int64_t kt);

// C as the epilogue reads it, 4 bytes an element: f32/f16/bf16 -> f32 (exact), s32 -> s32
// (the kit's widen_c, which the plugin's upload uses). Throws std::invalid_argument for other types.
void pack_c(spmma_dtype c_type, const void* c, int64_t count, void* out);

// The byte a scale type reads as 1.0 (padding).
uint8_t scale_one(spmma_dtype scale_type);

}  // namespace spmma_sm100a

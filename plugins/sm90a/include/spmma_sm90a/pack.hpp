// Host-side packing of the canonical operands (abi/include/spmma/plugin.h) into what the sm90a
// kernels load with TMA. Pure C++ (no CUDA): the plugin and the tests link it.
//   A values: m rows of kp/2 elements (the canonical row, then zeros): K-major, as wgmma's
//             sparse A operand wants it; kp pads k to whole pipeline stages. Or, for kernels
//             that take A in stage order (TileConfig::a_in_stage_order), one block of
//             slice_rows x 64 bytes per (tile row, stage): the stage's shared-memory image, so
//             that one bulk copy moves it.
//   B:        n rows (columns of B) of kp elements, K-major, zero padded.
//   metadata: (meta_rows/16) x (kp/unit_k) units of 32 words, one word per lane in the order of
//             layout.hpp's meta_position, so a warp loads a unit with one 128-byte access.
//   C:        as f32 (float problems) or s32 (integer problems), so the epilogue reads one type.
#pragma once

#include <spmma/plugin.h>
#include <spmma_sm90a/layout.hpp>
#include <spmma_sm90a/pack_a_stages_params.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace spmma_sm90a {

// The element family of an A/B type pair that wgmma.mma_async.sp takes, or nullopt.
std::optional<Family> family_of(spmma_dtype a_type, spmma_dtype b_type);

// k rounded up to whole pipeline stages (stage_k(f) logical columns).
int64_t padded_k(Family f, int64_t k);
// m rounded up to `multiple` rows (a multiple of 16): the metadata rows the kernel may read.
int64_t padded_rows(int64_t m, int64_t multiple);

size_t packed_a_bytes(Family f, int64_t m, int64_t kp);
size_t packed_b_bytes(Family f, int64_t n, int64_t kp);
size_t packed_meta_words(Family f, int64_t meta_rows, int64_t kp);

// Compressed A values (m x k/2, row-major) -> m x kp/2, zero padded.
void pack_a_values(Family f, const void* a_values, int64_t m, int64_t k, int64_t kp, void* out);
// A in stage order: rows padded to whole tiles of slice_rows, then per tile row its kp / stage_k
// stages, each block the slice_rows x kStageARowBytes bytes a TMA copy with the 64-byte swizzle
// writes to shared memory (row r's byte b at swizzle(r * 64 + b, 64)); rows past m and k past k
// are zero.
size_t packed_a_stages_bytes(Family f, int64_t m, int64_t kp, int slice_rows);
void pack_a_stages(Family f, const void* a_values, int64_t m, int64_t k, int64_t kp, int slice_rows, void* out);
// The same on the device (device/sm90a_pack_a_stages.cu): its parameters for the canonical values
// at `a_values` and a buffer of packed_a_stages_bytes at `out` (device addresses).
PackAStagesParams pack_a_stages_params(Family f, const void* a_values, int64_t m, int64_t k, int64_t kp, int slice_rows,
                                       void* out);
// B (column-major k x n: column j's k elements contiguous) -> n x kp, zero padded.
void pack_b(Family f, const void* b, int64_t n, int64_t k, int64_t kp, void* out);
// Canonical index bytes (m x k/group) -> packed metadata words; rows >= m and groups >= k/group
// get kMetaPadNibble.
void pack_metadata(Family f, const uint8_t* indices, int64_t m, int64_t k, int64_t meta_rows, int64_t kp,
                   uint32_t* out);
// The word index of (row-block, unit, lane) in the packed metadata.
int64_t meta_word_index(Family f, int64_t kp, int64_t row_block, int64_t unit, int lane);
// The nibble the packed metadata holds for (row, group): the inverse of pack_metadata.
uint32_t packed_meta_nibble(Family f, const uint32_t* packed, int64_t kp, int64_t row, int64_t group);

// C as the epilogue reads it, 4 bytes an element: f32/f16/bf16 -> f32 (exact), s32 -> s32
// (the kit's widen_c, which the plugin's upload uses). Throws std::invalid_argument for other types.
void pack_c(spmma_dtype c_type, const void* c, int64_t count, void* out);

}  // namespace spmma_sm90a

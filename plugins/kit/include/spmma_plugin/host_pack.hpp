// What every GPU family's host packing is built from (pure C++, no CUDA): sizes padded to whole
// tiles and stages, a split of the work over host threads, rows copied into longer zero-padded
// rows, canonical elements read back, C widened to the 4-byte type an epilogue reads, and the
// sparse-MMA metadata nibble of a canonical index byte. The families' own layouts stay with them.
#pragma once

#include <spmma/plugin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace spmma_plugin::host {

// ---- sizes -----------------------------------------------------------------------------------
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
// x rounded up to whole multiples (rows to whole CTA tiles, k to whole pipeline stages).
constexpr int64_t round_up(int64_t x, int64_t multiple) { return ceil_div(x, multiple) * multiple; }

// ---- threads ---------------------------------------------------------------------------------
// The host threads packing may use: the hardware's, 1 to 32.
inline int host_threads() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 32u)); }

// Runs body(begin, end) over [0, count) split into `threads` contiguous parts (one when
// threads <= 1), each on its own thread.
template <class Body>
void parallel_for(int64_t count, int threads, Body body) {
    const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(threads, count));
    if (parts == 1) {
        body(int64_t(0), count);
        return;
    }
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(parts));
    for (int64_t p = 0; p < parts; ++p) {
        const int64_t b = count * p / parts, e = count * (p + 1) / parts;
        pool.emplace_back([=] { body(b, e); });
    }
    for (auto& t : pool) t.join();
}

// A packed per block of (tile of rows, k stage), tile by tile and stage by stage, with `a_block`
// bytes of values and `e_block` metadata words a block: runs body(tile, stage, a_blk, e_blk) for
// every block of `tiles` x `stages`, the tiles split over `threads` host threads, each metadata
// block zeroed first (the body ORs nibbles into it).
template <class Body>
void for_each_stage_block(int64_t tiles, int64_t stages, int64_t a_block, int64_t e_block, uint8_t* a, uint32_t* e,
                          int threads, Body body) {
    parallel_for(tiles, threads, [&](int64_t t0, int64_t t1) {
        for (int64_t mt = t0; mt < t1; ++mt)
            for (int64_t ks = 0; ks < stages; ++ks) {
                const int64_t blk = mt * stages + ks;
                uint32_t* e_blk = e + blk * e_block;
                std::fill(e_blk, e_blk + e_block, 0u);
                body(mt, ks, a + blk * a_block, e_blk);
            }
    });
}

// ---- rows ------------------------------------------------------------------------------------
// `rows` rows of src_row_bytes (back to back) into dst_rows rows of dst_row_bytes: each row
// copied and zero-padded, rows past `rows` zero. Throws std::invalid_argument when a destination
// row is shorter than a source row or there are fewer destination rows.
void pad_rows(const void* src, int64_t rows, size_t src_row_bytes, int64_t dst_rows, size_t dst_row_bytes, void* dst,
              int threads = 1);

// ---- elements --------------------------------------------------------------------------------
// Element i of a canonical buffer of type t, as its bits (4-bit types two per byte, the lower
// index in bits 3..0; 16- and 32-bit ones little-endian).
uint32_t canonical_code(spmma_dtype t, const void* buf, int64_t i);

// Exact f16 / bf16 -> f32.
float f16_to_f32(uint16_t h);
float bf16_to_f32(uint16_t h);

// C as an epilogue that reads one 4-byte type takes it: f32, f16 and bf16 -> f32 (exact), s32
// as is. Throws std::invalid_argument ("C of type e4m3 is not supported") for other types.
void widen_c(spmma_dtype c_type, const void* c, int64_t count, void* out);

// ---- sparse-MMA metadata ---------------------------------------------------------------------
// NOTES: every family's sparse MMA (mma.sp, wgmma.mma_async.sp, tcgen05.mma.sp) takes a group's
// selection as one 4-bit field of two 2-bit positions. 2:4 and pairwise 4:8 index bytes are
// that field already; a 1:2 group of 32-bit elements is a 2:4 group of 16-bit halves: position 0
// keeps halves {0,1} (0b0100), position 1 keeps {2,3} (0b1110).
constexpr uint32_t metadata_nibble(spmma_pattern pattern, uint8_t index_byte) {
    if (pattern == SPMMA_PATTERN_1_2) return (index_byte & 1u) ? 0xEu : 0x4u;
    return index_byte & 0xFu;
}
// The nibble of padding (rows past m, groups past k): positions 0 and 1, valid for every type.
constexpr uint32_t kPadMetadataNibble = 0x4u;

// A's canonical index bytes (m rows of k/G bytes) read as metadata nibbles, padding outside.
struct IndexNibbles {
    spmma_pattern pattern;
    const uint8_t* bytes;
    int64_t rows, groups;  // m, k / G
    uint32_t operator()(int64_t row, int64_t group) const {
        return row < rows && group < groups ? metadata_nibble(pattern, bytes[row * groups + group]) : kPadMetadataNibble;
    }
};

// The columns (0 .. G-1 within its group) a valid canonical index byte keeps, in increasing
// order: 1 for 1:2, 2 for 2:4, 4 (two pairs) for pairwise 4:8; returns how many, 0 for a byte
// that selects no valid set (positions not increasing, bits above the pattern's set) or for
// another pattern.
int kept_columns(spmma_pattern pattern, uint8_t index_byte, int columns[4]);

// The first index byte (of m rows of k/group) a 2:4 or pairwise 4:8 sparse MMA takes as
// undefined: positions not increasing, or bits above 3 set; "" when every byte is valid, else
// "index byte of row R, group G is 0xHH: " + rule. 1:2 bytes are never undefined (bit 0 alone).
std::string first_undefined_index(int group, int64_t m, int64_t k, const uint8_t* indices, const std::string& rule);

}  // namespace spmma_plugin::host

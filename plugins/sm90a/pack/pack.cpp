#include <spmma_sm90a/pack.hpp>

#include <spmma_plugin/host_pack.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace spmma_sm90a {

std::optional<Family> family_of(spmma_dtype a, spmma_dtype b) {
    auto is_f8 = [](spmma_dtype t) { return t == SPMMA_E4M3 || t == SPMMA_E5M2; };
    auto is_i8 = [](spmma_dtype t) { return t == SPMMA_S8 || t == SPMMA_U8; };
    if ((a == SPMMA_F16 || a == SPMMA_BF16) && b == a) return Family::B16;
    if (a == SPMMA_TF32 && b == SPMMA_TF32) return Family::B32;
    if ((is_f8(a) && is_f8(b)) || (is_i8(a) && is_i8(b))) return Family::B8;
    return std::nullopt;
}

int64_t padded_k(Family f, int64_t k) { return spmma_plugin::host::round_up(k, stage_k(f)); }

int64_t padded_rows(int64_t m, int64_t multiple) {
    if (multiple <= 0 || multiple % kMetaRowsPerUnit != 0)
        throw std::invalid_argument("padded_rows: multiple must be a positive multiple of 16");
    return spmma_plugin::host::round_up(m, multiple);
}

size_t packed_a_bytes(Family f, int64_t m, int64_t kp) {
    return static_cast<size_t>(m) * static_cast<size_t>(kp / 2) * static_cast<size_t>(traits(f).elem_bytes);
}

size_t packed_b_bytes(Family f, int64_t n, int64_t kp) {
    return static_cast<size_t>(n) * static_cast<size_t>(kp) * static_cast<size_t>(traits(f).elem_bytes);
}

size_t packed_meta_words(Family f, int64_t meta_rows, int64_t kp) {
    return static_cast<size_t>(meta_rows / kMetaRowsPerUnit) * static_cast<size_t>(kp / traits(f).unit_k) * 32u;
}

namespace {

// rows of `src_cols` elements -> rows of `dst_cols` elements, zero padded.
void pad_rows(const void* src, int64_t rows, int64_t src_cols, int64_t dst_cols, int elem_bytes, void* dst) {
    spmma_plugin::host::pad_rows(src, rows, static_cast<size_t>(src_cols) * elem_bytes, rows,
                                 static_cast<size_t>(dst_cols) * elem_bytes, dst);
}

void check_k(Family f, int64_t k, int64_t kp) {
    if (k <= 0 || k % traits(f).group != 0) throw std::invalid_argument("k must be a positive multiple of the group");
    if (kp < k || kp % stage_k(f) != 0) throw std::invalid_argument("kp must cover k in whole stages");
}

}  // namespace

void pack_a_values(Family f, const void* a, int64_t m, int64_t k, int64_t kp, void* out) {
    check_k(f, k, kp);
    pad_rows(a, m, k / 2, kp / 2, traits(f).elem_bytes, out);
}

size_t packed_a_stages_bytes(Family f, int64_t m, int64_t kp, int slice_rows) {
    return packed_a_bytes(f, padded_rows(m, slice_rows), kp);
}

PackAStagesParams pack_a_stages_params(Family f, const void* a_values, int64_t m, int64_t k, int64_t kp, int slice_rows,
                                       void* out) {
    check_k(f, k, kp);
    if (slice_rows <= 0 || slice_rows % 16 != 0) throw std::invalid_argument("pack_a_stages: slice_rows must be a multiple of 16");
    PackAStagesParams p{};
    p.src = static_cast<const uint8_t*>(a_values);
    p.dst = static_cast<uint8_t*>(out);
    p.m = m;
    p.row_bytes = k / 2 * traits(f).elem_bytes;  // a canonical compressed row
    p.chunks = static_cast<int64_t>(packed_a_stages_bytes(f, m, kp, slice_rows) / 16);
    p.k_tiles = kp / stage_k(f);
    p.slice_rows = slice_rows;
    return p;
}

void pack_a_stages(Family f, const void* a, int64_t m, int64_t k, int64_t kp, int slice_rows, void* out) {
    const PackAStagesParams p = pack_a_stages_params(f, a, m, k, kp, slice_rows, out);
    const int64_t tile_rows = padded_rows(m, slice_rows) / slice_rows;
    // (tile rows are independent: the emu plugin packs whole weights this way)
    spmma_plugin::host::parallel_for(tile_rows, spmma_plugin::host::host_threads(), [&](int64_t t0, int64_t t1) {
        std::memset(p.dst + a_stage_block_offset(t0, p.k_tiles, 0, slice_rows), 0,
                    static_cast<size_t>(a_stage_block_offset(t1 - t0, p.k_tiles, 0, slice_rows)));
        for (int64_t t = t0; t < t1; ++t)
            for (int64_t r = 0; r < slice_rows && t * slice_rows + r < m; ++r) {
                const uint8_t* row = p.src + (t * slice_rows + r) * p.row_bytes;
                for (int64_t st = 0; st < p.k_tiles; ++st) {
                    uint8_t* blk = p.dst + a_stage_block_offset(t, p.k_tiles, st, slice_rows);
                    // The row's 16-byte chunks of this stage, each where the 64-byte swizzle puts it.
                    for (int64_t c = 0; c < kStageARowBytes; c += 16) {
                        const int64_t from = st * kStageARowBytes + c;
                        uint8_t* to = blk + swizzle(static_cast<uint32_t>(r * kStageARowBytes + c), kStageARowBytes);
                        if (from + 16 <= p.row_bytes)
                            std::memcpy(to, row + from, 16);
                        else if (from < p.row_bytes)
                            std::memcpy(to, row + from, static_cast<size_t>(p.row_bytes - from));
                    }
                }
            }
    });
}

void pack_b(Family f, const void* b, int64_t n, int64_t k, int64_t kp, void* out) {
    check_k(f, k, kp);
    pad_rows(b, n, k, kp, traits(f).elem_bytes, out);
}

int64_t meta_word_index(Family f, int64_t kp, int64_t row_block, int64_t unit, int lane) {
    const int64_t units = kp / traits(f).unit_k;
    return (row_block * units + unit) * 32 + lane;
}

void pack_metadata(Family f, const uint8_t* indices, int64_t m, int64_t k, int64_t meta_rows, int64_t kp,
                   uint32_t* out) {
    check_k(f, k, kp);
    if (meta_rows < m || meta_rows % kMetaRowsPerUnit != 0)
        throw std::invalid_argument("pack_metadata: meta_rows must cover m in blocks of 16");
    const FamilyTraits t = traits(f);
    const int64_t groups = k / t.group;  // canonical index bytes per row
    const int64_t units = kp / t.unit_k;
    const spmma_plugin::host::IndexNibbles nibble{f == Family::B32 ? SPMMA_PATTERN_1_2 : SPMMA_PATTERN_2_4, indices, m, groups};
    // NOTES: the lane/nibble -> (row, group) map is the same in every unit: computed once. Row
    // blocks are independent, so they are packed in parallel (a 16384 x 16384 A is 8 M words).
    MetaPos pos[32][8];
    for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 8; ++j) pos[lane][j] = meta_position(f, lane, j);
    spmma_plugin::host::parallel_for(meta_rows / kMetaRowsPerUnit, spmma_plugin::host::host_threads(), [&](int64_t rb0, int64_t rb1) {
        for (int64_t rb = rb0; rb < rb1; ++rb)
            for (int64_t u = 0; u < units; ++u)
                for (int lane = 0; lane < 32; ++lane) {
                    uint32_t word = 0;
                    for (int j = 0; j < 8; ++j) {
                        const int64_t row = rb * kMetaRowsPerUnit + pos[lane][j].row;
                        const int64_t group = u * kMetaGroupsPerUnit + pos[lane][j].group;
                        word |= nibble(row, group) << (4 * j);
                    }
                    out[meta_word_index(f, kp, rb, u, lane)] = word;
                }
    });
}

uint32_t packed_meta_nibble(Family f, const uint32_t* packed, int64_t kp, int64_t row, int64_t group) {
    const int64_t rb = row / kMetaRowsPerUnit, u = group / kMetaGroupsPerUnit;
    const int r = static_cast<int>(row % kMetaRowsPerUnit), g = static_cast<int>(group % kMetaGroupsPerUnit);
    for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 8; ++j) {
            const MetaPos p = meta_position(f, lane, j);
            if (p.row == r && p.group == g) return (packed[meta_word_index(f, kp, rb, u, lane)] >> (4 * j)) & 0xFu;
        }
    throw std::logic_error("packed_meta_nibble: no lane holds this group");
}

void pack_c(spmma_dtype c_type, const void* c, int64_t count, void* out) { spmma_plugin::host::widen_c(c_type, c, count, out); }

}  // namespace spmma_sm90a

#include <spmma_sm90a/pack.hpp>

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

int64_t padded_k(Family f, int64_t k) {
    const int64_t s = stage_k(f);
    return (k + s - 1) / s * s;
}

int64_t padded_rows(int64_t m, int64_t multiple) {
    if (multiple <= 0 || multiple % kMetaRowsPerUnit != 0)
        throw std::invalid_argument("padded_rows: multiple must be a positive multiple of 16");
    return (m + multiple - 1) / multiple * multiple;
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
    if (dst_cols < src_cols) throw std::invalid_argument("pad_rows: destination rows are shorter than the source");
    const size_t sb = static_cast<size_t>(src_cols) * elem_bytes, db = static_cast<size_t>(dst_cols) * elem_bytes;
    const auto* s = static_cast<const uint8_t*>(src);
    auto* d = static_cast<uint8_t*>(dst);
    for (int64_t r = 0; r < rows; ++r) {
        std::memcpy(d + r * db, s + r * sb, sb);
        std::memset(d + r * db + sb, 0, db - sb);
    }
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
    // NOTES: the lane/nibble -> (row, group) map is the same in every unit: computed once. Row
    // blocks are independent, so they are packed in parallel (a 16384 x 16384 A is 8 M words).
    MetaPos pos[32][8];
    for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 8; ++j) pos[lane][j] = meta_position(f, lane, j);
    const int64_t blocks = meta_rows / kMetaRowsPerUnit;
#pragma omp parallel for schedule(static)
    for (int64_t rb = 0; rb < blocks; ++rb)
        for (int64_t u = 0; u < units; ++u)
            for (int lane = 0; lane < 32; ++lane) {
                uint32_t word = 0;
                for (int j = 0; j < 8; ++j) {
                    const int64_t row = rb * kMetaRowsPerUnit + pos[lane][j].row;
                    const int64_t group = u * kMetaGroupsPerUnit + pos[lane][j].group;
                    const uint32_t nib =
                        (row < m && group < groups) ? meta_nibble(f, indices[row * groups + group]) : kMetaPadNibble;
                    word |= nib << (4 * j);
                }
                out[meta_word_index(f, kp, rb, u, lane)] = word;
            }
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

float f16_to_f32(uint16_t h) {
    const uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1F) {
        bits = (sign << 31) | 0x7F800000u | (man << 13);
    } else if (exp != 0) {
        bits = (sign << 31) | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign << 31;
    } else {  // subnormal: normalise
        int e = -1;
        uint32_t mm = man;
        do {
            ++e;
            mm <<= 1;
        } while ((mm & 0x400u) == 0);
        bits = (sign << 31) | ((112u - static_cast<uint32_t>(e)) << 23) | ((mm & 0x3FFu) << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

float bf16_to_f32(uint16_t h) {
    const uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

void pack_c(spmma_dtype c_type, const void* c, int64_t count, void* out_bytes) {
    auto* out = static_cast<float*>(out_bytes);
    switch (c_type) {
        case SPMMA_F32: std::memcpy(out, c, static_cast<size_t>(count) * 4); return;
        case SPMMA_F16: {
            const auto* s = static_cast<const uint16_t*>(c);
            for (int64_t i = 0; i < count; ++i) out[i] = f16_to_f32(s[i]);
            return;
        }
        case SPMMA_BF16: {
            const auto* s = static_cast<const uint16_t*>(c);
            for (int64_t i = 0; i < count; ++i) out[i] = bf16_to_f32(s[i]);
            return;
        }
        case SPMMA_S32: std::memcpy(out, c, static_cast<size_t>(count) * 4); return;
        default: throw std::invalid_argument(std::string("C of type ") + spmma_dtype_name(c_type) + " is not supported");
    }
}

}  // namespace spmma_sm90a

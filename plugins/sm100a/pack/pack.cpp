#include <spmma_sm100a/pack.hpp>

#include <spmma_plugin/host_pack.hpp>

#include <cstring>
#include <stdexcept>

namespace spmma_sm100a {
namespace {

bool is_f8f6f4(spmma_dtype t) {
    return t == SPMMA_E4M3 || t == SPMMA_E5M2 || t == SPMMA_E3M2 || t == SPMMA_E2M3 || t == SPMMA_E2M1;
}
bool is_i8(spmma_dtype t) { return t == SPMMA_S8 || t == SPMMA_U8; }

void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument(what);
}

void check_k(Kind k, int64_t kk, int64_t kp) {
    require(kk > 0 && kk % traits(k).group == 0, "k must be a positive multiple of the sparsity group");
    require(kp >= kk && kp % stage_k(k) == 0, "kp must cover k in whole stages");
}

// Bits of one element as the canonical buffers store it (plugin.h).
int canonical_bits(spmma_dtype t) { return spmma_dtype_storage_bits(t); }

// Rows of `src_elems` canonical elements -> rows of `dst_elems` elements in the kind's
// shared-memory format, zero padded.
void pack_rows(Kind k, spmma_dtype t, const void* src, int64_t rows, int64_t src_elems, int64_t dst_elems, void* dst) {
    const int bits = traits(k).elem_bits;
    const size_t dst_row = static_cast<size_t>(dst_elems) * static_cast<size_t>(bits) / 8;
    const int tbits = canonical_bits(t) == 4 ? 4 : (t == SPMMA_E3M2 || t == SPMMA_E2M3) ? 6 : canonical_bits(t);
    const bool padded16 = (k == Kind::F8F6F4 || k == Kind::MXF8F6F4) && tbits < 8;
    if (!padded16) {
        // Same bits as canonical: copy the rows (packed e2m1 rows are whole bytes: src_elems even).
        require(canonical_bits(t) == bits, "element type does not match the kind's operand width");
        require((src_elems * bits) % 8 == 0, "rows must be whole bytes");
        const size_t src_row = static_cast<size_t>(src_elems) * static_cast<size_t>(bits) / 8;
        spmma_plugin::host::pad_rows(src, rows, src_row, rows, dst_row, dst);
        return;
    }
    auto* d = static_cast<uint8_t*>(dst);
    std::memset(d, 0, dst_row * static_cast<size_t>(rows));
    // kind::f8f6f4 / mxf8f6f4 with 4- or 6-bit types (PTX ISA 9.7.16.10.4.4 "Packing format used
    // for matrix A and B by .kind::mxf8f6f4 in Shared Memory"): each 16 consecutive elements of a
    // row occupy one 16-byte chunk (the row is as long as one of 8-bit elements), bit-packed
    // little-endian from bit 0 (element e at bits tbits*e ..), the rest of the chunk padding.
    // It is the image TMA writes for CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B.
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t e = 0; e < src_elems; ++e) {
            const uint32_t code = spmma_plugin::host::canonical_code(t, src, r * src_elems + e) & ((1u << tbits) - 1u);
            uint8_t* chunk = d + r * dst_row + (e / 16) * 16;
            const int bit = tbits * static_cast<int>(e % 16);
            chunk[bit / 8] |= static_cast<uint8_t>(code << (bit % 8));
            if (bit % 8 + tbits > 8) chunk[bit / 8 + 1] |= static_cast<uint8_t>(code >> (8 - bit % 8));
        }
}

}  // namespace

std::optional<Kind> kind_of(spmma_dtype a, spmma_dtype b, spmma_pattern pattern, spmma_dtype scale) {
    if (scale == SPMMA_DTYPE_NONE) {
        if ((a == SPMMA_F16 || a == SPMMA_BF16) && b == a && pattern == SPMMA_PATTERN_2_4) return Kind::F16;
        if (a == SPMMA_TF32 && b == SPMMA_TF32 && pattern == SPMMA_PATTERN_1_2) return Kind::TF32;
        if (is_f8f6f4(a) && is_f8f6f4(b) && pattern == SPMMA_PATTERN_2_4) return Kind::F8F6F4;
        if (is_i8(a) && is_i8(b) && pattern == SPMMA_PATTERN_2_4) return Kind::I8;
        return std::nullopt;
    }
    if (scale == SPMMA_UE8M0 && is_f8f6f4(a) && is_f8f6f4(b) && pattern == SPMMA_PATTERN_2_4) return Kind::MXF8F6F4;
    if (a == SPMMA_E2M1 && b == SPMMA_E2M1 && pattern == SPMMA_PATTERN_4_8_PAIRWISE) {
        if (scale == SPMMA_UE8M0) return Kind::MXF4;  // or MXF4NVF4 with 4X: scale_vec_for decides
        if (scale == SPMMA_UE4M3) return Kind::MXF4NVF4;
    }
    return std::nullopt;
}

std::optional<ScaleVec> scale_vec_for(Kind k, spmma_dtype scale, int block) {
    for (ScaleVec v : {ScaleVec::X1, ScaleVec::X2, ScaleVec::X4}) {
        if (!valid_scale_vec(k, v) || scale_block(k, v) != block) continue;
        if (k == Kind::MXF4NVF4 && scale == SPMMA_UE4M3 && v != ScaleVec::X4) continue;
        if (scale != SPMMA_UE8M0 && !(k == Kind::MXF4NVF4 && scale == SPMMA_UE4M3)) continue;
        return v;
    }
    return std::nullopt;
}

spmma_pattern pattern_of(Kind k) {
    return k == Kind::TF32                             ? SPMMA_PATTERN_1_2
           : (k == Kind::MXF4 || k == Kind::MXF4NVF4) ? SPMMA_PATTERN_4_8_PAIRWISE
                                                      : SPMMA_PATTERN_2_4;
}

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::F16: return "f16";
        case Kind::TF32: return "tf32";
        case Kind::F8F6F4: return "f8f6f4";
        case Kind::I8: return "i8";
        case Kind::MXF8F6F4: return "mxf8f6f4";
        case Kind::MXF4: return "mxf4";
        case Kind::MXF4NVF4: return "mxf4nvf4";
    }
    return "?";
}

const char* scale_vec_name(ScaleVec v) {
    return v == ScaleVec::X1 ? "1x" : v == ScaleVec::X2 ? "2x" : v == ScaleVec::X4 ? "4x" : "";
}

uint32_t type_code(Kind k, spmma_dtype t) {
    switch (k) {
        case Kind::F16:
            if (t == SPMMA_F16) return static_cast<uint32_t>(TypeCode::F16);
            if (t == SPMMA_BF16) return static_cast<uint32_t>(TypeCode::BF16);
            break;
        case Kind::TF32:
            if (t == SPMMA_TF32) return static_cast<uint32_t>(TypeCode::TF32);
            break;
        case Kind::F8F6F4:
        case Kind::MXF8F6F4:
            switch (t) {
                case SPMMA_E4M3: return static_cast<uint32_t>(TypeCode::E4M3);
                case SPMMA_E5M2: return static_cast<uint32_t>(TypeCode::E5M2);
                case SPMMA_E2M3: return static_cast<uint32_t>(TypeCode::E2M3);
                case SPMMA_E3M2: return static_cast<uint32_t>(TypeCode::E3M2);
                case SPMMA_E2M1: return static_cast<uint32_t>(TypeCode::E2M1);
                default: break;
            }
            break;
        case Kind::I8:
            if (t == SPMMA_U8) return static_cast<uint32_t>(TypeCode::U8);
            if (t == SPMMA_S8) return static_cast<uint32_t>(TypeCode::S8);
            break;
        case Kind::MXF4:
        case Kind::MXF4NVF4:
            if (t == SPMMA_E2M1) return static_cast<uint32_t>(TypeCode::E2M1_MXF4);
            break;
    }
    throw std::invalid_argument(std::string("kind::") + kind_name(k) + " takes no " + spmma_dtype_name(t));
}

uint32_t make_idesc(Kind k, spmma_dtype a, spmma_dtype b, spmma_dtype acc, int m, int n, bool saturate,
                    spmma_dtype scale) {
    InstrDesc d;
    d.kind = k;
    d.a_type = type_code(k, a);
    d.b_type = type_code(k, b);
    d.m = m;
    d.n = n;
    if (is_block_scaled(k)) {
        require(acc == SPMMA_F32, "block-scaled kinds accumulate in f32");
        require(scale == SPMMA_UE8M0 || (scale == SPMMA_UE4M3 && k == Kind::MXF4NVF4), "scale type");
        d.scale_ue8m0 = scale == SPMMA_UE8M0;
    } else {
        require(scale == SPMMA_DTYPE_NONE, "scales given to a kind without block scaling");
        if (k == Kind::I8) {
            require(acc == SPMMA_S32, "kind::i8 accumulates in s32");
            d.d = DCode::S32;
            d.saturate = saturate;
        } else {
            require(acc == SPMMA_F32 || (acc == SPMMA_F16 && k != Kind::TF32 && !(k == Kind::F16 && a == SPMMA_BF16)),
                    "accumulator type");
            d.d = acc == SPMMA_F16 ? DCode::F16 : DCode::F32;
        }
    }
    return d.encode();
}

int64_t padded_k(Kind k, int64_t kk) { return spmma_plugin::host::round_up(kk, stage_k(k)); }

int64_t padded_rows(int64_t rows, int64_t multiple) {
    require(multiple > 0, "padded_rows: multiple must be positive");
    return spmma_plugin::host::round_up(rows, multiple);
}

size_t packed_a_bytes(Kind k, int64_t m, int64_t kp) {
    return static_cast<size_t>(m) * static_cast<size_t>(kp / 2) * static_cast<size_t>(traits(k).elem_bits) / 8;
}

size_t packed_b_bytes(Kind k, int64_t n, int64_t kp) {
    return static_cast<size_t>(n) * static_cast<size_t>(kp) * static_cast<size_t>(traits(k).elem_bits) / 8;
}

size_t packed_meta_bytes(Kind k, int64_t rows_p, int64_t kp) {
    return static_cast<size_t>(rows_p / kRowsPerCta) * static_cast<size_t>(kp / stage_k(k)) * kMetaChunkBytes;
}

size_t packed_scale_bytes(Kind k, ScaleVec v, int64_t rows_p, int64_t kp, int groups) {
    return static_cast<size_t>(rows_p / (kRowsPerCta * groups)) * static_cast<size_t>(kp / stage_k(k)) *
           static_cast<size_t>(scale_tiles_per_stage(v) * groups * kScaleTileBytes);
}

int64_t meta_chunk_offset(int64_t row_block, int64_t k_stages, int64_t kt) {
    return (row_block * k_stages + kt) * kMetaChunkBytes;
}

int64_t scale_chunk_offset(ScaleVec v, int groups, int64_t row_group, int64_t k_stages, int64_t kt) {
    return (row_group * k_stages + kt) * scale_tiles_per_stage(v) * groups * kScaleTileBytes;
}

void pack_a_values(Kind k, spmma_dtype a_type, const void* a_values, int64_t m, int64_t kk, int64_t kp, void* out) {
    check_k(k, kk, kp);
    pack_rows(k, a_type, a_values, m, kk / 2, kp / 2, out);
}

void pack_b(Kind k, spmma_dtype b_type, const void* b, int64_t n, int64_t kk, int64_t kp, void* out) {
    check_k(k, kk, kp);
    pack_rows(k, b_type, b, n, kk, kp, out);
}

void pack_metadata(Kind k, const uint8_t* indices, int64_t m, int64_t kk, int64_t rows_p, int64_t kp, uint8_t* out) {
    check_k(k, kk, kp);
    require(rows_p >= m && rows_p % kRowsPerCta == 0, "rows_p must cover m in 128-row blocks");
    const int g = traits(k).group;
    const int64_t groups_per_row = kk / g, groups_per_stage = stage_k(k) / g, k_stages = kp / stage_k(k);
    const spmma_plugin::host::IndexNibbles nibble{pattern_of(k), indices, m, groups_per_row};
    std::memset(out, 0, packed_meta_bytes(k, rows_p, kp));
    for (int64_t rb = 0; rb < rows_p / kRowsPerCta; ++rb)
        for (int64_t kt = 0; kt < k_stages; ++kt) {
            uint8_t* chunk = out + meta_chunk_offset(rb, k_stages, kt);
            for (int r = 0; r < kRowsPerCta; ++r)
                for (int gi = 0; gi < groups_per_stage; ++gi) {
                    const int64_t row = rb * kRowsPerCta + r, group = kt * groups_per_stage + gi;
                    const ChunkPos p = meta_position(k, r, gi);
                    chunk[p.byte()] |= static_cast<uint8_t>(nibble(row, group) << (p.bit % 8));
                }
        }
}

void pack_scales(Kind k, ScaleVec v, spmma_dtype scale_type, const uint8_t* scales, int64_t rows, int64_t kk,
                 int block, int64_t rows_p, int64_t kp, int groups, uint8_t* out) {
    check_k(k, kk, kp);
    require(valid_scale_vec(k, v) && v != ScaleVec::None, "scale_vec not valid for the kind");
    require(block == scale_block(k, v), "scale block does not match the instruction's (" +
                                            std::to_string(scale_block(k, v)) + " k per scale)");
    require(kk % block == 0, "k must be a multiple of the scale block");
    require(groups >= 1 && rows_p >= rows && rows_p % (kRowsPerCta * groups) == 0, "rows_p must cover rows in whole groups");
    const int64_t blocks_per_row = kk / block, k_stages = kp / stage_k(k);
    const int tiles = scale_tiles_per_stage(v), per_instr = static_cast<int>(v);
    const uint8_t one = scale_one(scale_type);
    for (int64_t rg = 0; rg < rows_p / (kRowsPerCta * groups); ++rg)
        for (int64_t kt = 0; kt < k_stages; ++kt) {
            uint8_t* chunk = out + scale_chunk_offset(v, groups, rg, k_stages, kt);
            std::memset(chunk, one, static_cast<size_t>(tiles * groups * kScaleTileBytes));
            for (int g = 0; g < groups; ++g)
                for (int r = 0; r < kRowsPerCta; ++r)
                    for (int step = 0; step < kStepsPerStage; ++step)
                        for (int s = 0; s < per_instr; ++s) {
                            const int64_t row = rg * kRowsPerCta * groups + g * kRowsPerCta + r;
                            const int64_t blk = (kt * stage_k(k) + step * traits(k).mma_k) / block + s;
                            const ScalePos p = scale_position(v, r, step, s);
                            uint8_t* tile = chunk + (p.tile * groups + g) * kScaleTileBytes;
                            tile[p.pos.byte()] = row < rows && blk < blocks_per_row ? scales[row * blocks_per_row + blk] : one;
                        }
        }
}

uint8_t scale_one(spmma_dtype scale_type) {
    // ue8m0: 2^(e - 127); ue4m3: e4m3 bits without the sign (1.0 = exponent 7 << 3).
    return scale_type == SPMMA_UE4M3 ? 0x38 : 0x7F;
}

void pack_c(spmma_dtype c_type, const void* c, int64_t count, void* out) { spmma_plugin::host::widen_c(c_type, c, count, out); }

}  // namespace spmma_sm100a

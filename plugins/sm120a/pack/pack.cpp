#include <spmma_sm120a/pack.hpp>

#include <spmma_plugin/host_pack.hpp>

#include <cstring>
#include <stdexcept>

namespace spmma_sm120a {
namespace {

using spmma_plugin::host::canonical_code;
using spmma_plugin::host::ceil_div;
using spmma_plugin::host::parallel_for;

bool packed_storage(spmma_dtype t) { return spmma_dtype_storage_bits(t) == 4; }

}  // namespace

uint8_t unit_scale(spmma_dtype scale) {
    switch (scale) {
        case SPMMA_UE8M0: return 0x7F;  // 2^(127 - 127)
        case SPMMA_UE4M3: return 0x38;  // exponent 7 (bias 7), mantissa 0
        default: throw std::invalid_argument("unit_scale: not a scale type");
    }
}

uint8_t f8f6f4_container(spmma_dtype t, uint32_t code) {
    switch (t) {
        case SPMMA_E2M1: return static_cast<uint8_t>((code & 0xFu) << 2);  // bits 5..2
        case SPMMA_E3M2:
        case SPMMA_E2M3: return static_cast<uint8_t>(code & 0x3Fu);        // bits 5..0
        case SPMMA_E4M3:
        case SPMMA_E5M2: return static_cast<uint8_t>(code);
        default: throw std::invalid_argument(std::string("no f8f6f4 container for ") + spmma_dtype_name(t));
    }
}

PackedShape packed_shape(const Form& f, const Tile& t, int64_t m, int64_t n, int64_t k) {
    if (m <= 0 || n <= 0 || k <= 0) throw std::invalid_argument("packed_shape: sizes must be positive");
    if (k % f.chunk() != 0)
        throw std::invalid_argument("packed_shape: k = " + std::to_string(k) + " is not a multiple of the pattern group " +
                                    std::to_string(f.chunk()));
    if (f.scaled() && k % f.scale_block() != 0)
        throw std::invalid_argument("packed_shape: k = " + std::to_string(k) + " is not a multiple of the scale block " +
                                    std::to_string(f.scale_block()));
    PackedShape s;
    static_cast<spmma_plugin::host::StagedShape&>(s) = spmma_plugin::host::staged_shape(
        m, n, k, t.bm, t.bn, ceil_div(k, f.stage_k()), {f.stage_k(), kStageBytes, a_stage_bytes(t.bm), e_stage_words(t.bm)});
    s.scale_blocks = f.scaled() ? k / f.scale_block() : 0;
    s.sa_words = (s.m_pad / t.bm) * s.k_stages * sa_stage_words(f, t.bm);
    s.sb_words = (s.n_pad / t.bn) * s.k_stages * sb_stage_words(f, t.bn);
    return s;
}

int64_t canonical_a_values_bytes(const Form& f, int64_t m, int64_t k) {
    return m * (k / 2) * spmma_dtype_storage_bits(f.a) / 8;
}
int64_t canonical_a_indices_bytes(const Form& f, int64_t m, int64_t k) { return m * (k / f.chunk()); }
int64_t canonical_b_bytes(const Form& f, int64_t n, int64_t k) { return n * k * spmma_dtype_storage_bits(f.b) / 8; }
int64_t canonical_scale_bytes(const Form& f, int64_t rows, int64_t k) { return f.scaled() ? rows * (k / f.scale_block()) : 0; }

void pack_a(const Form& f, const PackedShape& s, int bm, const uint8_t* values, const uint8_t* indices, uint8_t* a_out,
            uint32_t* e_out, int threads) {
    const int64_t row_elems = s.k / 2;             // kept elements of one canonical row
    const int64_t row_bytes = packed_storage(f.a) ? row_elems / 2 : row_elems;
    const int64_t groups = s.k / f.chunk();        // index bytes of one canonical row
    const int64_t tiles_m = s.m_pad / bm;
    const int atoms = bm / kAtomRows;
    const int64_t a_block = a_stage_bytes(bm), e_block = e_stage_words(bm);
    constexpr int kChunksPerStep = 16;             // metadata nibbles a row per mma
    const spmma_plugin::host::IndexNibbles nibble{f.pattern(), indices, s.m, groups};

    // Byte `b` (0..31) of the mma's compressed row data at mma step `j` of canonical row `row`,
    // in the instruction's format.
    auto a_byte = [&](int64_t row, int64_t j, int b) -> uint8_t {
        if (row >= s.m) return 0;
        const int64_t pos = j * 32 + b;  // packed: byte of the row; containers: kept element
        if (f.packed()) return pos < row_bytes ? values[row * row_bytes + pos] : uint8_t(0);
        if (pos >= row_elems) return 0;
        return f8f6f4_container(f.a, canonical_code(f.a, values + row * row_bytes, pos));
    };

    spmma_plugin::host::for_each_stage_block(tiles_m, s.k_stages, a_block, e_block, a_out, e_out, threads,
                                             [&](int64_t mt, int64_t ks, uint8_t* a_blk, uint32_t* e_blk) {
        for (int atom = 0; atom < atoms; ++atom) {
            const int64_t row0 = mt * bm + int64_t(atom) * kAtomRows;
            for (int step = 0; step < kSteps; ++step) {
                const int64_t j = ks * kSteps + step;  // mma step along k
                for (int lane = 0; lane < 32; ++lane)
                    for (int reg = 0; reg < 4; ++reg) {
                        const int64_t row = row0 + a_frag_row(lane, reg);
                        uint8_t* dst = a_blk + a_stage_offset(atom, step, lane) + 4 * reg;
                        for (int i = 0; i < 4; ++i) dst[i] = a_byte(row, j, a_frag_byte(lane, reg) + i);
                    }
                for (int r = 0; r < kAtomRows; ++r) {
                    const int64_t row = row0 + r;
                    for (int c = 0; c < kChunksPerStep; ++c) {
                        const int64_t g = j * kChunksPerStep + c;  // canonical group of the row
                        const MetaPos pos = meta_position(r, c);
                        e_blk[e_stage_offset(atom, step, pos.lane)] |= nibble(row, g) << (4 * pos.nibble);
                    }
                }
            }
        }
    });
}

void pack_b(const Form& f, const PackedShape& s, const uint8_t* b, uint8_t* out, int threads) {
    const int64_t col_bytes = canonical_b_bytes(f, 1, s.k);
    const bool expand = !f.packed();  // containers: one byte per element
    parallel_for(s.n_pad, threads, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) {
            uint8_t* dst = out + c * s.ldb;
            std::memset(dst, 0, static_cast<size_t>(s.ldb));
            if (c >= s.n) continue;
            const uint8_t* src = b + c * col_bytes;
            if (expand) {
                for (int64_t kk = 0; kk < s.k; ++kk) dst[kk] = f8f6f4_container(f.b, canonical_code(f.b, src, kk));
            } else {
                std::memcpy(dst, src, static_cast<size_t>(col_bytes));
            }
        }
    });
}

namespace {

// The scale byte of block `blk` (of the stage's blocks: 4*word + byte) of row/column `rc`.
uint8_t scale_byte(const Form& f, const PackedShape& s, const uint8_t* scales, int64_t rows, int64_t rc, int64_t ks, int blk) {
    const int64_t block = ks * f.stage_blocks() + blk;
    if (blk >= f.stage_blocks() || rc >= rows || block >= s.scale_blocks) return unit_scale(f.scale);
    return scales[rc * s.scale_blocks + block];
}

void require_scaled(const Form& f) {
    if (!f.scaled()) throw std::invalid_argument("pack_scales: the form has no block scales");
}

}  // namespace

void pack_scales_a(const Form& f, const PackedShape& s, int bm, const uint8_t* scale_a, uint32_t* out, int threads) {
    require_scaled(f);
    const int pairs = bm / (kAtomRows * kAtomsPerScaleA), words = f.scale_words();
    const int64_t block_words = sa_stage_words(f, bm);
    parallel_for(s.m_pad / bm, threads, [&](int64_t t0, int64_t t1) {
        for (int64_t mt = t0; mt < t1; ++mt)
            for (int64_t ks = 0; ks < s.k_stages; ++ks) {
                uint32_t* blk = out + (mt * s.k_stages + ks) * block_words;
                for (int pair = 0; pair < pairs; ++pair)
                    for (int w = 0; w < words; ++w)
                        for (int lane = 0; lane < 32; ++lane) {
                            const int atom = kAtomsPerScaleA * pair + scale_a_tid(lane);
                            const int64_t row = mt * bm + int64_t(atom) * kAtomRows + scale_a_row(lane);
                            uint32_t word = 0;
                            for (int y = 0; y < 4; ++y) word |= uint32_t(scale_byte(f, s, scale_a, s.m, row, ks, 4 * w + y)) << (8 * y);
                            blk[sa_stage_offset(words, pair, w, lane)] = word;
                        }
            }
    });
}

void pack_scales_b(const Form& f, const PackedShape& s, int bn, const uint8_t* scale_b, uint32_t* out, int threads) {
    require_scaled(f);
    const int quads = bn / (kAtomCols * kAtomsPerScaleB), words = f.scale_words();
    const int64_t block_words = sb_stage_words(f, bn);
    parallel_for(s.n_pad / bn, threads, [&](int64_t t0, int64_t t1) {
        for (int64_t nt = t0; nt < t1; ++nt)
            for (int64_t ks = 0; ks < s.k_stages; ++ks) {
                uint32_t* blk = out + (nt * s.k_stages + ks) * block_words;
                for (int quad = 0; quad < quads; ++quad)
                    for (int w = 0; w < words; ++w)
                        for (int lane = 0; lane < 32; ++lane) {
                            const int natom = kAtomsPerScaleB * quad + scale_b_tid(lane);
                            const int64_t col = nt * bn + int64_t(natom) * kAtomCols + scale_b_col(lane);
                            uint32_t word = 0;
                            for (int y = 0; y < 4; ++y) word |= uint32_t(scale_byte(f, s, scale_b, s.n, col, ks, 4 * w + y)) << (8 * y);
                            blk[sb_stage_offset(words, quad, w, lane)] = word;
                        }
            }
    });
}

std::string check_indices(const Form& f, int64_t m, int64_t k, const uint8_t* indices) {
    return spmma_plugin::host::first_undefined_index(
        f.chunk(), m, k, indices,
        std::string("mma.sp::ordered_metadata needs two different, increasing 2-bit ") + (f.packed() ? "pair" : "element") +
            " indices");
}

}  // namespace spmma_sm120a

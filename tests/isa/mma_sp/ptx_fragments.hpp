// Test-side fragment packing for mma.sp, written from the PTX text's own formulas (9.7.14.6.2
// for A and metadata, 9.7.14.5.x for B, C, D, 9.7.14.3 for scales) and deliberately independent
// of the model's layout code: A is placed by the "ai -> row, [firstcol..lastcol]" formulas, B and
// C/D by the "bi/ci -> row, col" formulas, so a misreading in the model's a_slot/b_position/
// metadata_position cannot hide behind the same misreading here.
#pragma once

#include <spmma/isa/mma_sp.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace ptxfrag {

using spmma::DType;
using spmma::isa::MmaSp;
using spmma::isa::MmaSpWarp;

// A logical tile as a test means it.
struct Tile {
    MmaSp form;
    int k = 0;
    // For each row, the kept columns in metadata order (ascending unless a test swaps a pair).
    // 2:4: 2 columns per 4-wide chunk; tf32: 1 per 2-wide chunk; 4:8 pairwise: 4 per 8-wide
    // chunk, listed as two pairs (2c, 2c+1).
    std::vector<std::vector<int>> kept_cols;  // [16][k/2]
    std::vector<std::vector<uint32_t>> kept_code;  // [16][k/2] element codes (type's code points)
    std::vector<uint32_t> b_code;   // k x 8, row-major
    std::vector<uint32_t> c_bits;   // 16 x 8, row-major: f32/s32 bits or f16 bits
    std::vector<uint32_t> sfa;      // 16 x scale_vec scale bytes
    std::vector<uint32_t> sfb;      // scale_vec x 8 scale bytes
    int selector = 0;
    uint16_t bida = 0, tida = 0, bidb = 0, tidb = 0;
};

inline int bits_of(const MmaSp& f, DType t) {
    if (f.kind == MmaSp::Kind::F8F6F4 || f.kind == MmaSp::Kind::MXF8F6F4) return 8;
    switch (t) {
        case DType::TF32: return 32;
        case DType::F16: case DType::BF16: return 16;
        case DType::S4: case DType::U4: case DType::E2M1: return 4;
        default: return 8;
    }
}

// The register bits of one element code: the f8f6f4 container (PTX: "e2m1 resides in central 4
// bits ... padding in the upper 2 bits and lower 2 bits"; e3m2/e2m3 "in the lower 6 bits").
inline uint32_t element_bits(const MmaSp& f, DType t, uint32_t code) {
    if ((f.kind == MmaSp::Kind::F8F6F4 || f.kind == MmaSp::Kind::MXF8F6F4) && t == DType::E2M1) return (code & 0xf) << 2;
    return code;
}

struct ARow { int row, firstcol, lastcol; };

// PTX 9.7.14.6.2.x: "row = groupID for ai where ..., groupID + 8 otherwise;
// firstcol = ..., lastcol = firstcol + ...". Returns the row and column span of ai.
inline ARow a_formula(const MmaSp& f, int lane, int i) {
    const int g = lane >> 2, t = lane % 4;
    const int abits = bits_of(f, f.a);
    if (f.a == DType::TF32) {
        if (f.k == 8) return {i == 0 ? g : g + 8, t * 2, t * 2 + 1};                 // 9.7.14.6.2.4
        const int fc = (i < 2) ? t * 2 : t * 2 + 8;                                  // 9.7.14.6.2.3
        return {(i == 0 || i == 2) ? g : g + 8, fc, fc + 1};
    }
    if (abits == 16) {
        if (f.k == 16) return {i < 2 ? g : g + 8, t * 4, t * 4 + 3};                 // 9.7.14.6.2.1
        const int fc = i < 4 ? t * 4 : t * 4 + 16;                                   // 9.7.14.6.2.2
        return {(i < 2 || (i >= 4 && i < 6)) ? g : g + 8, fc, fc + 3};
    }
    if (abits == 8) {
        if (f.k == 32) return {i < 4 ? g : g + 8, t * 8, t * 8 + 7};                 // 9.7.14.6.2.5
        const int fc = i < 8 ? t * 8 : t * 8 + 32;                                   // 9.7.14.6.2.6
        return {(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, fc, fc + 7};
    }
    if (f.k == 64) return {i < 8 ? g : g + 8, t * 16, t * 16 + 15};                  // 9.7.14.6.2.7
    const int fc = i < 16 ? t * 16 : t * 16 + 64;                                    // 9.7.14.6.2.8
    return {(i < 8 || (i >= 16 && i < 24)) ? g : g + 8, fc, fc + 15};
}

// B: "row = ... for bi, col = groupID" (dense 9.7.14.5.x; the sparse shapes with twice the K
// continue the same pattern in further registers, as the sparse figures show).
inline int b_row(const MmaSp& f, int lane, int i) {
    const int t = lane % 4;
    const int bb = bits_of(f, f.b);
    if (f.b == DType::TF32) return t + 4 * i;                  // b0: t, b1: t + 4, ...
    if (bb == 16) return t * 2 + (i & 1) + 8 * (i >> 1);       // 9.7.14.5.8 f16 m16n8k16
    if (bb == 8) return t * 4 + (i & 3) + 16 * (i >> 2);       // m16n8k32 8-bit
    return t * 8 + (i & 7) + 32 * (i >> 3);                    // m16n8k64 4-bit
}

// C/D: "row = groupID for c0 and c1, groupID + 8 for c2 and c3; col = threadID_in_group * 2 + (i & 0x1)".
inline int cd_row(int lane, int i) { return (lane >> 2) + (i < 2 ? 0 : 8); }
inline int cd_col(int lane, int i) { return (lane % 4) * 2 + (i & 1); }

// Metadata placement, one nibble per chunk (bits 1..0 first index, bits 3..2 second).
// 16-bit family (f16, bf16, tf32): the lane holds row g in bits 15..0 and row g+8 in bits
// 31..16, chunk j of the lane's columns in bits 4j+3..4j; k16/k8 (one lane per group, lane
// 4g+f), k32/k16 (a pair, lanes 4g+2f and 4g+2f+1 for the first and second half of the row).
// 8-bit family (8-bit, 4-bit): the lane holds one row across 32 bits (8 chunks); pair member 0
// row g, member 1 row g+8; k64/k128 add lanes 4g+2, 4g+3 for the second half of the row.
struct MetaCell { int lane, shift; };
inline MetaCell meta_cell(const MmaSp& f, int sel, int row, int chunk) {
    const int g = row % 8;
    const bool lower = row < 8;
    const int per_row = f.k / (f.a == DType::TF32 ? 2 : bits_of(f, f.a) == 4 ? 8 : 4);
    const bool sixteen = f.a == DType::TF32 || bits_of(f, f.a) == 16;
    if (sixteen) {
        const int lane = per_row == 4 ? 4 * g + sel : 4 * g + 2 * sel + chunk / 4;
        return {lane, (lower ? 0 : 16) + 4 * (chunk % 4)};
    }
    const int lane = per_row == 8 ? 4 * g + 2 * sel + (lower ? 0 : 1) : 4 * g + (lower ? 0 : 1) + 2 * (chunk / 8);
    return {lane, 4 * (chunk % 8)};
}

inline int chunk_w(const MmaSp& f) { return f.a == DType::TF32 ? 2 : bits_of(f, f.a) == 4 ? 8 : 4; }

// Packs a Tile into the registers the 32 lanes hand the instruction.
inline MmaSpWarp pack(const Tile& tl) {
    const MmaSp& f = tl.form;
    MmaSpWarp w{};
    w.selector = tl.selector;
    const int abits = bits_of(f, f.a), bbits = bits_of(f, f.b);
    const int a_per_lane = (tl.k / 2) * 16 / 32;   // compressed elements per lane
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < a_per_lane; ++i) {
            const ARow r = a_formula(f, lane, i);
            const int span_kept = (r.lastcol - r.firstcol + 1) / 2;
            const int rank = i % span_kept;  // ai of one span are consecutive
            // the rank-th kept element (metadata order) of this row inside [firstcol, lastcol]
            int seen = 0, found = -1;
            for (size_t j = 0; j < tl.kept_cols[r.row].size(); ++j) {
                const int c = tl.kept_cols[r.row][j];
                if (c < r.firstcol || c > r.lastcol) continue;
                if (seen++ == rank) { found = static_cast<int>(j); break; }
            }
            if (found < 0) throw std::logic_error("tile has too few kept elements in a span");
            const uint32_t bits = element_bits(f, f.a, tl.kept_code[r.row][found]);
            const int per_reg = 32 / abits;
            w.a[lane][i / per_reg] |= (abits == 32 ? bits : (bits & ((1u << abits) - 1))) << ((i % per_reg) * abits);
        }
    const int b_per_lane = tl.k * 8 / 32;
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < b_per_lane; ++i) {
            const int row = b_row(f, lane, i), col = lane >> 2;
            const uint32_t bits = element_bits(f, f.b, tl.b_code[row * 8 + col]);
            const int per_reg = 32 / bbits;
            w.b[lane][i / per_reg] |= (bbits == 32 ? bits : (bits & ((1u << bbits) - 1))) << ((i % per_reg) * bbits);
        }
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const uint32_t v = tl.c_bits[cd_row(lane, i) * 8 + cd_col(lane, i)];
            if (f.c == DType::F16) w.c[lane][i / 2] |= (v & 0xffff) << (16 * (i & 1));
            else w.c[lane][i] = v;
        }
    // metadata: the nibble of each (row, chunk) from the kept columns
    const int cw = chunk_w(f);
    for (int row = 0; row < 16; ++row)
        for (int chunk = 0; chunk < tl.k / cw; ++chunk) {
            std::vector<int> idx;
            for (int c : tl.kept_cols[row])
                if (c / cw == chunk) idx.push_back(c % cw);
            uint32_t nib;
            if (f.a == DType::TF32) nib = idx.at(0) == 0 ? 0b0100 : 0b1110;  // PTX: the only meaningful values
            else if (cw == 8) nib = (idx.at(0) / 2) | ((idx.at(2) / 2) << 2);  // pair positions
            else nib = idx.at(0) | (idx.at(1) << 2);
            const MetaCell m = meta_cell(f, tl.selector, row, chunk);
            w.e[m.lane] |= nib << m.shift;
        }
    if (spmma::isa::is_block_scaled(f)) {
        w.byte_id_a = tl.bida; w.thread_id_a = tl.tida; w.byte_id_b = tl.bidb; w.thread_id_b = tl.tidb;
        for (int m = 0; m < 16; ++m)
            for (int j = 0; j < f.scale_vec; ++j)
                w.scale_a[4 * (m % 8) + 2 * tl.tida + (m < 8 ? 0 : 1)] |= (tl.sfa[m * f.scale_vec + j] & 0xff) << (8 * (tl.bida + j));
        for (int n = 0; n < 8; ++n)
            for (int j = 0; j < f.scale_vec; ++j)
                w.scale_b[4 * n + tl.tidb] |= (tl.sfb[j * 8 + n] & 0xff) << (8 * (tl.bidb + j));
    }
    return w;
}

// The value of D[m][n] a test expects: C + sum over kept (a * sfa) * (b * sfb), summed in double
// (tests choose data whose sums are exact in double), as the D type's bits.
inline std::vector<uint32_t> expected_d(const Tile& tl) {
    const MmaSp& f = tl.form;
    std::vector<uint32_t> out(128);
    auto val = [&](DType t, uint32_t code) { return spmma::decode(t, code); };
    const int bw = spmma::isa::is_block_scaled(f) ? tl.k / f.scale_vec : tl.k;
    for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 8; ++n) {
            if (f.d == DType::S32) {
                int64_t s = static_cast<int32_t>(tl.c_bits[m * 8 + n]);
                for (size_t j = 0; j < tl.kept_cols[m].size(); ++j)
                    s += static_cast<int64_t>(val(f.a, tl.kept_code[m][j])) *
                         static_cast<int64_t>(val(f.b, tl.b_code[tl.kept_cols[m][j] * 8 + n]));
                if (f.satfinite) s = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, s));
                out[m * 8 + n] = static_cast<uint32_t>(s);
                continue;
            }
            double s = val(f.c, tl.c_bits[m * 8 + n]);
            for (size_t j = 0; j < tl.kept_cols[m].size(); ++j) {
                const int col = tl.kept_cols[m][j];
                double p = val(f.a, tl.kept_code[m][j]) * val(f.b, tl.b_code[col * 8 + n]);
                if (spmma::isa::is_block_scaled(f))
                    p *= val(f.scale_type, tl.sfa[m * f.scale_vec + col / bw]) * val(f.scale_type, tl.sfb[(col / bw) * 8 + n]);
                s += p;
            }
            out[m * 8 + n] = f.d == DType::F16 ? spmma::encode(DType::F16, s) : spmma::f32_bits(static_cast<float>(s));
        }
    return out;
}

// D registers back to a 16 x 8 row-major tile of bits.
inline std::vector<uint32_t> unpack_d(const MmaSp& f, const spmma::isa::MmaSpResult& r) {
    std::vector<uint32_t> out(128);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const uint32_t v = f.d == DType::F16 ? (r.d[lane][i / 2] >> (16 * (i & 1))) & 0xffff : r.d[lane][i];
            out[cd_row(lane, i) * 8 + cd_col(lane, i)] = v;
        }
    return out;
}

// ---- random tiles whose sums are exact in double ---------------------------------------------

// A code of t whose value is m * 2^e, |m| <= 7, e in [-2, 2] (every float type holds some).
inline uint32_t nice_code(DType t, std::mt19937& rng) {
    if (spmma::is_integer(t)) {
        const auto& ti = spmma::info(t);
        const uint32_t mask = ti.bits == 32 ? 0xffffffffu : (1u << ti.bits) - 1;
        return std::uniform_int_distribution<uint32_t>(0, mask)(rng);
    }
    for (;;) {
        const int m = std::uniform_int_distribution<int>(-7, 7)(rng);
        const int e = std::uniform_int_distribution<int>(-2, 2)(rng);
        const double v = std::ldexp(m, e);
        const uint32_t c = spmma::encode(t, v);
        if (spmma::decode(t, c) == v) return c;
    }
}

inline uint32_t scale_code(DType t, std::mt19937& rng) {
    if (t == DType::UE8M0) return 127 + std::uniform_int_distribution<int>(-3, 3)(rng);
    return (std::uniform_int_distribution<uint32_t>(5, 9)(rng) << 3) | std::uniform_int_distribution<uint32_t>(0, 7)(rng);
}

// unordered: for mma.sp (not ::ordered_metadata) list the kept positions of some chunks in
// decreasing order (PTX allows any order there except equal indices).
inline Tile random_tile(const MmaSp& f, std::mt19937& rng, bool unordered = false) {
    Tile tl;
    tl.form = f;
    tl.k = f.k;
    const int cw = chunk_w(f);
    tl.kept_cols.assign(16, {});
    tl.kept_code.assign(16, {});
    for (int row = 0; row < 16; ++row)
        for (int chunk = 0; chunk < f.k / cw; ++chunk) {
            std::vector<int> cols;
            if (cw == 2) {
                cols.push_back(2 * chunk + std::uniform_int_distribution<int>(0, 1)(rng));
            } else {
                int i0 = std::uniform_int_distribution<int>(0, 3)(rng), i1;
                do i1 = std::uniform_int_distribution<int>(0, 3)(rng); while (i1 == i0);
                if (i0 > i1) std::swap(i0, i1);
                if (unordered && std::uniform_int_distribution<int>(0, 1)(rng)) std::swap(i0, i1);
                if (cw == 4) { cols = {4 * chunk + i0, 4 * chunk + i1}; }
                else { cols = {8 * chunk + 2 * i0, 8 * chunk + 2 * i0 + 1, 8 * chunk + 2 * i1, 8 * chunk + 2 * i1 + 1}; }
            }
            for (int c : cols) {
                tl.kept_cols[row].push_back(c);
                uint32_t code = nice_code(f.a, rng);
                if (f.a == DType::TF32) code |= std::uniform_int_distribution<uint32_t>(0, 0x1fff)(rng);  // dropped bits
                tl.kept_code[row].push_back(code);
            }
        }
    tl.b_code.resize(f.k * 8);
    for (auto& c : tl.b_code) {
        c = nice_code(f.b, rng);
        if (f.b == DType::TF32) c |= std::uniform_int_distribution<uint32_t>(0, 0x1fff)(rng);
    }
    tl.c_bits.resize(128);
    for (auto& c : tl.c_bits) {
        if (f.c == DType::S32) c = static_cast<uint32_t>(std::uniform_int_distribution<int32_t>(-(1 << 20), 1 << 20)(rng));
        else c = nice_code(f.c, rng);
    }
    tl.selector = std::uniform_int_distribution<int>(0, spmma::isa::selector_count(f) - 1)(rng);
    if (spmma::isa::is_block_scaled(f)) {
        tl.sfa.resize(16 * f.scale_vec);
        tl.sfb.resize(8 * f.scale_vec);
        for (auto& s : tl.sfa) s = scale_code(f.scale_type, rng);
        for (auto& s : tl.sfb) s = scale_code(f.scale_type, rng);
        tl.tida = std::uniform_int_distribution<uint16_t>(0, 1)(rng);
        tl.tidb = std::uniform_int_distribution<uint16_t>(0, 3)(rng);
        auto byte_id = [&] {
            if (f.scale_vec == 1) return std::uniform_int_distribution<uint16_t>(0, 3)(rng);
            if (f.scale_vec == 2) return static_cast<uint16_t>(2 * std::uniform_int_distribution<uint16_t>(0, 1)(rng));
            return uint16_t{0};
        };
        tl.bida = byte_id();
        tl.bidb = byte_id();
    }
    return tl;
}

}  // namespace ptxfrag

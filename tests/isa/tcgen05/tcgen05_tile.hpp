// Test-side packer for tcgen05.mma.sp, written from the PTX text independently of the model:
// operands placed by swizzle atoms then chunk-moved within 128-byte lines; metadata and block
// scales written lane by lane into a tensor-memory image (which rows/chunks a lane holds), where
// the model looks up row by row.
#pragma once

#include <spmma/isa/smem.hpp>
#include <spmma/isa/tcgen05_mma_sp.hpp>
#include <spmma/types.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace tctest {

using namespace spmma;
using namespace spmma::isa;

inline int row_bytes(Swizzle s) { return s == Swizzle::None ? 16 : s == Swizzle::B32 ? 32 : s == Swizzle::B64 ? 64 : 128; }

struct Placement {
    Swizzle swz = Swizzle::None;
    bool mn_major = false;
    int bits = 16;      // element width
    int per_chunk = 8;  // elements per 16-byte chunk (16 for the padded 4/6-bit format)
    uint32_t start = 0, lbo = 0, sbo = 0;
};

// Element format of a type in shared memory for a kind (PTX 9.7.16.10.4).
inline void format(Tcgen05Kind kind, DType t, int& bits, int& per_chunk) {
    if (kind == Tcgen05Kind::MXF4 || kind == Tcgen05Kind::MXF4NVF4) { bits = 4; per_chunk = 32; return; }
    if (t == DType::E2M1) { bits = 4; per_chunk = 16; return; }
    if (t == DType::E2M3 || t == DType::E3M2) { bits = 6; per_chunk = 16; return; }
    bits = info(t).storage_bits;
    per_chunk = 128 / bits;
}

inline Placement make_placement(Tcgen05Kind kind, DType t, Swizzle swz, bool mn_major, int mn, int k, uint32_t start) {
    Placement p;
    p.swz = swz;
    p.mn_major = mn_major;
    format(kind, t, p.bits, p.per_chunk);
    p.start = start;
    const uint32_t r = static_cast<uint32_t>(row_bytes(swz));
    if (!mn_major) {
        const uint32_t kbytes = static_cast<uint32_t>(k / p.per_chunk * 16);
        if (swz == Swizzle::None) { p.lbo = 128; p.sbo = 128 * (kbytes / 16); }
        else { p.lbo = 16; p.sbo = 8 * r; }  // LBO unused ("assumed 1")
    } else {
        const uint32_t mnbytes = static_cast<uint32_t>(mn / p.per_chunk * 16);
        if (swz == Swizzle::None) { p.sbo = 128; p.lbo = 128 * (mnbytes / 16); }
        else { p.lbo = 8 * r; p.sbo = 8 * mnbytes; }
    }
    return p;
}

inline uint64_t descriptor(const Placement& p) {
    UmmaDescriptor d;
    d.start_address = p.start;
    d.leading_byte_offset = p.lbo;
    d.stride_byte_offset = p.sbo;
    d.swizzle = p.swz;
    return d.encode();
}

// Bit address of element (mn, k).
inline uint64_t place(const Placement& p, int mn, int k) {
    const uint32_t r = static_cast<uint32_t>(row_bytes(p.swz));
    uint32_t chunk;
    int within;
    if (!p.mn_major) {
        const uint32_t kc = static_cast<uint32_t>(k / p.per_chunk);
        within = k % p.per_chunk;
        if (p.swz == Swizzle::None) chunk = p.start + (mn / 8) * p.sbo + kc * p.lbo + (mn % 8) * 16;
        else chunk = p.start + (mn / 8) * p.sbo + (mn % 8) * r + kc * 16;
    } else {
        const uint32_t mc = static_cast<uint32_t>(mn / p.per_chunk), per_row = r / 16;
        within = mn % p.per_chunk;
        if (p.swz == Swizzle::None) chunk = p.start + mc * p.sbo + (k / 8) * p.lbo + (k % 8) * 16;
        else chunk = p.start + (mc / per_row) * p.lbo + (k / 8) * p.sbo + (k % 8) * r + (mc % per_row) * 16;
    }
    if (p.swz != Swizzle::None) {
        const uint32_t line = chunk / 128, c = (chunk % 128) / 16, mask = r / 16 - 1;
        chunk = line * 128 + (c ^ (line & mask)) * 16;
    }
    return uint64_t(chunk) * 8 + uint64_t(within) * p.bits;
}

inline void put(SharedMemory& s, const Placement& p, int mn, int k, uint32_t code) {
    const uint64_t bit = place(p, mn, k);
    for (int i = 0; i < p.bits; ++i) {
        const uint64_t b = bit + i;
        uint8_t& byte = s.bytes.at(b / 8);
        byte = static_cast<uint8_t>((byte & ~(1u << (b % 8))) | (((code >> i) & 1u) << (b % 8)));
    }
}

// A 128 x K sparse A: per row the K/2 stored codes and their logical K positions.
struct SparseA {
    Tcgen05Kind kind;
    DType type;
    int k;
    std::vector<uint32_t> code;  // 128 x k/2
    std::vector<int> pos;        // 128 x k/2
};

inline int small_int(DType t, std::mt19937& rng) {
    if (t == DType::U8) return static_cast<int>(rng() % 10);
    if (t == DType::E2M1) { static const int v[] = {-4, -3, -2, -1, 1, 2, 3, 4}; return v[rng() % 8]; }
    return static_cast<int>(rng() % 9) - 4;
}

// Random A with the kind's pattern, using only the index values the PTX text calls meaningful.
inline SparseA random_a(Tcgen05Kind kind, DType t, std::mt19937& rng) {
    const int k = tcgen05_sp_k(kind), kc = k / 2;
    SparseA a{kind, t, k, std::vector<uint32_t>(128 * kc), std::vector<int>(128 * kc)};
    static const int pairs[7][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 1}, {2, 3}};  // 0100 1000 1100 1001 1101 0110 1110
    for (int m = 0; m < 128; ++m) {
        for (int j = 0; j < kc; ++j) {
            int x = small_int(t, rng);
            if (x == 0) x = 2;
            a.code[m * kc + j] = encode(t, x);
        }
        if (kind == Tcgen05Kind::TF32) {
            for (int c = 0; c < kc; ++c) a.pos[m * kc + c] = 2 * c + static_cast<int>(rng() & 1);
        } else if (kind == Tcgen05Kind::MXF4 || kind == Tcgen05Kind::MXF4NVF4) {
            for (int c = 0; c < kc / 4; ++c) {
                const auto& pr = pairs[rng() % 7];
                for (int e = 0; e < 2; ++e) {
                    a.pos[m * kc + 4 * c + e] = 8 * c + 2 * pr[0] + e;
                    a.pos[m * kc + 4 * c + 2 + e] = 8 * c + 2 * pr[1] + e;
                }
            }
        } else {
            for (int c = 0; c < kc / 2; ++c) {
                const auto& pr = pairs[rng() % 7];
                a.pos[m * kc + 2 * c] = 4 * c + pr[0];
                a.pos[m * kc + 2 * c + 1] = 4 * c + pr[1];
            }
        }
    }
    return a;
}

// The 4-bit metadata field of (row, chunk).
inline uint32_t field(const SparseA& a, int row, int c) {
    const int kc = a.k / 2;
    if (a.kind == Tcgen05Kind::TF32) return a.pos[row * kc + c] - 2 * c == 0 ? 0x4u : 0xEu;
    if (a.kind == Tcgen05Kind::MXF4 || a.kind == Tcgen05Kind::MXF4NVF4)
        return uint32_t((a.pos[row * kc + 4 * c] - 8 * c) / 2) | (uint32_t((a.pos[row * kc + 4 * c + 2] - 8 * c) / 2) << 2);
    return uint32_t(a.pos[row * kc + 2 * c] - 4 * c) | (uint32_t(a.pos[row * kc + 2 * c + 1] - 4 * c) << 2);
}

// Metadata, lane by lane (M = 128):
//  f16/tf32: one column; lane L holds rows 16*(L/16) + L%8 (bits 15..0) and that + 8 (bits
//            31..16), chunks 4*((L/8)%2) .. +3, 4 bits each.
//  others:   two columns; lane L holds row L, chunks 0..7 in the first column, 8..15 in the second.
inline void write_meta(TensorMemory& t, const SparseA& a, int column) {
    const bool one = a.kind == Tcgen05Kind::F16 || a.kind == Tcgen05Kind::TF32;
    for (int lane = 0; lane < 128; ++lane) {
        if (one) {
            uint32_t w = 0;
            for (int h = 0; h < 2; ++h)
                for (int cc = 0; cc < 4; ++cc) w |= field(a, 16 * (lane / 16) + lane % 8 + 8 * h, 4 * ((lane / 8) % 2) + cc) << (16 * h + 4 * cc);
            t.at(lane, column) = w;
        } else {
            for (int half = 0; half < 2; ++half) {
                uint32_t w = 0;
                for (int cc = 0; cc < 8; ++cc) w |= field(a, lane, 8 * half + cc) << (4 * cc);
                t.at(lane, column + half) = w;
            }
        }
    }
}

// Scale vectors (values nsf per row / column) written to every 32-lane partition:
// row (column) i -> lane 32p + i%32, column base + i/32, byte id + s.
inline void write_scales(TensorMemory& t, const std::vector<uint8_t>& s, int count, int nsf, int column, int id) {
    for (int p = 0; p < 4; ++p)
        for (int i = 0; i < count; ++i)
            for (int v = 0; v < nsf; ++v) {
                uint32_t& cell = t.at(32 * p + i % 32, column + i / 32);
                const int sh = 8 * (id + v);
                cell = (cell & ~(0xffu << sh)) | (uint32_t(s[i * nsf + v]) << sh);
            }
}

}  // namespace tctest

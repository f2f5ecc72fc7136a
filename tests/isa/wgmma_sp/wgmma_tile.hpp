// Test-side packer for wgmma.mma_async.sp, written from the PTX text independently of the model:
// operands are placed by swizzle atoms (8 rows of R bytes, atoms at LBO/SBO) and then each
// 16-byte chunk is moved within its 128-byte line; metadata registers are built thread by thread
// (which rows and K ranges a thread covers), where the model looks up element by element.
#pragma once

#include <spmma/isa/smem.hpp>
#include <spmma/isa/wgmma_sp.hpp>
#include <spmma/types.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace wgtest {

using namespace spmma;
using namespace spmma::isa;

inline int row_bytes(Swizzle s) { return s == Swizzle::None ? 16 : s == Swizzle::B32 ? 32 : s == Swizzle::B64 ? 64 : 128; }

// An operand (mn x k elements of `bits`) packed contiguously in the canonical layout.
struct Placement {
    Swizzle swz = Swizzle::None;
    bool mn_major = false;
    int bits = 16;
    uint32_t start = 0, lbo = 0, sbo = 0;
};

// Strides of a contiguous canonical packing of an mn x k operand.
inline Placement make_placement(Swizzle swz, bool mn_major, int bits, int mn, int k, uint32_t start) {
    Placement p{swz, mn_major, bits, start, 0, 0};
    const uint32_t r = static_cast<uint32_t>(row_bytes(swz));
    if (!mn_major) {
        const uint32_t kbytes = static_cast<uint32_t>(k * bits / 8);
        if (swz == Swizzle::None) { p.lbo = 128; p.sbo = 128 * (kbytes / 16); }  // core matrices K-first
        else { p.lbo = 0; p.sbo = 8 * r; }                                       // atoms stacked along MN
    } else {
        const uint32_t mnbytes = static_cast<uint32_t>(mn * bits / 8);
        if (swz == Swizzle::None) { p.sbo = 128; p.lbo = 128 * (mnbytes / 16); }  // MN chunks first, then k groups
        else { p.lbo = 8 * r; p.sbo = 8 * mnbytes; }                            // atoms along MN, then k groups
    }
    return p;
}

inline WgmmaDescriptor descriptor(const Placement& p) {
    WgmmaDescriptor d;
    d.start_address = p.start;
    d.leading_byte_offset = p.lbo;
    d.stride_byte_offset = p.sbo;
    d.swizzle = p.swz;
    return d;
}

// Byte address of element (mn, k): locate the atom (or core matrix), then the byte inside it as
// if unswizzled, then move the 16-byte chunk within its 128-byte line.
inline uint32_t place(const Placement& p, int mn, int k) {
    const uint32_t r = static_cast<uint32_t>(row_bytes(p.swz));
    const int eb = p.bits / 8;
    uint32_t a;
    if (!p.mn_major) {
        const uint32_t kb = static_cast<uint32_t>(k * eb);  // byte along K
        if (p.swz == Swizzle::None) a = p.start + (mn / 8) * p.sbo + (kb / 16) * p.lbo + (mn % 8) * 16 + kb % 16;
        else a = p.start + (mn / 8) * p.sbo + (mn % 8) * r + kb;
    } else {
        const uint32_t mb = static_cast<uint32_t>(mn * eb);  // byte along MN
        if (p.swz == Swizzle::None) a = p.start + (mb / 16) * p.sbo + (k / 8) * p.lbo + (k % 8) * 16 + mb % 16;
        else a = p.start + (mb / r) * p.lbo + (k / 8) * p.sbo + (k % 8) * r + mb % r;
    }
    if (p.swz == Swizzle::None) return a;
    const uint32_t line = a / 128, chunk = (a % 128) / 16, mask = r / 16 - 1;
    return line * 128 + (chunk ^ (line & mask)) * 16 + a % 16;
}

inline void put(SharedMemory& s, const Placement& p, int mn, int k, uint32_t code) {
    const uint32_t a = place(p, mn, k);
    for (int i = 0; i < p.bits / 8; ++i) s.bytes.at(a + i) = static_cast<uint8_t>(code >> (8 * i));
}

// A 64 x K sparse A given as, per row, the K/2 stored values (codes) and their K positions.
struct SparseA {
    DType type;
    int k;
    std::vector<uint32_t> code;  // 64 x k/2 row-major
    std::vector<int> pos;        // 64 x k/2: column in the K-wide row
};

// Random A with the instruction's pattern: 2:4 (both positions in a chunk distinct, in random
// order when `unordered`), or 1:2 for tf32. Values are small nonzero integers.
inline SparseA random_a(DType t, std::mt19937& rng, bool unordered) {
    const int k = wgmma_sp_k(t), kc = k / 2;
    SparseA a{t, k, std::vector<uint32_t>(64 * kc), std::vector<int>(64 * kc)};
    std::uniform_int_distribution<int> v(-4, 4), u(1, 15);
    for (int m = 0; m < 64; ++m) {
        for (int j = 0; j < kc; ++j) {
            int x = t == DType::U8 ? u(rng) : v(rng);
            if (x == 0) x = 3;
            a.code[m * kc + j] = encode(t, x);
        }
        if (t == DType::TF32) {
            for (int c = 0; c < kc; ++c) a.pos[m * kc + c] = 2 * c + static_cast<int>(rng() & 1);
        } else {
            for (int c = 0; c < kc / 2; ++c) {
                int i0 = static_cast<int>(rng() % 4), i1 = static_cast<int>(rng() % 3);
                if (i1 >= i0) ++i1;
                if (!unordered && i0 > i1) std::swap(i0, i1);
                a.pos[m * kc + 2 * c] = 4 * c + i0;
                a.pos[m * kc + 2 * c + 1] = 4 * c + i1;
            }
        }
    }
    return a;
}

// sp-meta of every thread, thread by thread (9.7.15.6.2): thread t is lane l = t%32 of warp
// w = t/32, group g = l/4, thread-in-group i = l%4; it describes rows 16w+g (+8).
//  f16/bf16: threads with i/2 == sel; i%2 picks K 0..15 or 16..31; bits 15..0 row g, 31..16 row
//            g+8; in each half, chunk c (of 4) in bits 4c+3..4c: index of the first stored
//            element in the low 2 bits, the second in the high 2 bits.
//  tf32:     same threads; K 0..7 / 8..15; one 4-bit code per 2-wide chunk: 0b0100 = position
//            0, 0b1110 = position 1.
//  8-bit:    every thread; i%2 picks row g or g+8, i/2 picks K 0..31 or 32..63; chunk c (of 8)
//            in bits 4c+3..4c.
// Threads that contribute nothing get `filler`.
inline std::array<uint32_t, 128> build_meta(const SparseA& a, int sel, uint32_t filler) {
    std::array<uint32_t, 128> meta{};
    const int kc = a.k / 2;
    auto pos = [&](int row, int j) { return a.pos[row * kc + j]; };
    for (int t = 0; t < 128; ++t) {
        const int w = t / 32, l = t % 32, g = l / 4, i = l % 4;
        uint32_t r = 0;
        if (a.type == DType::F16 || a.type == DType::BF16) {
            if (i / 2 != sel) { meta[t] = filler; continue; }
            for (int h = 0; h < 2; ++h) {
                const int row = 16 * w + g + 8 * h;
                for (int c = 0; c < 4; ++c) {
                    const int chunk = 4 * (i % 2) + c;
                    const uint32_t i0 = pos(row, 2 * chunk) - 4 * chunk, i1 = pos(row, 2 * chunk + 1) - 4 * chunk;
                    r |= (i0 | (i1 << 2)) << (16 * h + 4 * c);
                }
            }
        } else if (a.type == DType::TF32) {
            if (i / 2 != sel) { meta[t] = filler; continue; }
            for (int h = 0; h < 2; ++h) {
                const int row = 16 * w + g + 8 * h;
                for (int c = 0; c < 4; ++c) {
                    const int chunk = 4 * (i % 2) + c;
                    r |= (pos(row, chunk) - 2 * chunk == 0 ? 0x4u : 0xEu) << (16 * h + 4 * c);
                }
            }
        } else {
            const int row = 16 * w + g + 8 * (i % 2);
            for (int c = 0; c < 8; ++c) {
                const int chunk = 8 * (i / 2) + c;
                const uint32_t i0 = pos(row, 2 * chunk) - 4 * chunk, i1 = pos(row, 2 * chunk + 1) - 4 * chunk;
                r |= (i0 | (i1 << 2)) << (4 * c);
            }
        }
        meta[t] = r;
    }
    return meta;
}

// D(m, n) = sum_k A(m, k) B(k, n) (+ D), from the dense A, in double (exact for the small
// integers used here). b is N x K (b[n*K + k]).
inline std::vector<double> reference(const SparseA& a, DType bt, const std::vector<uint32_t>& b, int n,
                                     const std::vector<double>& d_in, int sa = 1, int sb = 1) {
    const int kc = a.k / 2;
    std::vector<double> d(size_t(64) * n);
    for (int m = 0; m < 64; ++m) {
        std::vector<double> dense(a.k, 0.0);
        for (int j = 0; j < kc; ++j) dense[a.pos[m * kc + j]] = decode(a.type, a.code[m * kc + j]);
        for (int c = 0; c < n; ++c) {
            double s = d_in.empty() ? 0.0 : d_in[m * n + c];
            for (int k = 0; k < a.k; ++k) s += sa * dense[k] * sb * decode(bt, b[c * a.k + k]);
            d[m * n + c] = s;
        }
    }
    return d;
}

}  // namespace wgtest

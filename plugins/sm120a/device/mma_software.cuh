// A software stand-in for the sm_120a mma.sp .kind forms, for the CHECK BUILD only: with
// SPMMA_SM120A_SOFTWARE_MMA the same kernel (sm120a_spgemm.cuh: cp.async pipeline, swizzled B,
// ldmatrix, register fragments, scale words, epilogue, tails) compiles for sm_80 / sm_90 and runs
// on an H100, so everything but the tensor-core instruction itself is exercised on hardware
// (plugin "sm120a-swmma", CMake option SPMMA_SM120A_SOFTWARE_MMA_PLUGIN). The sm120a plugin never
// contains it.
//
// lane_mma() reads the 32 lanes' registers with the layouts of include/spmma_sm120a/layout.hpp
// (PTX ISA 9.7.14.6.2, 9.7.14.3) and returns one lane's sums in f32; tests/sm120a checks it
// against the bit-level mma.sp model on the CPU. On the device the lanes' registers are staged in
// a per-warp shared-memory scratch.
#pragma once

#include <spmma_sm120a/forms.hpp>
#include <spmma_sm120a/layout.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

namespace spmma_sm120a::swmma {

// Exact value of a minifloat code: `e` exponent bits, `m` mantissa bits, IEEE-style bias,
// subnormals; no infinity or NaN handling (callers keep those codes out).
SPMMA_SM120A_HD float minifloat(uint32_t code, int e, int m, bool is_signed) {
    const uint32_t man = code & ((1u << m) - 1), exp = (code >> m) & ((1u << e) - 1);
    const int bias = (1 << (e - 1)) - 1;
    // normal: (1 + man / 2^m) * 2^(exp - bias); subnormal: (man / 2^m) * 2^(1 - bias)
    float v = (exp == 0 ? 0.0f : 1.0f) + float(man) / float(1u << m);
    for (int x = (exp == 0 ? 1 : int(exp)) - bias; x > 0; --x) v *= 2.0f;
    for (int x = (exp == 0 ? 1 : int(exp)) - bias; x < 0; ++x) v *= 0.5f;
    return (is_signed && ((code >> (e + m)) & 1u)) ? -v : v;
}

// An A/B element as the instruction reads it: an 8-bit container (kind::f8f6f4 / mxf8f6f4; e2m1
// in bits 5..2, e3m2/e2m3 in bits 5..0, padding ignored) or a packed e2m1 nibble.
SPMMA_SM120A_HD float element(spmma_dtype t, uint32_t bits, bool container) {
    switch (t) {
        case SPMMA_E4M3: return minifloat(bits & 0xFFu, 4, 3, true);
        case SPMMA_E5M2: return minifloat(bits & 0xFFu, 5, 2, true);
        case SPMMA_E3M2: return minifloat(bits & 0x3Fu, 3, 2, true);
        case SPMMA_E2M3: return minifloat(bits & 0x3Fu, 2, 3, true);
        default: return minifloat(container ? (bits >> 2) & 0xFu : bits & 0xFu, 2, 1, true);  // e2m1
    }
}

SPMMA_SM120A_HD float scale(spmma_dtype s, uint32_t byte) {
    if (s == SPMMA_UE4M3) return minifloat(byte & 0x7Fu, 4, 3, false);
    float v = 1.0f;  // ue8m0: 2^(byte - 127)
    for (int x = int(byte & 0xFFu) - 127; x > 0; --x) v *= 2.0f;
    for (int x = int(byte & 0xFFu) - 127; x < 0; ++x) v *= 0.5f;
    return v;
}

// The registers of a warp as lane_mma reads them: word w of lane l at base[w * 32 + l], words
// a0..a3, b0..b3, e, sa, sb.
constexpr int kWords = 11;
constexpr int kA = 0, kB = 4, kE = 8, kSA = 9, kSB = 10;

// out[q] (q < 4, f32 accumulators: register q; f16: register q/2, half q%2) = the sum of
// (a * SF_A) * (b * SF_B) over the kept elements of the lane's output row and column.
SPMMA_SM120A_HD void lane_mma(const Form& f, const uint32_t* regs, int lane, int bid_a, int tid_a, int bid_b, int tid_b,
                              float (&out)[4]) {
    const bool f16 = f.acc == SPMMA_F16;
    const bool container = !f.packed();
    const int kept = container ? 32 : 64;           // kept A elements a row per mma
    const int block = f.scaled() ? f.scale_block() : f.mma_k();
    for (int q = 0; q < 4; ++q) {
        const int reg = f16 ? q / 2 : q, half = f16 ? q % 2 : 0;
        const int row = cd_row(lane, reg, f16), col = cd_col(lane, reg, half, f16);
        float sum = 0.0f;
        for (int x = 0; x < kept; ++x) {
            // A: compressed byte x (containers) or x/2 (packed) of the row (layout.hpp a_frag_*).
            const int byte = container ? x : x / 2;
            const int a_reg = 2 * (byte / 16) + (row >= 8 ? 1 : 0), a_lane = 4 * (row % 8) + (byte % 16) / 4;
            const uint32_t a_bits = (regs[(kA + a_reg) * 32 + a_lane] >> (8 * (byte % 4) + (container ? 0 : 4 * (x % 2)))) &
                                    (container ? 0xFFu : 0xFu);
            // Its logical column from the metadata nibble of its chunk.
            const int chunk = container ? x / 2 : x / 4, slot = container ? x % 2 : x % 4;
            const MetaPos mp = meta_position(row, chunk);
            const uint32_t nib = (regs[kE * 32 + mp.lane] >> (4 * mp.nibble)) & 0xFu;
            const int i0 = int(nib & 3u), i1 = int((nib >> 2) & 3u);
            const int kcol = container ? 4 * chunk + (slot == 0 ? i0 : i1) : 8 * chunk + 2 * (slot < 2 ? i0 : i1) + (slot & 1);
            // B(kcol, col): byte kcol (containers) or nibble kcol of column col's 64 bytes.
            const int b_byte = container ? kcol : kcol / 2;
            const int b_reg = b_byte / 16, b_lane = 4 * col + (b_byte % 16) / 4;
            const uint32_t b_bits = (regs[(kB + b_reg) * 32 + b_lane] >> (8 * (b_byte % 4) + (container ? 0 : 4 * (kcol % 2)))) &
                                    (container ? 0xFFu : 0xFu);
            float t = element(f.a, a_bits, container) * element(f.b, b_bits, container);
            if (f.scaled()) {
                const int j = kcol / block;
                const uint32_t sa = regs[kSA * 32 + 4 * (row % 8) + 2 * tid_a + (row >= 8 ? 1 : 0)] >> (8 * ((bid_a + j) & 3));
                const uint32_t sb = regs[kSB * 32 + 4 * col + tid_b] >> (8 * ((bid_b + j) & 3));
                t *= scale(f.scale, sa & 0xFFu) * scale(f.scale, sb & 0xFFu);
            }
            sum += t;
        }
        out[q] = sum;
    }
}

#if defined(__CUDACC__)
// Per-warp scratch (8 warps at most), one array per kernel.
__device__ __forceinline__ uint32_t* warp_scratch() {
    __shared__ uint32_t scratch[8 * kWords * 32];
    return scratch + (threadIdx.x >> 5) * kWords * 32;
}

// The software mma: accumulates into d (f32: 4 registers; f16: 2 registers of two halves).
template <Kind K, spmma_dtype A, spmma_dtype B, spmma_dtype Acc, int SV, spmma_dtype S, int BidA, int TidA, int BidB, int TidB,
          class AccT, int R>
__device__ __forceinline__ void mma(AccT (&d)[R], const uint32_t (&a)[4], const uint32_t (&b)[4], uint32_t e, uint32_t sa,
                                    uint32_t sb) {
    constexpr Form f{K, A, B, Acc, S, SV};
    uint32_t* s = warp_scratch();
    const int lane = threadIdx.x & 31;
    __syncwarp();
    for (int r = 0; r < 4; ++r) {
        s[(kA + r) * 32 + lane] = a[r];
        s[(kB + r) * 32 + lane] = b[r];
    }
    s[kE * 32 + lane] = e;
    s[kSA * 32 + lane] = sa;
    s[kSB * 32 + lane] = sb;
    __syncwarp();
    float out[4];
    lane_mma(f, s, lane, BidA, TidA, BidB, TidB, out);
    if constexpr (Acc == SPMMA_F16) {
        for (int r = 0; r < 2; ++r) {
            const float2 c = __half22float2(*reinterpret_cast<const __half2*>(&d[r]));
            const __half2 v = __floats2half2_rn(c.x + out[2 * r], c.y + out[2 * r + 1]);
            d[r] = *reinterpret_cast<const uint32_t*>(&v);
        }
    } else {
        for (int r = 0; r < 4; ++r) d[r] += out[r];
    }
    __syncwarp();
}
#endif

}  // namespace spmma_sm120a::swmma

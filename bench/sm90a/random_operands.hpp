// Random operand bits for the wgmma probe, one definition for its kernels (sm90a_wgmma_rate.cu:
// shared memory and A registers) and its host (wgmma_rate.cpp: the A the own-load variants read
// from global memory): values like the benchmark's uniform data, whose bits toggle as real
// operands' do (under the power cap the data sets the clock).
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define SPMMA_RATE_HD __host__ __device__ __forceinline__
#else
#define SPMMA_RATE_HD inline
#endif

namespace spmma_rate {

// Two f16 values from 32 random bits: sign and mantissa as drawn, exponent 2^-4 .. 2^-1.
SPMMA_RATE_HD uint32_t f16x2_from_bits(uint32_t h) {
    return (h & 0x83FF83FFu) | (11u + ((h >> 10) & 3u)) << 10 | (11u + ((h >> 26) & 3u)) << 26;
}

// Four e4m3 values from 32 random bits: sign and mantissa as drawn, exponent 2^-3 .. 2^0 (never
// NaN).
SPMMA_RATE_HD uint32_t e4m3x4_from_bits(uint32_t h) {
    const uint32_t exps = ((h >> 3) & 0x03030303u) + 0x04040404u;  // 4..7 in each byte
    return (h & 0x87878787u) | exps << 3;
}

// Scrambles an index-derived word into random-looking bits (a 32-bit finaliser).
SPMMA_RATE_HD uint32_t scramble(uint32_t h) {
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    return h ^ (h >> 12);
}

}  // namespace spmma_rate

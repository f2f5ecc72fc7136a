// The operand words of the sm80 mma throughput probe, one definition for the kernels
// (sm80_mma_rate.cu) and the host that fills the streamed buffer (mma_rate.cpp).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define SPMMA_RATE_HD __host__ __device__
#else
#define SPMMA_RATE_HD
#endif

// Metadata words (nibbles 0b0100: indices 0 and 1 of every group of four) and the buffer's
// metadata area in 16-byte vectors (2 KB, one stage's metadata), ahead of its operands.
constexpr uint32_t kMetaWord = 0x44444444u;
constexpr uint32_t kMetaVecs = 128;

// Word i of the operands, two f16 values: data 0 the same value everywhere (0x2C44, 0.067), data
// 1 random signs and mantissas with the exponent of 0.0625 (values in +-[0.0625, 0.125): a sum of
// 2^16 products stays finite in f16 accumulators).
SPMMA_RATE_HD constexpr uint32_t operand_word(uint32_t i, int data) {
    if (data == 0) return 0x2C442C44u;
    uint32_t h = i * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    const uint32_t lo = (h & 0x83FFu) | 0x2C00u, hi = ((h >> 16) & 0x83FFu) | 0x2C00u;
    return lo | (hi << 16);
}

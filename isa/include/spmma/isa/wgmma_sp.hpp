// Bit-level CPU model of wgmma.mma_async.sp (sm_90a), PTX ISA 9.7.15.6, A and B from shared
// memory through matrix descriptors (the "SS" form):
//   wgmma.mma_async.sp.sync.aligned.m64nNkK.dtype.atype.btype
//       d, a-desc, b-desc, sp-meta, sp-sel, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;
// It takes what the 128 threads of the warpgroup hand the instruction (their d registers, their
// sp-meta registers, the sp-sel constant, the two descriptors) plus shared memory, and returns the
// d registers the instruction writes. (The form with A in registers is not modelled.)
// Shared-memory layouts and descriptors: smem.hpp. A descriptor may start anywhere inside a
// swizzle pattern (e.g. +32 bytes to step along K); the swizzle is taken from absolute address
// bits, so patterns must sit at their 256/512/1024-byte boundaries (base offset 0; a non-zero
// base offset is reported as unmodelled).
//
// Shapes: M = 64; K = 32 (f16/bf16), 16 (tf32), 64 (e4m3/e5m2/s8/u8); A is 64 x K/2 compressed.
// Semantics (the PTX text leaves accumulation order, rounding and subnormal handling unspecified):
//   - every product is exact; each D element is the exact sum of its K/2 products and (when
//     scale-d) its input value, rounded ONCE to the accumulator type (round to nearest even;
//     f32: overflow to inf; f16 accumulator likewise to f16). Hardware sums in an unspecified
//     order with unspecified intermediate rounding, so bit agreement is guaranteed only where
//     every partial sum is exactly representable (e.g. small-integer data); see tests.
//   - tf32 operands: the low 13 bits of each 32-bit element are dropped before the multiply.
//   - subnormal inputs are used at their exact value; a NaN input or inf-inf gives the canonical
//     NaN (f32 0x7fffffff, f16 0x7fff).
//   - s32: exact sum in 64 bits, then wrapped to 32 bits, or clamped with .satfinite.
// Inputs the PTX text calls undefined are REPORTED in `undefined` (invalid metadata values in
// the lanes that contribute metadata, a selector the shape forbids, illegal type/shape/trans/
// scale combinations, descriptor fields that are reserved or read outside shared memory);
// when the selector is invalid no result is computed (d is returned unchanged).
#pragma once

#include <spmma/isa/smem.hpp>
#include <spmma/types.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace spmma::isa {

// The instruction's qualifiers and immediates.
struct WgmmaSp {
    int n = 8;                 // N: 8..256 in steps of 8 (integer types: 8, 16, 24, 32, 48, 64, 80, ..., 256)
    DType a = DType::F16;      // F16, BF16, TF32, E4M3, E5M2, S8, U8
    DType b = DType::F16;      // same as a, except e4m3/e5m2 and s8/u8 mix freely within their family
    DType d = DType::F32;      // F32 or F16 (f16 and e4m3/e5m2 inputs), F32 (bf16, tf32), S32 (integers)
    bool satfinite = false;    // integer only
    int scale_a = 1;           // imm-scale-a: 1 or -1 (floating point only)
    int scale_b = 1;           // imm-scale-b
    int trans_a = 0;           // imm-trans-a: 0 = K-major, 1 = M-major (f16/bf16 only)
    int trans_b = 0;           // imm-trans-b: 0 = K-major, 1 = N-major (f16/bf16 only)
    bool scale_d = true;       // false: D = A*B; true: D = A*B + D
};

// K of the shape for an A type (32, 16 or 64).
int wgmma_sp_k(DType a);
// Number of 32-bit d registers per thread: N/2 (f32, s32) or N/4 (f16, two per register).
int wgmma_d_registers(const WgmmaSp& op);

// What the warpgroup's threads hold. Thread t (0..127) is lane t%32 of warp t/32 of the
// warpgroup (%warpid % 4 == t/32).
struct WgmmaSpWarpgroup {
    std::array<std::vector<uint32_t>, 128> d;  // each wgmma_d_registers(op) long
    std::array<uint32_t, 128> meta{};          // sp-meta of each thread
    int selector = 0;                          // sp-sel (0..3)
    uint64_t a_desc = 0;
    uint64_t b_desc = 0;
};

struct WgmmaSpResult {
    std::array<std::vector<uint32_t>, 128> d;
    std::vector<std::string> undefined;  // empty when every input was defined
};

WgmmaSpResult wgmma_sp(const WgmmaSp& op, const SharedMemory& smem, const WgmmaSpWarpgroup& wg);

// ---- D fragment layout (dense wgmma, PTX ISA 9.7.15.5.x "Matrix fragments for wgmma.mma_async") ----
// Element i (0 .. N/2-1) of thread t holds D(row, col) with
//   row = 16*(t/32) + (t%32)/4 + 8*((i/2)%2),   col = 8*(i/4) + 2*(t%4) + (i%2).
// f32/s32: element i is register i. f16: element i is the (i%2 ? high : low) half of register i/2.
struct DCoord { int row, col; };
DCoord wgmma_d_coord(int thread, int element);
// Convert between per-thread d registers and a row-major 64 x N matrix of codes (f32/s32 bits,
// or f16 bits in the low 16 bits).
std::vector<uint32_t> wgmma_d_to_matrix(const WgmmaSp& op, const std::array<std::vector<uint32_t>, 128>& d);
std::array<std::vector<uint32_t>, 128> wgmma_d_from_matrix(const WgmmaSp& op, const std::vector<uint32_t>& m);

}  // namespace spmma::isa

// Deterministic operand generation: every element is a pure function of (seed, operand stream,
// element index) through a counter-based generator, so the same problem and seed give the same
// bits on any machine and thread count, any part can be made anywhere, and the reference can
// recompute just the elements it reads. Generation writes into memory the caller provides (the
// runner's shared operand set, see operand_set.hpp) or into an owning Operands.
#pragma once

#include <spmma/core/problem.hpp>
#include <spmma/core/sparsity.hpp>

#include <cstdint>
#include <vector>

namespace spmma {

// Bytes of each canonical buffer of a problem (plugin.h layouts); C, block scales and the
// epilogue's vectors 0 when absent.
struct OperandSizes {
    size_t a_values = 0, a_indices = 0, b = 0, c = 0, scale_a = 0, scale_b = 0;
    size_t row_scale = 0, col_scale = 0, bias = 0;
    static OperandSizes of(const Problem& p);
    size_t total() const { return a_values + a_indices + b + c + scale_a + scale_b + row_scale + col_scale + bias; }
};

// Where one problem's operands are written (sizes as OperandSizes::of; null where 0).
struct OperandBuffers {
    uint8_t *a_values = nullptr, *a_indices = nullptr, *b = nullptr, *c = nullptr, *scale_a = nullptr, *scale_b = nullptr;
    uint8_t *row_scale = nullptr, *col_scale = nullptr, *bias = nullptr;
    OperandSizes sizes;
    spmma_operands view() const;
};

// Makes every operand of p into `out`: A drawn, pruned by magnitude to the pattern and
// compressed (one pass per group, nothing dense kept), B, C, block scales, the epilogue's
// vectors. OpenMP-parallel; uniform and int draws eight elements at a time in the best
// instruction set of the CPU.
void generate_operands(const Problem& p, const OperandBuffers& out);

// That instruction set: "avx512", "avx2" or "baseline".
const char* operand_generator_isa();

// The same into owned buffers (tests, one-off tools).
struct Operands {
    CompressedA a;                 // canonical compressed A
    std::vector<uint8_t> b;        // k x n column-major
    std::vector<uint8_t> c;        // m x n row-major (empty when beta == 0)
    std::vector<uint8_t> scale_a;  // m x k/scale_block (empty when unscaled)
    std::vector<uint8_t> scale_b;  // n x k/scale_block
    std::vector<uint8_t> row_scale, col_scale, bias;  // the epilogue's vectors (empty when absent)

    spmma_operands view() const;
};
Operands generate_operands(const Problem& p);

// Element `index` of a drawn per-row or per-column scale (stream kStreamRowScale or
// kStreamColScale): log-uniform in [1/4, 4], as an f32 (positive, like a channel's or a token's
// quantization scale).
float draw_epilogue_scale(uint64_t seed, uint64_t stream, uint64_t index);

// A value drawn from the problem's distribution for type t (before encoding), for element
// `index` of operand stream `stream`. The definition every generator path follows.
double draw(Distribution d, DType t, uint64_t seed, uint64_t stream, uint64_t index);

}  // namespace spmma

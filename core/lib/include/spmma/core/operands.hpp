// Deterministic operand generation: the same problem and seed give the same bits on any machine
// and thread count (a counter-based generator indexed by element).
#pragma once

#include <spmma/core/problem.hpp>
#include <spmma/core/sparsity.hpp>

#include <cstdint>
#include <vector>

namespace spmma {

struct Operands {
    CompressedA a;                 // canonical compressed A
    std::vector<uint8_t> b;        // k x n column-major
    std::vector<uint8_t> c;        // m x n row-major (empty when beta == 0)
    std::vector<uint8_t> scale_a;  // m x k/scale_block (empty when unscaled)
    std::vector<uint8_t> scale_b;  // n x k/scale_block

    spmma_operands view() const;
};

// Dense A is drawn, pruned by magnitude to the pattern, validated and compressed.
Operands generate_operands(const Problem& p);

// A value drawn from the problem's distribution for type t (before encoding), for element
// `index` of operand stream `stream`. Exposed for tests.
double draw(Distribution d, DType t, uint64_t seed, uint64_t stream, uint64_t index);

}  // namespace spmma

// Structured sparsity of A: magnitude pruning, validation that names the first bad row and group,
// and the canonical compressed form (values + one index byte per group, see plugin.h) both ways.
#pragma once

#include <spmma/core/problem.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace spmma {

struct CompressedA {
    std::vector<uint8_t> values;  // m x k/2 elements of the A type, row-major
    std::vector<uint8_t> indices; // m x k/group bytes
};

struct PatternViolation {
    int64_t row = 0, group = 0; // the first group (in row-major order) that breaks the pattern
    int nonzeros = 0;           // non-zero elements (2:4, 1:2) or non-zero pairs (4:8) in it
    std::string message;        // "row 7, group 3 (columns 12..15): 3 non-zeros, 2:4 allows 2"
};

class PatternError : public std::runtime_error {
public:
    explicit PatternError(PatternViolation v) : std::runtime_error(v.message), violation(std::move(v)) {}
    PatternViolation violation;
};

// Dense A: m x k elements of type t, row-major canonical buffer.
std::optional<PatternViolation> find_violation(DType t, Pattern p, const void* dense, int64_t m, int64_t k);

// How many of the groups of a dense A already keep pattern p (at most the kept number of
// non-zero elements, or pairs for 4:8; -0.0 is zero), of how many.
struct PatternCensus {
    int64_t groups = 0, conforming = 0;
};
PatternCensus pattern_census(DType t, Pattern p, const void* dense, int64_t m, int64_t k);

// Zeroes, in each group, all but the largest-magnitude elements (pairs for 4:8) the pattern
// keeps; ties keep the lower column.
void prune_by_magnitude(DType t, Pattern p, void* dense, int64_t m, int64_t k);

// The canonical compressed form; throws PatternError for the first group that breaks p.
// A group with fewer non-zeros than kept slots keeps its lowest zero positions as well.
CompressedA compress(DType t, Pattern p, const void* dense, int64_t m, int64_t k);

// Dense A (zeros in place) from the compressed form; throws std::invalid_argument for an index
// byte that is not a valid sorted selection.
std::vector<uint8_t> decompress(DType t, Pattern p, const CompressedA& a, int64_t m, int64_t k);

// Kept columns (within the group, increasing) that an index byte names; false if invalid.
bool decode_index(Pattern p, uint8_t index, int cols[4], int& count);

}  // namespace spmma

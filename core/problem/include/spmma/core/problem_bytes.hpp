// A problem's size in host memory, counted in checked int64 arithmetic before anything is
// allocated: its operands (A's values and indices, B, C, block scales), D, and the reference's
// expected values. A product that overflows is no size at all, and the problem is refused
// (validate() in problem.hpp names its largest dimension).
#pragma once

#include <spmma/core/problem.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace spmma {

struct ProblemBytes {
    int64_t operands = 0;   // what OperandSizes::of adds up to (the operand arena)
    int64_t d = 0;          // D in its type (the result arena holds at most this)
    int64_t reference = 0;  // the reference: a value and a tolerance (two doubles) per checked element
    int64_t total() const { return operands + d + reference; }
};

// `checked` is how many elements of D the reference computes (m x n for a full check, about
// --samples for a sampled one, 0 without verification). nullopt when any count, in bits,
// overflows int64: such a problem has no size this machine or any other can hold.
std::optional<ProblemBytes> problem_bytes(const Problem& p, int64_t checked);

// "1.5 GiB", "640 B": a byte count for people.
std::string format_bytes(double bytes);

}  // namespace spmma

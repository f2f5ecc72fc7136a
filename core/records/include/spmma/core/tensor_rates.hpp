// The tensor cores' peak rate per SM per clock: one table, by device architecture and operand
// kind, from NVIDIA's architecture whitepapers (the source of each row is in tensor_rates.cpp).
#pragma once

#include <spmma/core/problem.hpp>

#include <optional>
#include <string>

namespace spmma {

// The instruction kind the operand types select: "f16" (f16, bf16), "tf32", "f8" (8-bit floats,
// and 6-/4-bit floats in 8-bit containers: kind::f8f6f4), "f4" (e2m1 x e2m1 block-scaled:
// kind::mxf4 / mxf4nvf4), "i8" (8-bit integers), "i4" (4-bit integers).
std::string tensor_kind(const Problem& p);

struct TensorRate {
    std::string arch;    // "sm_90"
    std::string family;  // the tensor-core generation and its instructions: "Hopper wgmma"
    std::string kind;    // tensor_kind()
    double dense_flops_per_sm_per_clock = 0;  // 2 x multiply-adds, dense operands
};

// The dense rate of the device architecture (a probe's arch, "sm_90") for the problem's kind;
// nullopt for an architecture or kind the table does not hold (the fraction is then unknown).
// A sparse A doubles it (speed_of_light.hpp).
std::optional<TensorRate> tensor_rate(const std::string& arch, const Problem& p);

}  // namespace spmma

// What cuSPARSELt is asked to do for one spmma problem: data and compute types, the kernel
// family it belongs to, the oldest GPU that runs it; or why cuSPARSELt cannot do the problem.
#pragma once

#include <spmma/plugin.h>
#include <spmma_baseline/type_family.hpp>

#include <cusparseLt.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace spmma_cusparselt {

// One entry of the plugin's kernel list: a type family (the plugin's search picks the
// algorithm inside it).
using Family = spmma_baseline::TypeFamily;

std::span<const spmma_kernel_info> kernel_infos();

struct SpSetup {
    const Family* family = nullptr;
    cudaDataType ab = CUDA_R_16F;  // A and B (cuSPARSELt takes one type for both)
    cudaDataType cd = CUDA_R_16F;  // C and D share D's type
    cusparseComputeType compute = CUSPARSE_COMPUTE_32F;
    // ABI 1.2's epilogue through cuSPARSELt's own: a row scale as its alpha vector (alpha *
    // rs[i], one value per row of D), a row bias of D's type as its bias vector, ReLU or GELU
    // as its activation flags (D = act(alpha_vec * A*B + beta * C + bias), plugin.h's order).
    bool alpha_vector = false;
    bool bias = false;
    int32_t activation = SPMMA_ACTIVATION_NONE;
};

// The setup for p, or nullopt with the precise reason in `why`: the types first, then the
// epilogue (what cuSPARSELt's cannot express is refused with the reason). tf32 is refused unless
// SPMMA_CUSPARSELT_TF32=on (its results were measured outside tf32's tolerance).
std::optional<SpSetup> sp_setup(const spmma_problem& p, std::string& why);

// The pattern cuSPARSELt's "50 percent" sparsity means for an operand type: 1:2 for 32-bit
// (tf32), 2:4 for 16- and 8-bit types.
spmma_pattern native_pattern(spmma_dtype t);

}  // namespace spmma_cusparselt

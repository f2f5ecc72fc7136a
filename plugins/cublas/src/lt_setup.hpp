// What cuBLASLt is asked to do for one spmma problem: data, compute and scale types, the kernel
// family it belongs to, the oldest GPU that runs it; or why cuBLASLt cannot do the problem.
#pragma once

#include <spmma/plugin.h>
#include <spmma_baseline/type_family.hpp>

#include <cublasLt.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace spmma_cublas {

// One entry of the plugin's kernel list: a type family (cuBLASLt picks the kernel inside it).
using Family = spmma_baseline::TypeFamily;

// The families' spmma_kernel_info list.
std::span<const spmma_kernel_info> kernel_infos();

struct LtSetup {
    const Family* family = nullptr;
    cudaDataType a = CUDA_R_16F, b = CUDA_R_16F, cd = CUDA_R_16F;  // C and D share D's type
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    cudaDataType scale = CUDA_R_32F;  // type of alpha and beta
    bool fp8 = false;                 // A/B scale pointers (1.0) are set
    // ABI 1.2's epilogue through cuBLASLt's own. cuBLASLt's D is this D transposed (column-major
    // n x m), so its per-row vectors are per column here: a column scale as its alpha vector
    // (alpha * cs[j], beta 0), a column bias (bias_type) as its bias epilogue, ReLU or GELU.
    bool alpha_vector = false;
    bool bias = false;
    cudaDataType bias_type = CUDA_R_32F;
    int32_t activation = SPMMA_ACTIVATION_NONE;
};

// The setup for p, or nullopt with the precise reason in `why`: the types first, then the
// epilogue (what cuBLASLt's cannot express is refused with the reason).
std::optional<LtSetup> lt_setup(const spmma_problem& p, std::string& why);

// cuBLASLt's f16 scale type holds alpha/beta exactly (f16-accumulation GEMMs): true if v is an
// f16 value.
bool exact_in_f16(double v);

}  // namespace spmma_cublas

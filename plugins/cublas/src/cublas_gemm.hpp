// One problem on one GPU through cuBLASLt: A expanded to dense, every operand zero-padded to
// multiples of 16, D^T = B^T A^T computed in cuBLASLt's column-major terms so that D lands
// row-major ("TN": what cuBLASLt's fp8 and int8 GEMMs require), one heuristic algorithm.
#pragma once

#include "cublaslt_api.hpp"
#include "lt_setup.hpp"

#include <spmma_baseline/padded_gemm.hpp>

namespace spmma_cublas {

// Every size is padded up to a multiple of this (16 elements: 16-byte rows for 8-bit data,
// the alignment cuBLASLt's fp8 and int8 kernels need).
inline constexpr int64_t kPadMultiple = 16;
// Workspace offered to cuBLASLt (what NVIDIA recommends for Hopper).
inline constexpr size_t kWorkspaceBytes = size_t{32} << 20;

class CublasGemm final : public spmma_baseline::PaddedGemm {
public:
    CublasGemm(int device, const spmma_problem& problem, const LtSetup& setup);
    ~CublasGemm() override;
    std::string kernel_name() const override;
    void upload(const spmma_operands& operands) override;

protected:
    void launch(CUstream stream) override;

private:
    void describe();      // matmul descriptor and layouts
    void choose_algo();   // cuBLASLt's first heuristic answer
    void release() noexcept;  // destroys the cuBLASLt objects (layouts, descriptor, handle)

    const CublasLt& lt_;
    LtSetup setup_;
    cublasLtHandle_t handle_ = nullptr;
    cublasLtMatmulDesc_t op_ = nullptr;
    cublasLtMatrixLayout_t lt_a_ = nullptr, lt_b_ = nullptr, lt_cd_ = nullptr;  // cuBLASLt's A = our B, B = our A
    cublasLtMatmulAlgo_t algo_{};
    int algo_id_ = -1;
    size_t algo_workspace_ = 0;
    alignas(8) unsigned char alpha_[8] = {}, beta_[8] = {};  // in setup_.scale's type
    spmma_plugin::cuda::DeviceBuffer a_, workspace_, one_;
};

}  // namespace spmma_cublas

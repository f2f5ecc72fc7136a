// One problem on one GPU through cuSPARSELt: A expanded to dense and zero-padded, checked
// (cusparseLtSpMMAPruneCheck2) and compressed by cuSPARSELt itself, B and C zero-padded;
// row-major A, B given as row-major n x k and transposed, row-major C/D (the layout of
// NVIDIA's own samples, which every type of cuSPARSELt takes). The algorithm is chosen by
// cusparseLtMatmulSearch once in upload, outside the timed runs.
#pragma once

#include "cusparselt_api.hpp"
#include "sp_setup.hpp"

#include <spmma_baseline/padded_gemm.hpp>

namespace spmma_cusparselt {

// Every size is padded up to a multiple of this: the structured matrix's rows, columns and
// leading dimension must be multiples of 32 for 8-bit types (16 for 16-bit, 8 for 32-bit),
// dense ones of 16 bytes.
inline constexpr int64_t kPadMultiple = 32;
// Workspace offered to the search at least (split-k configurations need some).
inline constexpr size_t kMinWorkspaceBytes = size_t{32} << 20;

class CusparseLtGemm final : public spmma_baseline::PaddedGemm {
public:
    CusparseLtGemm(int device, const spmma_problem& problem, const SpSetup& setup);
    ~CusparseLtGemm() override;
    std::string kernel_name() const override;
    void upload(const spmma_operands& operands) override;

protected:
    void launch(CUstream stream) override;

private:
    void describe();                                  // handle, descriptors, plan
    void compress_a(const std::vector<uint8_t>& a);   // prune check + compression on the GPU
    void search();                                    // cusparseLtMatmulSearch, then the chosen id
    void release() noexcept;

    const CusparseLt& lt_;
    SpSetup setup_;
    cusparseLtHandle_t handle_{};
    cusparseLtMatDescriptor_t mat_a_{}, mat_b_{}, mat_cd_{};
    cusparseLtMatmulDescriptor_t matmul_{};
    cusparseLtMatmulAlgSelection_t alg_{};
    cusparseLtMatmulPlan_t plan_{};
    bool have_handle_ = false, have_a_ = false, have_b_ = false, have_cd_ = false, have_alg_ = false, have_plan_ = false;
    int alg_id_ = -1;  // after the search
    float alpha_ = 1.0f, beta_ = 0.0f;
    spmma_plugin::cuda::DeviceBuffer a_compressed_, workspace_;
};

}  // namespace spmma_cusparselt

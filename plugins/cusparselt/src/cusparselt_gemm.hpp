// One problem on one GPU through cuSPARSELt: A expanded to dense and zero-padded, checked
// (cusparseLtSpMMAPruneCheck2) and compressed by cuSPARSELt itself, B and C zero-padded;
// row-major A, B given as row-major n x k and transposed, row-major C/D (the layout of
// NVIDIA's own samples, which every type of cuSPARSELt takes); ABI 1.2's epilogue where
// cuSPARSELt has it (sp_setup.hpp). The configuration (algorithm id,
// split-k) comes from the plan cache or from this plugin's own timed search (sp_candidates.hpp),
// once in upload, outside the timed runs.
#pragma once

#include "cusparselt_api.hpp"
#include "sp_candidates.hpp"
#include "sp_setup.hpp"

#include <spmma_baseline/padded_gemm.hpp>

#include <memory>

namespace spmma_cusparselt {

// Every size is padded up to a multiple of this: the structured matrix's rows, columns and
// leading dimension must be multiples of 32 for 8-bit types (16 for 16-bit, 8 for 32-bit),
// dense ones of 16 bytes.
inline constexpr int64_t kPadMultiple = 32;
// The plan cache's file in spmma's cache folder.
inline constexpr const char* kPlanFile = "cusparselt-plans.json";

// An algorithm selection and the plan made from it (cuSPARSELt keeps both alive together).
class LtPlan {
public:
    LtPlan(const CusparseLt& lt, const cusparseLtHandle_t& handle, const cusparseLtMatmulDescriptor_t& matmul, const SpCandidate& c);
    ~LtPlan();
    LtPlan(const LtPlan&) = delete;
    LtPlan& operator=(const LtPlan&) = delete;
    const cusparseLtMatmulPlan_t* plan() const { return &plan_; }
    size_t workspace_bytes() const { return workspace_; }
    // What the selection holds (the library's defaults filled in): split-k count, mode, buffers;
    // and the number of algorithm ids (CUSPARSELT_MATMUL_ALG_CONFIG_MAX_ID: ids 0 .. max_id - 1).
    int split_k = 1, split_k_mode = 0, split_k_buffers = 0, max_id = 0;

private:
    const CusparseLt& lt_;
    cusparseLtMatmulAlgSelection_t sel_{};
    cusparseLtMatmulPlan_t plan_{};
    bool have_sel_ = false, have_plan_ = false;
    size_t workspace_ = 0;
};

class CusparseLtGemm final : public spmma_baseline::PaddedGemm {
public:
    CusparseLtGemm(int device, const spmma_problem& problem, const SpSetup& setup);
    ~CusparseLtGemm() override;
    std::string kernel_name() const override;

protected:
    void prepare_a(const spmma_operands& ops) override;
    spmma_baseline::PlanKey plan_key() const override;
    bool apply_plan(const nlohmann::json& plan, std::string& why) override;
    std::pair<nlohmann::json, nlohmann::json> search() override;
    void launch_plan(CUstream stream) override;
    nlohmann::json pick_json() const override;

private:
    void create_descriptors();                        // handle, matrix and matmul descriptors
    void set_epilogue();                              // the setup's epilogue on the matmul descriptor
    void upload_epilogue(const spmma_operands& ops);  // its alpha and bias vectors, padded
    void compress_a(const spmma_plugin::cuda::DeviceBuffer& dense);  // prune check + compression on the GPU
    // plan_ on candidate c (throws the library's error when c does not initialise).
    void use(const SpCandidate& c);
    void matmul(const LtPlan& plan, CUstream stream);
    void release() noexcept;

    const CusparseLt& lt_;
    SpSetup setup_;
    cusparseLtHandle_t handle_{};
    cusparseLtMatDescriptor_t mat_a_{}, mat_b_{}, mat_cd_{};
    cusparseLtMatmulDescriptor_t matmul_{};
    bool have_handle_ = false, have_a_ = false, have_b_ = false, have_cd_ = false;
    std::unique_ptr<LtPlan> plan_;
    SpCandidate pick_{};
    bool picked_ = false;
    float alpha_ = 1.0f, beta_ = 0.0f;
    spmma_plugin::cuda::DeviceBuffer a_compressed_, workspace_;
    spmma_plugin::cuda::DeviceBuffer alpha_vector_, bias_;  // pad_.m values each (set_epilogue)
};

}  // namespace spmma_cusparselt

// One problem on one GPU through cuBLASLt: A expanded to dense, every operand zero-padded to
// multiples of 16, D^T = B^T A^T computed in cuBLASLt's column-major terms so that D lands
// row-major ("TN": what cuBLASLt's fp8 and int8 GEMMs require). The algorithm is the fastest
// of cuBLASLt's first kHeuristicCandidates heuristic answers, timed on these operands in upload
// (or taken from the plan cache), outside the timed runs.
#pragma once

#include "cublaslt_api.hpp"
#include "lt_algo.hpp"
#include "lt_setup.hpp"

#include <spmma_baseline/padded_gemm.hpp>

#include <vector>

namespace spmma_cublas {

// Every size is padded up to a multiple of this (16 elements: 16-byte rows for 8-bit data,
// the alignment cuBLASLt's fp8 and int8 kernels need).
inline constexpr int64_t kPadMultiple = 16;
// Workspace offered to cuBLASLt (what NVIDIA recommends for Hopper).
inline constexpr size_t kWorkspaceBytes = size_t{32} << 20;
// How many of cuBLASLt's heuristic answers are timed.
inline constexpr int kHeuristicCandidates = 8;
// The plan cache's file in spmma's cache folder.
inline constexpr const char* kPlanFile = "cublas-plans.json";

class CublasGemm final : public spmma_baseline::PaddedGemm {
public:
    CublasGemm(int device, const spmma_problem& problem, const LtSetup& setup);
    ~CublasGemm() override;
    std::string kernel_name() const override;

protected:
    void prepare_a(const spmma_operands& ops) override;
    spmma_baseline::PlanKey plan_key() const override;
    bool apply_plan(const nlohmann::json& plan, std::string& why) override;
    std::pair<nlohmann::json, nlohmann::json> search() override;
    void launch_plan(CUstream stream) override;
    nlohmann::json pick_json() const override;

private:
    void create_layouts();    // matmul descriptor and layouts
    void set_epilogue();      // the setup's epilogue on the matmul descriptor
    void upload_epilogue(const spmma_operands& ops);  // its alpha and bias vectors, padded
    void ask_heuristic();     // candidates_: cuBLASLt's first kHeuristicCandidates answers
    // algo_ on `algo` after cublasLtMatmulAlgoCheck; false with why when it does not check.
    bool use(const cublasLtMatmulAlgo_t& algo, std::string& why);
    void matmul(const cublasLtMatmulAlgo_t& algo, size_t workspace_bytes, CUstream stream);
    void release() noexcept;  // destroys the cuBLASLt objects (layouts, descriptor, handle)

    const CublasLt& lt_;
    LtSetup setup_;
    cublasLtHandle_t handle_ = nullptr;
    cublasLtMatmulDesc_t op_ = nullptr;
    cublasLtMatrixLayout_t lt_a_ = nullptr, lt_b_ = nullptr, lt_cd_ = nullptr;  // cuBLASLt's A = our B, B = our A
    std::vector<cublasLtMatmulHeuristicResult_t> candidates_;
    cublasLtMatmulAlgo_t algo_{};
    AlgoConfig config_;
    int heuristic_rank_ = -1;  // the pick's place in cuBLASLt's answer (0: its first), -1: not among them
    bool picked_ = false;
    size_t algo_workspace_ = 0;
    alignas(8) unsigned char alpha_[8] = {}, beta_[8] = {};  // in setup_.scale's type
    spmma_plugin::cuda::DeviceBuffer a_, workspace_, one_;
    spmma_plugin::cuda::DeviceBuffer alpha_vector_, bias_;  // pad_.n values each (set_epilogue)
};

}  // namespace spmma_cublas

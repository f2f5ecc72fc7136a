// The cpu plugin's GEMM: decoded operands, f32 (or modelled f16, or int64) accumulation over
// the non-zeros only, OpenMP over rows, blocked over columns.
#pragma once

#include <spmma_plugin/backend.hpp>
#include <spmma_plugin/host_epilogue.hpp>

#include <cstdint>
#include <vector>

namespace spmma_cpu {

class CpuGemm : public spmma_plugin::Gemm {
public:
    CpuGemm(const spmma_problem& p, const char* kernel_name);
    std::string kernel_name() const override { return kernel_; }
    void upload(const spmma_operands& ops) override;
    void run(int warmup, int iterations, float* times_ms, uint32_t flags) override;
    void download(void* d, size_t bytes) override;

private:
    void compute();
    void compute_float();
    void compute_int();

    spmma_problem p_;
    std::string kernel_;
    bool integer_;
    // Decoded operands
    std::vector<float> a_val_;    // m x k/2
    std::vector<int32_t> a_col_;  // m x k/2, absolute column of each kept value
    std::vector<float> b_;        // k x n row-major (float types)
    std::vector<int32_t> bi_;     // k x n row-major (integer types)
    std::vector<int32_t> ai_;     // m x k/2 (integer types)
    std::vector<double> c_;       // m x n (empty when beta == 0)
    std::vector<float> sa_;       // m x k/block
    std::vector<float> sb_t_;     // (k/block) x n
    bool epilogue_ = false;       // ABI 1.2 scales, bias or activation: applied in f32 by epi_
    spmma_plugin::HostEpilogue epi_;
    // Result before conversion
    std::vector<double> out_;     // m x n
};

}  // namespace spmma_cpu

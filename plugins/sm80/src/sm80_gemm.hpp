// One created sm80 problem: packs the canonical operands for its kernel on upload, launches
// the kernel, returns D.
#pragma once

#include "kernels.hpp"

#include "../pack/pack.hpp"

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_sm80/params.hpp>

namespace spmma_sm80 {

class Sm80Gemm : public spmma_plugin::cuda::CudaGemm {
public:
    Sm80Gemm(int device, const spmma_problem& problem, const KernelDesc& kernel);
    std::string kernel_name() const override { return kernel_.name; }
    void upload(const spmma_operands& operands) override;
    void download(void* d, size_t bytes) override;

protected:
    void launch(CUstream stream) override;
    spmma_plugin::cuda::DeviceMatrix d_matrix() const override {
        return {d_.get(), static_cast<size_t>(problem_.n) * static_cast<size_t>(spmma_dtype_storage_bits(problem_.d_type) / 8)};
    }

private:
    const KernelDesc& kernel_;
    PackedShape shape_;
    CUfunction fn_{};
    spmma_plugin::cuda::DeviceBuffer a_, e_, b_, c_, d_;
    GemmParams params_{};
    bool uploaded_ = false;
};

}  // namespace spmma_sm80

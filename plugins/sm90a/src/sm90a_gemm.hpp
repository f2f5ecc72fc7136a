// One problem on one Hopper GPU with one sm90a kernel: packs the canonical operands into the
// kernel's layouts (pack library), builds the tensor maps, sizes the persistent grid, launches.
#pragma once

#include "kernel_table.hpp"

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_sm90a/kernel_params.hpp>

namespace spmma_sm90a {

class Sm90aGemm : public spmma_plugin::cuda::CudaGemm {
public:
    Sm90aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel);
    std::string kernel_name() const override { return kernel_.name; }
    void upload(const spmma_operands& operands) override;
    void download(void* d, size_t bytes) override;

protected:
    void launch(CUstream stream) override;
    spmma_plugin::cuda::DeviceMatrix d_matrix() const override {
        return {d_.get(), static_cast<size_t>(problem_.n) * static_cast<size_t>(spmma_dtype_storage_bits(problem_.d_type) / 8)};
    }

private:
    const KernelEntry& kernel_;
    Family family_;
    int64_t kp_ = 0;         // k padded to whole stages
    int64_t meta_rows_ = 0;  // m padded to whole cluster tiles (rows of metadata)
    size_t d_bytes_ = 0;
    spmma_plugin::cuda::DeviceBuffer a_, b_, e_, c_, d_;
    spmma_plugin::cuda::DeviceBuffer sk_partials_, sk_flags_;  // stream-K workspace (KernelParams)
    CUtensorMap tm_a_{}, tm_b_{}, tm_e_{}, tm_d_{};
    KernelParams params_{};
    CUfunction fn_{};
    spmma_plugin::cuda::LaunchShape shape_{};
    bool uploaded_ = false;
};

}  // namespace spmma_sm90a

// One problem on one sm_100a GPU with one sm100a kernel: packs the canonical operands into the
// kernel's layouts (pack library), builds the tensor maps, sizes the persistent grid, launches.
#pragma once

#include "kernel_table.hpp"

#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_sm100a/kernel_params.hpp>

namespace spmma_sm100a {

class Sm100aGemm final : public spmma_plugin::cuda::KernelGemm<KernelEntry> {
public:
    Sm100aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel);

protected:
    void pack(const spmma_operands& operands) override;
    void launch(CUstream stream) override;

private:
    int64_t kp_ = 0;      // k padded to whole stages
    int64_t rows_a_ = 0;  // m padded to whole tiles (rows of metadata and scale A chunks)
    int64_t rows_b_ = 0;  // n padded to whole tiles (rows of scale B chunks)
    spmma_plugin::cuda::DeviceBuffer a_, b_, e_, sfa_, sfb_;
    CUtensorMap tm_a_{}, tm_b_{}, tm_e_{}, tm_sfa_{}, tm_sfb_{};
    KernelParams params_{};
    spmma_plugin::cuda::LaunchShape shape_{};
};

}  // namespace spmma_sm100a

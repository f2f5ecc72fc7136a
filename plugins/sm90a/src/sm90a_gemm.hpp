// One problem on one Hopper GPU with one sm90a kernel: packs the canonical operands into the
// kernel's layouts (pack library), builds the tensor maps, sizes the persistent grid, launches.
#pragma once

#include "kernel_table.hpp"

#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_sm90a/kernel_params.hpp>

namespace spmma_sm90a {

class Sm90aGemm final : public spmma_plugin::cuda::KernelGemm<KernelEntry> {
public:
    Sm90aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel);

protected:
    void pack(const spmma_operands& operands) override;
    void launch(CUstream stream) override;

private:
    Family family_;
    int64_t kp_ = 0;         // k padded to whole stages
    int64_t meta_rows_ = 0;  // m padded to whole cluster tiles (rows of metadata)
    spmma_plugin::cuda::DeviceBuffer a_, b_, e_;
    spmma_plugin::cuda::DeviceBuffer sk_partials_, sk_flags_;  // stream-K workspace (KernelParams)
    CUtensorMap tm_a_{}, tm_b_{}, tm_e_{}, tm_d_{};
    KernelParams params_{};
    spmma_plugin::cuda::LaunchShape shape_{};
};

}  // namespace spmma_sm90a

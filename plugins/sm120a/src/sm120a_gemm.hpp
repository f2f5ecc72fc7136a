// One sm120a GEMM: the canonical operands packed into the kernel's layout (pack/pack.hpp),
// uploaded once, then launched on the handle's stream.
#pragma once

#include "kernels.hpp"

#include "pack.hpp"

#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_sm120a/params.hpp>

namespace spmma_sm120a {

class Sm120aGemm final : public spmma_plugin::cuda::KernelGemm<KernelDesc> {
public:
    Sm120aGemm(int device, const spmma_problem& problem, const KernelDesc& kernel);

protected:
    void pack(const spmma_operands& operands) override;
    void launch(CUstream stream) override;

private:
    PackedShape shape_;
    spmma_plugin::cuda::DeviceBuffer a_, e_, sa_, sb_, b_;
    GemmParams params_{};
};

}  // namespace spmma_sm120a

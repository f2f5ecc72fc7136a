// One created sm80 problem: packs the canonical operands for its kernel on upload (pack/),
// fills the kernel's parameters, launches one CTA per tile.
#pragma once

#include "kernels.hpp"

#include "../pack/pack.hpp"

#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_sm80/params.hpp>

namespace spmma_sm80 {

class Sm80Gemm final : public spmma_plugin::cuda::KernelGemm<KernelDesc> {
public:
    Sm80Gemm(int device, const spmma_problem& problem, const KernelDesc& kernel);

protected:
    void pack(const spmma_operands& operands) override;
    void launch(CUstream stream) override;

private:
    PackedShape shape_;
    spmma_plugin::cuda::DeviceBuffer a_, e_, b_;
    GemmParams params_{};
};

}  // namespace spmma_sm80

// The sm80 plugin's Backend: which problems its kernels run, on which devices, and the kernel
// chosen when the host names none (support.cpp); what it is and the Gemm it creates
// (sm80_plugin.cpp). Every "no" comes with its reason.
#pragma once

#include "kernels.hpp"

#include <spmma_plugin/kernel_backend.hpp>

#include <string>

namespace spmma_sm80 {

class Sm80Backend final : public spmma_plugin::cuda::KernelBackend<KernelDesc> {
public:
    spmma_plugin_info info() const override;
    // sm_80 or newer.
    std::string runs_on(const spmma_plugin::cuda::DeviceProperties& dev) const override;

protected:
    const spmma_plugin::KernelRegistry<KernelDesc>& registry() const override { return kernel_table(); }
    // Types, pattern, epilogue, sizes.
    std::string problem_reason(const spmma_problem& p) const override;
    // The kernel's type combination.
    std::string kernel_reason(const KernelDesc& k, const spmma_problem& p) const override;
    // The device's arch (e4m3/e5m2 need sm_89), shared memory, the grid.
    std::string kernel_device_reason(const KernelDesc& k, const spmma_problem& p,
                                     const spmma_plugin::cuda::DeviceProperties& dev) const override;
    // Ordered metadata, the tile whose waves fill the device best (big tiles preferred).
    const KernelDesc* choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                             std::string* why) const override;
    std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k) const override;
};

}  // namespace spmma_sm80

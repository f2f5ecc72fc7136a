// The sm120a plugin's Backend: the device check (sm_120 / sm_121 only), the problems that map
// onto an sm_120a mma.sp .kind form, the kernel chosen for a problem (support.cpp); what it is
// and the Gemm it creates (sm120a_plugin.cpp).
#pragma once

#include "kernels.hpp"

#include <spmma_plugin/kernel_backend.hpp>

#include <string>

namespace spmma_sm120a {

class Sm120aBackend final : public spmma_plugin::cuda::KernelBackend<KernelDesc> {
public:
    spmma_plugin_info info() const override;
    std::string runs_on(const spmma_plugin::cuda::DeviceProperties& dev) const override;

protected:
    const spmma_plugin::KernelRegistry<KernelDesc>& registry() const override { return kernel_table(); }
    // Types, pattern, scales, epilogue, sizes, and a kernel for that form.
    std::string problem_reason(const spmma_problem& p) const override;
    // The kernel's form (types, pattern, accumulator, scales).
    std::string kernel_reason(const KernelDesc& k, const spmma_problem& p) const override;
    // Shared memory and the grid.
    std::string kernel_device_reason(const KernelDesc& k, const spmma_problem& p,
                                     const spmma_plugin::cuda::DeviceProperties& dev) const override;
    // The tile whose waves fill the device best.
    const KernelDesc* choose(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev,
                             std::string* why) const override;
    std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k) const override;
};

// Whether kernel form f computes problem p (types, pattern, accumulator, scales).
bool form_matches(const Form& f, const spmma_problem& p);

}  // namespace spmma_sm120a

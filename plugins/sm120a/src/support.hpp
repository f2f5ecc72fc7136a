// What the sm120a plugin can run: the device check (sm_120 / sm_121 only), the problems that map
// onto an sm_120a mma.sp .kind form, and the choice of a kernel for a problem.
#pragma once

#include "kernels.hpp"

#include <spmma_plugin/cuda_driver.hpp>

#include <string>

namespace spmma_sm120a {

// Empty when the kernels run on the device, else why not.
std::string device_reason(const spmma_plugin::cuda::DeviceProperties& dev);
// Empty when some kernel of the plugin computes the problem, else why not.
std::string problem_reason(const spmma_problem& p);
// Whether kernel form f computes problem p (types, pattern, accumulator, scales).
bool form_matches(const Form& f, const spmma_problem& p);
// Empty when kernel k can run p on dev, else why not.
std::string kernel_reason(const KernelDesc& k, const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev);
// The best kernel for p on dev, or nullptr with the reason in *why.
const KernelDesc* choose_kernel(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev, std::string* why);

}  // namespace spmma_sm120a

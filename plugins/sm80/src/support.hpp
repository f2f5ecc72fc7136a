// Which problems the sm80 kernels can run, on which device, and the kernel chosen when the
// host names none. Every "no" comes with its reason.
#pragma once

#include "kernels.hpp"

#include <spmma_plugin/cuda_driver.hpp>

#include <string>

namespace spmma_sm80 {

// Why the plugin cannot run on a device at all ("" when it can).
std::string device_reason(const spmma_plugin::cuda::DeviceProperties& dev);

// Why no kernel of the plugin fits `p` (types, pattern, epilogue, sizes); "" when one does.
std::string problem_reason(const spmma_problem& p);

// Why kernel `k` is not built for the types of `p` ("" when it is).
std::string kernel_types_reason(const KernelDesc& k, const spmma_problem& p);

// Why kernel `k` cannot run `p` on `dev` ("" when it can): its types, the device's arch and
// shared memory.
std::string kernel_reason(const KernelDesc& k, const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev);

// The kernel used when the host names none: ordered metadata, the tile whose waves fill the
// device best (big tiles preferred); nullptr (with *why) if none fits.
const KernelDesc* choose_kernel(const spmma_problem& p, const spmma_plugin::cuda::DeviceProperties& dev, std::string* why);

}  // namespace spmma_sm80

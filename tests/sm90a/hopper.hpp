// Whether the sm90a device tests can run here: empty, or why not (no driver, no device, device 0
// not Hopper). The tests WARN the reason and pass without their GPU.
#pragma once

#include <spmma_plugin/cuda_driver.hpp>

#include <string>

namespace spmma_test {

inline std::string hopper_skip_reason() {
    namespace cu = spmma_plugin::cuda;
    std::string why;
    if (!cu::driver(&why)) return "no GPU (" + why + ")";
    if (cu::device_count() == 0) return "no GPU (no CUDA device)";
    const cu::DeviceProperties p = cu::device_properties(0);
    if (p.major != 9 || p.minor != 0) return "no Hopper GPU (device 0 is " + p.arch() + ")";
    return {};
}

}  // namespace spmma_test

// Whether the sm90a device tests can run here: empty, or why not (no driver, no device, device 0
// not Hopper). The tests WARN the reason and pass without their GPU
// (SPMMA_TEST_RETURN_WITHOUT_HOPPER).
#pragma once

#include <spmma_plugin/cuda_driver.hpp>

#include <catch2/catch.hpp>

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

// At the top of a device test case: WARN why and return where hopper_skip_reason says it cannot run.
#define SPMMA_TEST_RETURN_WITHOUT_HOPPER()                                 \
    do {                                                                   \
        const std::string spmma_skip_ = spmma_test::hopper_skip_reason();  \
        if (!spmma_skip_.empty()) {                                        \
            WARN("skipped: " << spmma_skip_);                              \
            return;                                                        \
        }                                                                  \
    } while (0)

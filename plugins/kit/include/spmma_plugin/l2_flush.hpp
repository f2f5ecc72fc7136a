// The L2 flush before a timed launch (SPMMA_RUN_FLUSH_L2; CudaGemm::run and spmma-bench-dram):
// reads a buffer twice the L2's size through L2 (device/flush.cu), so that every line a launch
// could reuse is evicted and L2 holds only clean lines when the launch starts.
// SPMMA_L2_FLUSH=write writes the buffer instead, for A/B runs against the flush of earlier
// records. NOTES (bench/NOTES.md, "The L2 flush"): a written buffer leaves L2 full of dirty lines,
// whose write-back then runs inside the timed launch.
#pragma once

#include <spmma_plugin/cuda_driver.hpp>

namespace spmma_plugin::cuda {

class L2Flush {
public:
    // The embedded fatbin of device/flush.cu (CudaGemm keeps its module for the process).
    static const void* image();
    // `flush_module`: a module loaded from image() on the current context.
    L2Flush(const DeviceProperties& props, const Module& flush_module);
    // Enqueues one flush on `stream`.
    void enqueue(CUstream stream);

private:
    DeviceBuffer buf_;   // twice the L2 size, zeros
    DeviceBuffer sink_;  // the flush kernel's output, never written
    CUfunction read_;
    LaunchShape shape_;
    bool write_;
    unsigned char pass_ = 0;
};

}  // namespace spmma_plugin::cuda

#include <spmma_plugin/l2_flush.hpp>

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/env_choice.hpp>

#include <algorithm>

SPMMA_DECLARE_FATBIN(flush)

namespace spmma_plugin::cuda {

const void* L2Flush::image() { return SPMMA_FATBIN(flush); }

L2Flush::L2Flush(const DeviceProperties& props, const Module& flush_module)
    : buf_(2 * static_cast<size_t>(std::max(props.l2_bytes, 1 << 20))),
      sink_(sizeof(unsigned)),
      read_(flush_module.function("spmma_l2_flush")),
      write_(env_choice("SPMMA_L2_FLUSH", {"read", "write"}).value_or(0) == 1) {
    buf_.fill(0);
    shape_.grid[0] = static_cast<unsigned>(4 * std::max(props.sm_count, 1));
    shape_.block[0] = 256;
}

void L2Flush::enqueue(CUstream stream) {
    if (write_) {
        CU_CHECK(require_driver().cuMemsetD8Async(buf_.get(), ++pass_, buf_.size(), stream));
        return;
    }
    CUdeviceptr buf = buf_.get(), sink = sink_.get();
    unsigned long long count = buf_.size() / 16;
    void* args[] = {&buf, &count, &sink};
    cuda::launch(read_, shape_, stream, args);
}

}  // namespace spmma_plugin::cuda

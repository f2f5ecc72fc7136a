// The epilogue of ABI 1.2 (plugin.h) as a kernel takes it to fuse it where its accumulators
// become D: D = act(alpha * rs[row] * cs[col] * acc + beta * C + bias), in f32, rounded once.
// Device pointers (null where the problem has no such vector; every vector f32, the bias widened
// on the host, exactly) and the problem's fields. Plain data, compiled by nvcc and g++ alike:
// CudaGemm::fused_epilogue fills it after upload_epilogue, device/fused_epilogue.cuh applies it.
#pragma once

#include <cstdint>

namespace spmma_plugin {

struct FusedEpilogue {
    const float* row_scale;  // m values
    const float* col_scale;  // n values
    const float* bias;       // m (bias_axis SPMMA_BIAS_ROW) or n (SPMMA_BIAS_COL) values
    int32_t bias_axis;       // SPMMA_BIAS_*
    int32_t activation;      // SPMMA_ACTIVATION_*
    int32_t on;              // 1: any of the above; 0: the kernels' plain epilogue
};

}  // namespace spmma_plugin

// The epilogue of ABI 1.2 (plugin.h) as a kernel takes it to fuse it where its accumulators
// become D: D = act(alpha * rs[row] * cs[col] * acc + beta * C + bias), in f32, rounded once.
// Device pointers (null where the problem has no such vector) and the problem's fields. Plain
// data, compiled by nvcc and g++ alike: CudaGemm::fused_epilogue fills it after upload_epilogue,
// device/fused_epilogue.cuh applies it.
#pragma once

#include <cstdint>

namespace spmma_plugin {

struct FusedEpilogue {
    const float* row_scale;  // m values
    const float* col_scale;  // n values
    const void* bias;        // m (bias_axis SPMMA_BIAS_ROW) or n (SPMMA_BIAS_COL) values of bias_type
    int32_t bias_axis;       // SPMMA_BIAS_*
    int32_t bias_type;       // SPMMA_F32, SPMMA_F16 or SPMMA_BF16 (f32 or D's type)
    int32_t activation;      // SPMMA_ACTIVATION_*
    int32_t on;              // 1: any of the above; 0: the kernels' plain epilogue
};

}  // namespace spmma_plugin

// The epilogue of ABI 1.2 (plugin.h) as a kernel takes it to fuse it where its accumulators
// become D: D = act(alpha * rs[row] * cs[col] * acc + beta * C + bias), in f32, rounded once.
// Device pointers and the problem's activation. Once a problem has an epilogue every vector is
// there (a scale it lacks as ones, a bias as -0.0: exact no-ops), so a kernel applies them
// without a test per element; the column vectors hold an even number of values (n rounded up).
// Plain data, compiled by nvcc and g++ alike: CudaGemm::fused_epilogue fills it after
// upload_epilogue, device/fused_epilogue.cuh applies it.
#pragma once

#include <cstdint>

namespace spmma_plugin {

struct FusedEpilogue {
    const float* row_scale;  // m values
    const float* col_scale;  // n values (n rounded up to even)
    const float* row_bias;   // m values (-0.0 unless the bias is per row)
    const float* col_bias;   // n values (n rounded up to even; -0.0 unless the bias is per column)
    int32_t activation;      // SPMMA_ACTIVATION_*
    int32_t on;              // 1: the problem has an epilogue; 0: the kernels' plain one
    int32_t bias_per_col;    // 1: the bias is per column (kernels with a short form for the rest)
};

}  // namespace spmma_plugin

// Tensor maps for the tensor copy engine (TMA, sm_90 and later), encoded on the host with
// cuTensorMapEncodeTiled through the runtime-loaded driver, checked for the encoder's rules
// first so that a wrong tile gives a message that names the operand rather than
// CUDA_ERROR_INVALID_VALUE. Kernels take the result as a __grid_constant__ parameter.
#pragma once

#include <spmma_plugin/cuda_driver.hpp>

#include <cstdint>
#include <string>

namespace spmma_plugin::cuda {

// A 2-D row-major tensor: `rows` rows of `cols` elements, rows `row_pitch_bytes` apart, copied
// in boxes of box_rows x box_cols elements. Elements outside the tensor read as zero and are
// not written.
struct TensorMap2D {
    std::string what;  // operand name for messages ("A", "B", "metadata")
    CUtensorMapDataType dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    CUdeviceptr base = 0;
    uint64_t cols = 0, rows = 0;
    uint64_t row_pitch_bytes = 0;
    uint32_t box_cols = 0, box_rows = 0;
    CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    CUtensorMapL2promotion l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
};

// A dense row-major tensor (rows `cols * element size` bytes apart) at `base`, in boxes of
// box_rows x box_cols, the L2 promotion TensorMap2D gives by default.
TensorMap2D row_major_map(std::string what, CUtensorMapDataType dtype, CUdeviceptr base, uint64_t cols, uint64_t rows,
                          uint32_t box_cols, uint32_t box_rows, CUtensorMapSwizzle swizzle);

// Bytes of one element of a tensor-map data type.
int tensor_map_elem_bytes(CUtensorMapDataType t);
// Bytes of the swizzle span (0 for none).
int tensor_map_swizzle_bytes(CUtensorMapSwizzle s);

// Checks the encoder's rules (throws Error(SPMMA_INVALID_ARGUMENT) naming `what`), then encodes.
CUtensorMap encode_tensor_map(const TensorMap2D& spec);

}  // namespace spmma_plugin::cuda

#include <spmma_plugin/tensor_map.hpp>

#include <utility>

namespace spmma_plugin::cuda {

int tensor_map_elem_bytes(CUtensorMapDataType t) {
    switch (t) {
        case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
        case CU_TENSOR_MAP_DATA_TYPE_UINT16:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
        case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
        case CU_TENSOR_MAP_DATA_TYPE_UINT32:
        case CU_TENSOR_MAP_DATA_TYPE_INT32:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
        case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32: return 4;
        case CU_TENSOR_MAP_DATA_TYPE_UINT64:
        case CU_TENSOR_MAP_DATA_TYPE_INT64:
        case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
        default: return 0;
    }
}

int tensor_map_swizzle_bytes(CUtensorMapSwizzle s) {
    switch (s) {
        case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
        case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
        case CU_TENSOR_MAP_SWIZZLE_128B: return 128;
        default: return 0;
    }
}

TensorMap2D row_major_map(std::string what, CUtensorMapDataType dtype, CUdeviceptr base, uint64_t cols, uint64_t rows,
                          uint32_t box_cols, uint32_t box_rows, CUtensorMapSwizzle swizzle) {
    TensorMap2D t;
    t.what = std::move(what);
    t.dtype = dtype;
    t.base = base;
    t.cols = cols;
    t.rows = rows;
    t.row_pitch_bytes = cols * static_cast<uint64_t>(tensor_map_elem_bytes(dtype));
    t.box_cols = box_cols;
    t.box_rows = box_rows;
    t.swizzle = swizzle;
    return t;
}

CUtensorMap encode_tensor_map(const TensorMap2D& s) {
    auto bad = [&](const std::string& why) {
        fail(SPMMA_INVALID_ARGUMENT, "tensor map for " + s.what + ": " + why);
    };
    const int eb = tensor_map_elem_bytes(s.dtype);
    if (eb == 0) bad("unsupported data type");
    if (s.base % 16 != 0) bad("base address not 16-byte aligned");
    if (s.cols == 0 || s.rows == 0) bad("empty tensor");
    if (s.row_pitch_bytes % 16 != 0) bad("row pitch " + std::to_string(s.row_pitch_bytes) + " not a multiple of 16");
    if (s.row_pitch_bytes < s.cols * static_cast<uint64_t>(eb)) bad("row pitch shorter than a row");
    if (s.row_pitch_bytes >= (uint64_t{1} << 40)) bad("row pitch too large");
    if (s.box_cols == 0 || s.box_rows == 0 || s.box_cols > 256 || s.box_rows > 256) bad("box dimensions must be 1..256");
    if ((s.box_cols * static_cast<uint64_t>(eb)) % 16 != 0) bad("box row is not a multiple of 16 bytes");
    const int sw = tensor_map_swizzle_bytes(s.swizzle);
    if (sw != 0 && s.box_cols * static_cast<uint64_t>(eb) > static_cast<uint64_t>(sw))
        bad("box row of " + std::to_string(s.box_cols * eb) + " bytes exceeds the " + std::to_string(sw) +
            "-byte swizzle span");

    CUtensorMap map{};
    const cuuint64_t dims[2] = {s.cols, s.rows};
    const cuuint64_t strides[1] = {s.row_pitch_bytes};
    const cuuint32_t box[2] = {s.box_cols, s.box_rows};
    const cuuint32_t elem_strides[2] = {1, 1};
    CU_CHECK(require_driver().cuTensorMapEncodeTiled(
        &map, s.dtype, 2, reinterpret_cast<void*>(static_cast<uintptr_t>(s.base)), dims, strides, box, elem_strides,
        CU_TENSOR_MAP_INTERLEAVE_NONE, s.swizzle, s.l2_promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    return map;
}

}  // namespace spmma_plugin::cuda

// Operand export as NumPy .npy files (format 1.0: magic, a little header dict, raw C-order data),
// readable by NumPy (numpy.load), PyTorch (via NumPy), Julia (NPZ.jl) and anything else that
// reads the format. save_operands writes one run's A (dense, zeros in place), B, C, D and the
// reference D, exactly decoded, plus a JSON sidecar with the problem.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

namespace spmma {

enum class NpyType { F32, F64, I32, I64 };

// Writes `data` (C order, shape's product elements of `type`) to `file`; throws
// std::runtime_error naming the file when it cannot be written.
void write_npy(const std::filesystem::path& file, NpyType type, const void* data, const std::vector<int64_t>& shape);
void write_npy(const std::filesystem::path& file, const std::vector<float>& data, const std::vector<int64_t>& shape);
void write_npy(const std::filesystem::path& file, const std::vector<double>& data, const std::vector<int64_t>& shape);
void write_npy(const std::filesystem::path& file, const std::vector<int32_t>& data, const std::vector<int64_t>& shape);
void write_npy(const std::filesystem::path& file, const std::vector<int64_t>& data, const std::vector<int64_t>& shape);

// Reads back what write_npy writes (little-endian, C order, one of the four types).
struct NpyArray {
    NpyType type = NpyType::F32;
    std::vector<int64_t> shape;
    std::vector<uint8_t> bytes;
};
NpyArray read_npy(const std::filesystem::path& file);

// Writes into `dir` (created if missing), for the problem and its operands as they cross the
// ABI, each as float32 (floating types, exactly decoded; tf32 with its low 13 bits dropped) or
// int32 (integer types):
//   <stem>.A.npy        m x k, A decompressed (zeros in place)
//   <stem>.B.npy        k x n
//   <stem>.C.npy        m x n (only when the operands carry C, i.e. beta != 0)
//   <stem>.scale_A.npy  m x k/scale_block, <stem>.scale_B.npy  n x k/scale_block (block-scaled)
//   <stem>.D.npy        m x n, the plugin's D
//   <stem>.D_ref.npy    m x n, the reference D (reference::reference_d)
//   <stem>.json         the problem (sizes, types, pattern, alpha, beta, saturate, scaling), the
//                       file names and the tolerance rule's constants
// `d` and `reference_d` are canonical D buffers of d_type (either may be null: not written).
// Returns the sidecar's path.
std::filesystem::path save_operands(const std::filesystem::path& dir, const std::string& stem, const spmma_problem& problem,
                                    const spmma_operands& operands, const void* d, const void* reference_d);

}  // namespace spmma

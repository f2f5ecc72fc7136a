// Operands from weight files: what operand generation calls when a problem names a tensor
// instead of a seed. A is a weight (out x in = m x k) in spmma's canonical compressed form:
// a sparse-24-bitmask layer decoded, a weight already in the pattern validated and used as it
// is, any other weight pruned by magnitude per group along k. B and C are dense tensors as
// stored. Each comes with a record-ready description of its source.
#pragma once

#include <spmma/core/problem.hpp>
#include <spmma/core/sparsity.hpp>
#include <spmma/weights/checkpoint.hpp>
#include <spmma/weights/row_scale.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spmma::weights {

// A tensor as a user names it: "FILE.safetensors:TENSOR", "FOLDER:TENSOR", "FILE.npy".
struct TensorRef {
    std::filesystem::path path;
    std::string tensor;  // empty for a .npy file
    std::string text() const;  // back as the user writes it
};

// Splits at the rightmost ':' whose left part exists (so a tensor name may hold ':'); the
// whole text when it names an existing file. Throws WeightsError when no such split names a
// file or folder, or a safetensors path comes without a tensor.
TensorRef parse_tensor_ref(std::string_view text);

// Where an operand came from, for the record (to_json) and the rerun command (ref).
struct WeightSource {
    TensorRef ref;
    std::filesystem::path file;        // the file holding it (a shard, in a folder)
    std::string format;                // "safetensors", "npy" or "sparse-24-bitmask"
    std::string stored_dtype;          // safetensors dtype or .npy descr, as the file says
    std::vector<int64_t> shape;        // as stored (a sparse-24-bitmask layer: the dense [m, k])
    std::string sha256;                // of the stored bytes (sparse-24-bitmask: .compressed then .bitmask)
    std::string reading;               // "bits", "view" (int8 as e4m3, raw V2 as bf16) or "converted"
    int64_t values_rounded = 0;        // values the conversion to the operand type changed
    double pattern_share = 1.0;        // share of A's groups already in the pattern (1 for B, C)
    bool pruned = false;               // A pruned by magnitude here
    double norm_kept = 1.0;            // ||A as run|| / ||A as stored, converted||; NaN if either is not finite
    std::optional<RowScale> row_scale; // the checkpoint's weight_scale beside it

    nlohmann::json to_json() const;
};

struct SparseWeight {
    int64_t m = 0, k = 0;
    DType type = DType::F16;
    Pattern pattern = Pattern::P2_4;
    CompressedA a;             // canonical: m x k/2 values of `type`, m x k/group index bytes
    WeightSource source;
};

// A, from a 2-D tensor (out x in = m x k) or a sparse-24-bitmask layer (named by its prefix or
// its `.weight` name), as operand type `type` with pattern `pattern`. Throws WeightsError naming
// the file and the reason: no such tensor, not 2-D, k not a multiple of the pattern's group, a
// stored type that cannot be `type` (stored_type.hpp's plan_read), a bitmask layer for a
// pattern other than 2:4, a bad mask or scale.
SparseWeight load_sparse_weight(const Checkpoint& c, std::string_view tensor, DType type, Pattern pattern);
SparseWeight load_sparse_weight(const TensorRef& ref, DType type, Pattern pattern);

struct DenseTensor {
    int64_t rows = 0, cols = 0;
    DType type = DType::F16;
    std::vector<uint8_t> data;  // rows x cols of `type`, row-major
    WeightSource source;
};

// A 2-D tensor as operand type `type`, row-major as stored. As spmma's operands: C (and D) are
// m x n row-major, so C is an m x n tensor; B is k x n column-major, which is an n x k tensor
// row-major (tokens x features, as activations are held), so B is an n x k tensor as it is.
DenseTensor load_dense_tensor(const Checkpoint& c, std::string_view tensor, DType type);
DenseTensor load_dense_tensor(const TensorRef& ref, DType type);

}  // namespace spmma::weights

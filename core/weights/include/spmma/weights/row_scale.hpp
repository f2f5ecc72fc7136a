// A quantized weight's scale as checkpoints keep it beside the weight (`<prefix>.weight_scale`,
// compressed-tensors and FP8 checkpoints): per output channel (m x 1 or m values) or one for the
// whole tensor. The weight's real value of row i is its stored value x scale[i]: the row scale
// of a scaled epilogue.
#pragma once

#include <spmma/weights/checkpoint.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spmma::weights {

struct RowScale {
    std::string tensor;           // "<prefix>.weight_scale"
    StoredType stored = StoredType::F32;
    bool per_tensor = false;      // one value, repeated for every row below
    std::vector<float> values;    // m, decoded exactly (f16, bf16, f32)
    std::string sha256;           // of the scale tensor's bytes

    nlohmann::json to_json() const;  // tensor, dtype, per_tensor, sha256 (not the values)
};

// `<prefix>.weight_scale` for a weight of m rows; nullopt when there is none. Throws
// WeightsError naming the tensor when it is not f16 / bf16 / f32, holds neither m values nor
// one (a per-group scale is not a row scale), or holds a value that is not finite.
std::optional<RowScale> find_row_scale(const Checkpoint& c, std::string_view prefix, int64_t m);

}  // namespace spmma::weights

// What `spmma inspect` says about a checkpoint: its 2-D tensors and sparse-24-bitmask layers,
// how much of each is already 2:4, the spmma type each runs as, a `spmma gemm` line per layer,
// and a workload of every linear layer at chosen token counts.
#pragma once

#include <spmma/weights/checkpoint.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spmma::weights {

struct LayerInfo {
    std::string name;                  // the tensor, or a sparse-24-bitmask layer's prefix
    std::string form;                  // "dense" or "sparse-24-bitmask"
    StoredType stored = StoredType::F32;
    std::string stored_dtype;          // as the file writes it ("BF16", "<f2")
    int64_t m = 0, k = 0;              // out x in
    DType type = DType::None;          // the spmma type it runs as (None: no operand type reads it)
    std::optional<double> share_2_4;   // groups of 4 along k with at most 2 non-zeros, of all
                                       // (none: k not a multiple of 4, or no type to decode)
    bool linear = false;               // a linear layer's weight: goes into the workload
    std::optional<std::string> row_scale;  // the weight_scale beside it, "per channel" / "per tensor"

    bool is_2_4() const { return share_2_4 && *share_2_4 == 1.0; }
    // Why it cannot run as a gemm (empty when it can).
    std::string cannot_run() const;
    // `spmma gemm --m M --k K --n N --dtype T --a CHECKPOINT:NAME` as arguments (empty when it
    // cannot run): the layer's own weight as A.
    std::vector<std::string> gemm_args(int64_t n, const std::filesystem::path& checkpoint) const;
    // How --a and a workload's `a` name it: "CHECKPOINT:NAME", a .npy file by its path alone.
    std::string ref(const std::filesystem::path& checkpoint) const;
};

struct CheckpointSummary {
    std::filesystem::path path;
    std::vector<std::filesystem::path> files;
    std::vector<LayerInfo> layers;     // by name
    int64_t other_tensors = 0;         // not 2-D, quantization parameters, parts of bitmask layers
    std::string config_note;           // why config.json was not read, when it was not

    // {path, files, layers: [{name, form, dtype, shape, spmma_type, share_2_4, is_2_4, linear,
    // row_scale, gemm}], other_tensors}; gemm lines at `n` tokens.
    nlohmann::json to_json(int64_t n) const;
};

// Reads every 2-D tensor once (the 2:4 census) and decodes every mask (a bad one is an error).
CheckpointSummary summarize(const Checkpoint& c);

// A workload (version 1) that `spmma run` reads: one [[sweep]] per linear layer that can run,
// named after it, with m, k, dtype, n = the token counts and a = the layer's weight (its path
// relative to `folder`, where the workload is written). Layers that cannot run are listed in
// a comment with the reason.
std::string workload_toml(const CheckpointSummary& s, const std::vector<int64_t>& tokens, const std::filesystem::path& folder);

}  // namespace spmma::weights

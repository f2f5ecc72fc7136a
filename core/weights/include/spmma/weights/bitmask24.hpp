// compressed-tensors' sparse-24-bitmask form, as llm-compressor writes a 2:4 Linear weight
// `<prefix>.weight` of m x k:
//   <prefix>.compressed  m x k/2: each row's kept values in increasing column order, in the
//                        weight's dtype (FP8 as F8_E4M3, or through an int8 / uint8 view)
//   <prefix>.bitmask     m x ceil(k/8) uint8: bit j (least significant first) of byte b of row i
//                        is set where column 8b + j is kept (numpy.packbits, bitorder "little",
//                        each row padded to whole bytes); exactly 2 of each 4 columns
//   <prefix>.shape       the dense [m, k], as integers (shape [2, 1] or [2])
// The kept values in order and one index byte per group are exactly spmma's canonical
// compressed A (plugin.h), so decoding copies the values and turns each mask nibble into its
// index byte.
#pragma once

#include <spmma/core/sparsity.hpp>
#include <spmma/weights/checkpoint.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spmma::weights {

struct Bitmask24Layer {
    std::string prefix;                  // "model.layers.0.mlp.down_proj"
    TensorView compressed, bitmask, shape;
    int64_t m = 0, k = 0;
};

// The layer `name` names (its prefix, or the prefix + ".weight"); nullopt when the checkpoint
// has no `<prefix>.compressed`. Throws WeightsError naming the tensor when a part is missing or
// the parts disagree: .shape not two integers with k a multiple of 4, .compressed not m x k/2,
// .bitmask not m x ceil(k/8) bytes.
std::optional<Bitmask24Layer> find_bitmask24_layer(const Checkpoint& c, std::string_view name);

// Every layer of the checkpoint in this form (each `.compressed` with its parts), by prefix.
std::vector<Bitmask24Layer> bitmask24_layers(const Checkpoint& c);

// The canonical compressed form: values = .compressed's bytes (codes of its stored type),
// indices from the mask. Throws WeightsError naming the row and group whose mask nibble does not
// keep exactly two columns.
CompressedA decode_bitmask24(const Bitmask24Layer& layer);

}  // namespace spmma::weights

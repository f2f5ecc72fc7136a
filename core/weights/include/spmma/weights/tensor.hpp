// One stored tensor as the readers hand it out: where it came from, its stored type and shape,
// and its bytes (C order, little-endian) in a mapped file that outlives the view.
#pragma once

#include <spmma/weights/stored_type.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace spmma::weights {

struct TensorView {
    std::filesystem::path file;  // the file holding it (the shard, in a folder of shards)
    std::string name;            // the tensor's name (a .npy file's: its stem)
    StoredType type = StoredType::F32;
    std::vector<int64_t> shape;
    std::span<const std::byte> bytes;

    int64_t elements() const;    // product of the shape (1 for a scalar)
    bool is_2d() const { return shape.size() == 2; }
    std::string shape_text() const;  // "[4096, 11008]"
};

}  // namespace spmma::weights

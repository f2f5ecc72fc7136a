// A checkpoint as a user names it: a .safetensors file, a .npy file, or a folder of shards with
// its model.safetensors.index.json (the weight_map names each tensor's shard), or a folder with
// a single .safetensors file. Every file is mapped and checked when the checkpoint is opened.
#pragma once

#include <spmma/weights/npy_file.hpp>
#include <spmma/weights/safetensors.hpp>
#include <spmma/weights/tensor.hpp>

#include <spmma/types.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spmma::weights {

constexpr const char* kShardIndexName = "model.safetensors.index.json";

class Checkpoint {
public:
    // Throws WeightsError naming the file at fault and why: a missing or unreadable path, a bad
    // file, an index that is not a weight_map of plain file names in the folder, or that names a
    // tensor its shard does not hold.
    explicit Checkpoint(const std::filesystem::path& path);

    const std::filesystem::path& path() const { return path_; }
    bool is_npy() const { return npy_ != nullptr; }
    // The files read: one, or each shard once.
    std::vector<std::filesystem::path> files() const;

    // Every tensor, sorted by name (a .npy file's one tensor is named after its stem).
    std::vector<TensorView> tensors() const;
    std::optional<TensorView> find(std::string_view name) const;
    // Throws WeightsError naming the checkpoint and the tensor when it holds no such tensor.
    TensorView get(std::string_view name) const;

    // A tensor's stored type as its file writes it: the safetensors dtype, or the .npy descr.
    std::string stored_dtype(const TensorView& t) const;

    // The spmma type that 1-byte integer tensors hold through a view, when the checkpoint's
    // config.json says (compressed-tensors' quantization_config with 8-bit float weights:
    // e4m3); DType::None otherwise.
    DType int8_view() const { return int8_view_; }
    // Why config.json was not read, when it exists and could not be (it is only a hint).
    const std::string& config_note() const { return config_note_; }

private:
    void open_folder(const std::filesystem::path& folder);
    void open_index(const std::filesystem::path& index);
    void add_all(size_t shard);
    void read_config(const std::filesystem::path& folder);

    std::filesystem::path path_;
    std::vector<std::unique_ptr<SafetensorsFile>> shards_;
    std::unique_ptr<NpyFile> npy_;
    struct Where {
        size_t shard;
        const SafetensorsEntry* entry;
    };
    std::map<std::string, Where, std::less<>> index_;
    DType int8_view_ = DType::None;
    std::string config_note_;
};

}  // namespace spmma::weights

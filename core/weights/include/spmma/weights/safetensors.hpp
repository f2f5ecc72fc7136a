// safetensors files, read as untrusted input: an 8-byte little-endian header length N, N bytes
// of JSON ({"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}),
// then the data area the offsets point into. Every limit of the format is checked before a byte
// of data is touched; the file is memory-mapped and never read past its end.
#pragma once

#include <spmma/weights/mapped_file.hpp>
#include <spmma/weights/tensor.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace spmma::weights {

// The format's limit on the header (safetensors' own MAX_HEADER_SIZE).
constexpr uint64_t kSafetensorsMaxHeaderBytes = 100'000'000;
// Dimensions of a shape read (no weight has more; it bounds what a hostile header can allocate).
constexpr size_t kSafetensorsMaxRank = 64;

struct SafetensorsEntry {
    std::string name;
    StoredType type = StoredType::F32;
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0;  // data_offsets: [begin, end) in the data area
};

struct SafetensorsLayout {
    uint64_t header_bytes = 0;                   // N
    uint64_t data_offset = 0;                    // 8 + N: where the data area starts in the file
    std::vector<SafetensorsEntry> tensors;       // sorted by name
    std::map<std::string, std::string> metadata; // "__metadata__"
};

// Checks `file` (the whole file's bytes) against the format: the length fits the file and is at
// most kSafetensorsMaxHeaderBytes; the header is a JSON object starting with '{' (no key twice
// at any level, at most kSafetensorsMaxRank dimensions); "__metadata__", when present, maps
// strings to strings; every other key is a tensor with exactly dtype (a known one), shape
// (non-negative integers whose product, and its bytes, fit int64) and data_offsets (two
// integers, begin <= end <= the data area's size, end - begin = the dtype's size x the element
// count); no two tensors' bytes overlap, in whatever order they lie. Gaps between tensors are
// allowed. Throws WeightsError(file_name, reason).
SafetensorsLayout parse_safetensors(std::span<const std::byte> file, const std::filesystem::path& file_name);

// A safetensors file, mapped and checked; its tensors' bytes point into the mapping.
class SafetensorsFile {
public:
    explicit SafetensorsFile(const std::filesystem::path& file);

    const std::filesystem::path& path() const { return map_.path(); }
    const SafetensorsLayout& layout() const { return layout_; }
    // nullptr when the file holds no tensor of that name.
    const SafetensorsEntry* find(std::string_view name) const;
    TensorView view(const SafetensorsEntry& e) const;

private:
    MappedFile map_;
    SafetensorsLayout layout_;
};

}  // namespace spmma::weights

// A file mapped read-only into memory: the bytes of a weight file without reading them all, and
// without a way to write them. Only regular files are mapped (a FIFO or a device would block or
// lie about its size).
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

namespace spmma::weights {

class MappedFile {
public:
    // Throws WeightsError naming the file: missing, not a regular file, unreadable, unmappable.
    explicit MappedFile(const std::filesystem::path& file);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;

    const std::filesystem::path& path() const { return path_; }
    std::span<const std::byte> bytes() const { return {data_, size_}; }
    std::string_view text() const { return {reinterpret_cast<const char*>(data_), size_}; }
    size_t size() const { return size_; }

private:
    void release() noexcept;
    std::filesystem::path path_;
    const std::byte* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace spmma::weights

// Internal: an out-struct (spmma_plugin_info, spmma_device_info, spmma_kernel_info) handed to a
// plugin inside a larger buffer whose bytes past the struct_size the host gives are a canary:
// the ABI lets the plugin write only min(struct_size, its sizeof) bytes and asks it to leave
// struct_size as the host set it.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace spmma::conformance::detail {

template <class T>
class CanaryStruct {
public:
    static constexpr unsigned char kCanary = 0xA5;
    static constexpr size_t kTail = 64;

    // The first `size` bytes zeroed with struct_size = size, every byte after them the canary.
    explicit CanaryStruct(uint32_t size = sizeof(T)) : size_(size) {
        std::memset(bytes_, kCanary, sizeof bytes_);
        std::memset(bytes_, 0, std::min<size_t>(size, sizeof bytes_));
        std::memcpy(bytes_, &size, sizeof size);
    }
    T* get() { return reinterpret_cast<T*>(bytes_); }

    // What the plugin wrote, as the host reads it: only the bytes the host gave (the rest zero).
    T value() const {
        T t{};
        std::memcpy(&t, bytes_, std::min<size_t>(size_, sizeof(T)));
        return t;
    }

    // What the plugin broke: empty when nothing.
    std::string violation(const std::string& call) const {
        uint32_t now = 0;
        std::memcpy(&now, bytes_, sizeof now);
        if (now != size_) return fmt::format("{} changed struct_size from {} to {}", call, size_, now);
        for (size_t i = size_; i < sizeof bytes_; ++i)
            if (bytes_[i] != kCanary)
                return fmt::format("{} with struct_size {} wrote byte {} (past the struct the host gave)", call, size_, i);
        return {};
    }

private:
    uint32_t size_;
    alignas(16) unsigned char bytes_[sizeof(T) + kTail];
};

}  // namespace spmma::conformance::detail

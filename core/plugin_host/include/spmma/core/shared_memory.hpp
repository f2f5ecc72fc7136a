// Memory that a worker process maps too: an anonymous memfd, mapped read-write here and handed
// to another process as a file descriptor. The runner makes each problem's operands in one
// (operand_set.hpp), and plugins in worker processes read them where they lie.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace spmma {

class SharedMemory {
public:
    SharedMemory() = default;
    // A new region of `bytes` (rounded up to pages); throws std::runtime_error with errno's text.
    static SharedMemory create(size_t bytes, const std::string& name);
    // Maps a region another process made (takes ownership of fd).
    static SharedMemory map(int fd, size_t bytes);
    ~SharedMemory();
    SharedMemory(SharedMemory&& o) noexcept;
    SharedMemory& operator=(SharedMemory&& o) noexcept;
    SharedMemory(const SharedMemory&) = delete;
    SharedMemory& operator=(const SharedMemory&) = delete;

    // Page-locks the region for the GPU with this UUID (host_pinning.hpp); false when it cannot.
    // Released regions are unpinned first. Processes pinning one region take turns (PinTurn).
    bool pin_for(const std::string& device_uuid);
    bool pinned() const { return pinned_; }

    uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    int fd() const { return fd_; }
    bool empty() const { return size_ == 0; }

    // An exclusive lock on the region's file while held, shared by every process that maps it
    // (a file lock on a description of its own, so no other descriptor of the region drops it).
    // NOTES: taking turns, the first worker's first run no longer waits while the other workers
    // lock the same pages (job 0 of the standard set: 1.96 s with all at once, 1.40-1.54 s in
    // turn; bench/NOTES.md, 2026-11-24).
    class PinTurn {
    public:
        explicit PinTurn(int region_fd);
        ~PinTurn();
        PinTurn(const PinTurn&) = delete;
        PinTurn& operator=(const PinTurn&) = delete;
        bool held() const { return fd_ >= 0; }

    private:
        int fd_ = -1;
    };

private:
    void release() noexcept;
    int fd_ = -1;
    uint8_t* data_ = nullptr;
    size_t size_ = 0;
    bool pinned_ = false;
};

}  // namespace spmma

#include <spmma/core/shared_memory.hpp>

#include <spmma/core/host_pinning.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace spmma {
namespace {

size_t page_round(size_t bytes) {
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return std::max(page, (bytes + page - 1) / page * page);
}

uint8_t* map_fd(int fd, size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) throw std::runtime_error(fmt::format("cannot map {} bytes of shared memory: {}", bytes, std::strerror(errno)));
    return static_cast<uint8_t*>(p);
}

}  // namespace

SharedMemory SharedMemory::create(size_t bytes, const std::string& name) {
    SharedMemory m;
    m.size_ = page_round(bytes);
    m.fd_ = memfd_create(name.c_str(), MFD_CLOEXEC);
    if (m.fd_ < 0) throw std::runtime_error(fmt::format("memfd_create({}): {}", name, std::strerror(errno)));
    if (ftruncate(m.fd_, static_cast<off_t>(m.size_)) != 0)
        throw std::runtime_error(fmt::format("cannot size shared memory to {} bytes: {}", m.size_, std::strerror(errno)));
    m.data_ = map_fd(m.fd_, m.size_);
    return m;
}

SharedMemory SharedMemory::map(int fd, size_t bytes) {
    SharedMemory m;
    m.fd_ = fd;
    m.size_ = bytes;
    m.data_ = map_fd(fd, bytes);
    return m;
}

SharedMemory::~SharedMemory() { release(); }

SharedMemory::SharedMemory(SharedMemory&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
      pinned_(std::exchange(o.pinned_, false)) {}

SharedMemory& SharedMemory::operator=(SharedMemory&& o) noexcept {
    if (this != &o) {
        release();
        fd_ = std::exchange(o.fd_, -1);
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
        pinned_ = std::exchange(o.pinned_, false);
    }
    return *this;
}

bool SharedMemory::pin_for(const std::string& device_uuid) {
    if (pinned_ || !data_ || device_uuid.empty()) return pinned_;
    // NOTES: the device's context is made before the turn is taken: making it (0.1 s and more)
    // is each process's own work and runs side by side; only the page-locking shares the kernel.
    if (!use_device_for_pinning(device_uuid)) return false;
    const PinTurn turn(fd_);
    pinned_ = pin_host_memory(data_, size_, device_uuid);
    return pinned_;
}

SharedMemory::PinTurn::PinTurn(int region_fd) {
    if (region_fd < 0) return;
    // A new open file description of the same file: flock belongs to the description, and the
    // descriptors passed between processes all share the parent's.
    fd_ = open(fmt::format("/proc/self/fd/{}", region_fd).c_str(), O_RDWR | O_CLOEXEC);
    if (fd_ < 0) return;  // no /proc: pinned without taking turns
    while (flock(fd_, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        close(fd_);
        fd_ = -1;
        return;
    }
}

SharedMemory::PinTurn::~PinTurn() {
    if (fd_ >= 0) close(fd_);  // the last descriptor of the description: the lock goes with it
}

void SharedMemory::release() noexcept {
    if (pinned_) unpin_host_memory(data_);
    pinned_ = false;
    if (data_) munmap(data_, size_);
    if (fd_ >= 0) close(fd_);
    data_ = nullptr;
    fd_ = -1;
    size_ = 0;
}

}  // namespace spmma

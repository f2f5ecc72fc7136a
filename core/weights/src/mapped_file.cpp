#include <spmma/weights/mapped_file.hpp>

#include <spmma/weights/weights_error.hpp>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace spmma::weights {
namespace {

// Closes the descriptor on every path out of the constructor (the mapping outlives it).
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& file) : path_(file) {
    // NOTES: O_NONBLOCK so that opening a FIFO by mistake returns instead of waiting for a writer;
    // the fstat below then refuses it. It has no effect on a regular file's reads.
    const Descriptor d{::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (d.fd < 0) throw WeightsError(file, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(d.fd, &st) != 0) throw WeightsError(file, std::string("cannot stat: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw WeightsError(file, "not a regular file");
    size_ = static_cast<size_t>(st.st_size);
    if (size_ == 0) return;  // mmap refuses a length of 0; an empty file has no bytes to map
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, d.fd, 0);
    if (p == MAP_FAILED) throw WeightsError(file, std::string("cannot map: ") + std::strerror(errno));
    data_ = static_cast<const std::byte*>(p);
}

MappedFile::~MappedFile() { release(); }

MappedFile::MappedFile(MappedFile&& o) noexcept
    : path_(std::move(o.path_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
    if (this != &o) {
        release();
        path_ = std::move(o.path_);
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
    }
    return *this;
}

void MappedFile::release() noexcept {
    if (data_) ::munmap(const_cast<std::byte*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
}

}  // namespace spmma::weights

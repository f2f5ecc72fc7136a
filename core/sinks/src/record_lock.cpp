#include <spmma/core/record.hpp>
#include <spmma/core/record_lock.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace spmma {
namespace {

std::string read_all(int fd) {
    std::string text;
    char buf[1024];
    ssize_t n;
    ::lseek(fd, 0, SEEK_SET);
    while ((n = ::read(fd, buf, sizeof buf)) > 0 && text.size() < 8192) text.append(buf, static_cast<size_t>(n));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

bool same_file(int fd, const std::string& path) {
    struct stat a{}, b{};
    return ::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

RecordFileLock::RecordFileLock(const std::string& path, const std::string& command) {
    struct stat st{};
    if (path == "-" || (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) return;
    lock_path_ = path + ".lock";
    // NOTES: the holder removes the lock file when it is done; one who opened it before that
    // holds a lock on a file no longer there, so the lock is taken again until the file locked
    // is the one at the path.
    for (int attempt = 0; attempt < 100; ++attempt) {
        fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) throw std::runtime_error(fmt::format("cannot lock {}: {}: {}", path, lock_path_, std::strerror(errno)));
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            const std::string holder = read_all(fd_);
            ::close(fd_);
            fd_ = -1;
            if (err == EWOULDBLOCK)
                throw std::runtime_error(fmt::format("{} is being written by another spmma ({}); one writer at a time (its lock: {})", path,
                                                     holder.empty() ? "no details yet" : holder, lock_path_));
            throw std::runtime_error(fmt::format("cannot lock {}: {}", lock_path_, std::strerror(err)));
        }
        if (same_file(fd_, lock_path_)) break;
        ::close(fd_);
        fd_ = -1;
    }
    if (fd_ < 0) throw std::runtime_error(fmt::format("cannot lock {}: its lock file keeps being replaced", path));
    const std::string who = fmt::format("pid {} on {}, since {}: {}\n", ::getpid(), host_name(), utc_timestamp(), command);
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, who.data(), who.size(), 0) != static_cast<ssize_t>(who.size())) {
        // the lock holds without its words; a second writer is still refused
    }
}

RecordFileLock::~RecordFileLock() {
    if (fd_ < 0) return;
    ::unlink(lock_path_.c_str());
    ::close(fd_);
}

}  // namespace spmma

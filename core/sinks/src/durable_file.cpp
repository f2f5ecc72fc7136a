#include <spmma/core/durable_file.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace spmma {
namespace {

// Writes all of `text` to `fd`; errno's text when a write fails (0 bytes written is ENOSPC).
std::string write_all(int fd, std::string_view text) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return std::strerror(w < 0 ? errno : ENOSPC);
        done += static_cast<size_t>(w);
    }
    return {};
}

// fsync, where the file can be synced (a pipe or a terminal cannot: EINVAL is no failure).
std::string sync(int fd) {
    if (::fsync(fd) == 0 || errno == EINVAL || errno == EROFS) return {};
    return std::strerror(errno);
}

bool is_regular(int fd) {
    struct stat st{};
    return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

DurableFile::DurableFile(std::string path, Mode mode) : path_(std::move(path)) {
    if (path_ == "-") {
        fd_ = STDOUT_FILENO;
        return;
    }
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == Mode::Append ? O_APPEND : O_TRUNC);
    fd_ = ::open(path_.c_str(), flags, 0644);
    if (fd_ < 0) throw OutputError(path_, fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
    owned_ = true;
    regular_ = is_regular(fd_);
    if (regular_) size_ = ::lseek(fd_, 0, SEEK_END);
}

DurableFile::~DurableFile() {
    if (owned_) ::close(fd_);
}

void DurableFile::append(std::string_view text, const std::string& what) {
    if (fd_ == STDOUT_FILENO) std::fflush(stdout);  // after anything printed there through stdio
    std::string err = write_all(fd_, text);
    if (err.empty() && owned_) err = sync(fd_);
    if (err.empty()) {
        size_ += static_cast<off_t>(text.size());
        return;
    }
    // NOTES: a write cut short (a full disk) leaves part of an entry; it is cut off again so the
    // file ends on its last whole entry and --resume reads it without a torn line.
    if (regular_ && ::ftruncate(fd_, size_) == 0) sync(fd_);
    throw OutputError(path_, fmt::format("cannot write {}: {} ({})", path_, err, what));
}

void write_file_durably(const std::filesystem::path& path, std::string_view text) {
    const std::string p = path.string();
    auto fail = [&](const std::string& why) { return OutputError(p, fmt::format("cannot write {}: {}", p, why)); };
    struct stat st{};
    const bool in_place = ::stat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
    const std::string target = in_place ? p : p + fmt::format(".tmp-{}", ::getpid());
    const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw fail(std::strerror(errno));
    std::string err = write_all(fd, text);
    if (err.empty() && !in_place) err = sync(fd);
    if (::close(fd) != 0 && err.empty()) err = std::strerror(errno);
    if (err.empty() && !in_place && ::rename(target.c_str(), p.c_str()) != 0) err = std::strerror(errno);
    if (!err.empty()) {
        if (!in_place) ::unlink(target.c_str());
        throw fail(err + (in_place ? "" : " (the file was left as it was)"));
    }
    if (in_place) return;
    // The rename itself on disk: the folder synced.
    const std::string dir = path.has_parent_path() ? path.parent_path().string() : ".";
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

}  // namespace spmma

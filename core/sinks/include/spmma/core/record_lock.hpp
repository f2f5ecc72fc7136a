// One writer per record file: a run writing FILE holds an exclusive flock on FILE.lock beside it,
// which says who holds it (pid, host, command, since when). A second run on the same file is
// refused with those words instead of running every job twice into it.
#pragma once

#include <stdexcept>
#include <string>

namespace spmma {

class RecordFileLock {
public:
    // Takes the lock of `path`; std::runtime_error naming the holder when another process has it.
    // No lock for "-" or a path that exists and is not a regular file (a device, a pipe).
    RecordFileLock(const std::string& path, const std::string& command);
    ~RecordFileLock();  // releases it and removes FILE.lock
    RecordFileLock(const RecordFileLock&) = delete;
    RecordFileLock& operator=(const RecordFileLock&) = delete;

private:
    std::string lock_path_;
    int fd_ = -1;
};

}  // namespace spmma

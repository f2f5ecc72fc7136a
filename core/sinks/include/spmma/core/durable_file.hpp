// Files whose writes either reach the disk or fail loudly: every write and fsync is checked, a
// write that fails is cut back off the file (no torn record is left behind), and the error names
// the file and how many entries (records) reached it. Used by every output spmma writes.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace spmma {

// An output that could not be written: the message names the file, the reason (errno's text)
// and what reached it. The run stops on one (exit 1).
class OutputError : public std::runtime_error {
public:
    OutputError(std::string file, const std::string& message) : std::runtime_error(message), file(std::move(file)) {}
    std::string file;
};

// A file written one whole entry at a time (JSON lines, CSV rows): each entry is written,
// flushed and synced before append() returns. "-" is standard output (flushed, not synced).
class DurableFile {
public:
    enum class Mode { Replace, Append };
    // Opens (creates) `path`; OutputError when it cannot.
    DurableFile(std::string path, Mode mode);
    ~DurableFile();
    DurableFile(const DurableFile&) = delete;
    DurableFile& operator=(const DurableFile&) = delete;

    // Writes `text` whole, or throws OutputError with the file cut back to what it held before.
    // `what` says in the error what was lost and what reached the file.
    void append(std::string_view text, const std::string& what);
    const std::string& path() const { return path_; }

private:
    std::string path_;
    int fd_ = -1;
    bool owned_ = false;
    bool regular_ = false;
    off_t size_ = 0;  // what the file held after the last whole entry
};

// `text` as the whole of `path`, replacing it only once all of it is on disk (a temporary file
// beside it, synced, then renamed over it); a path that is not a regular file (a device, a pipe)
// is written in place. OutputError naming the path when it cannot.
void write_file_durably(const std::filesystem::path& path, std::string_view text);

}  // namespace spmma

#include <spmma/core/terminal_progress.hpp>

#include <fmt/format.h>

namespace spmma {

void TerminalProgress::start(size_t total) {
    total_ = total;
    t0_ = std::chrono::steady_clock::now();
}

void TerminalProgress::step(size_t done, const std::string& what) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (elapsed < 2.0 && !shown_) return;
    shown_ = true;
    std::string eta = "?";
    if (done > 0) {
        const auto left = static_cast<long>(elapsed / static_cast<double>(done) * static_cast<double>(total_ - done));
        eta = fmt::format("{}:{:02}", left / 60, left % 60);
    }
    std::string line = fmt::format("[{}/{}] {}  ETA {}", done + 1, total_, what, eta);
    if (line.size() > 118) line = line.substr(0, 115) + "...";
    fmt::print(tty_, "\r\033[K{}", line);
    std::fflush(tty_);
}

void TerminalProgress::finish() {
    if (shown_) fmt::print(tty_, "\r\033[K");
    std::fflush(tty_);
}

}  // namespace spmma

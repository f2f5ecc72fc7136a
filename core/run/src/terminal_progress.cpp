#include <spmma/core/terminal_progress.hpp>

#include <spmma/core/terminal.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace spmma {
namespace {

// NOTES: a run shorter than this draws nothing (no flicker before its table); a longer one is
// redrawn at this pace, so the elapsed time moves while one long problem runs.
constexpr auto kFirstDraw = std::chrono::milliseconds(500);
constexpr auto kRedraw = std::chrono::milliseconds(500);

std::string clock_text(double seconds) {
    const auto s = static_cast<long>(seconds);
    return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60) : fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

TerminalProgress::~TerminalProgress() { stop(); }

std::string TerminalProgress::line(size_t done, size_t total, double elapsed, const std::string& what, size_t width) {
    const size_t cells = width >= 100 ? 20 : 10;
    const size_t filled = total ? std::min(cells, done * cells / total) : 0;
    const std::string eta = done > 0 && total >= done ? clock_text(elapsed / static_cast<double>(done) * static_cast<double>(total - done)) : "?";
    const std::string head = fmt::format("[{}/{}] [{}{}] {}, ETA {}  ", std::min(done + 1, total), total, std::string(filled, '#'),
                                         std::string(cells - filled, '.'), clock_text(elapsed), eta);
    // NOTES: one column short of the width: a character in the last column leaves some terminals
    // waiting to wrap, and the next "\r" then lands on a new line.
    return fit(head + what, width > 1 ? width - 1 : 1);
}

void TerminalProgress::start(size_t total) {
    std::lock_guard lock(mutex_);
    total_ = total;
    t0_ = std::chrono::steady_clock::now();
    if (running_) return;
    running_ = true;
    ticker_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        if (wake_.wait_for(lock, kFirstDraw, [this] { return !running_; })) return;
        while (running_) {
            draw();
            wake_.wait_for(lock, kRedraw, [this] { return !running_; });
        }
    });
}

void TerminalProgress::step(size_t done, const std::string& what) {
    std::lock_guard lock(mutex_);
    done_ = done;
    what_ = what;
    if (std::chrono::steady_clock::now() - t0_ >= kFirstDraw) draw();
}

void TerminalProgress::draw() {
    const std::lock_guard lock(terminal_lock());
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    fmt::print(tty_, "\r\033[K{}", line(done_, total_, elapsed, what_, terminal_columns(tty_)));
    std::fflush(tty_);
    shown_ = true;
}

void TerminalProgress::stop() {
    {
        std::lock_guard lock(mutex_);
        running_ = false;
    }
    wake_.notify_all();
    if (ticker_.joinable()) ticker_.join();
}

void TerminalProgress::finish() {
    stop();
    std::lock_guard lock(mutex_);
    const std::lock_guard terminal(terminal_lock());
    if (shown_) fmt::print(tty_, "\r\033[K");
    shown_ = false;
    std::fflush(tty_);
}

}  // namespace spmma

// The progress line of a run on the terminal.
#pragma once

#include <spmma/core/runner.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace spmma {

// "[3/12] [####......] 0:12, ETA 0:42  4096x4096x4096 f16*f16+f32->f16 2:4 on sm90a", redrawn
// twice a second once a run passes half a second, so a long problem shows its clock ticking; cut
// to the terminal's width (terminal_columns) less one column, so it never wraps.
class TerminalProgress : public Progress {
public:
    explicit TerminalProgress(std::FILE* tty) : tty_(tty) {}
    ~TerminalProgress() override;
    void start(size_t total) override;
    void step(size_t done, const std::string& what) override;
    void finish() override;

    // The line for `done` of `total` steps at `elapsed` seconds, in `width` columns.
    static std::string line(size_t done, size_t total, double elapsed, const std::string& what, size_t width);

private:
    void draw();  // with mutex_ held
    void stop();
    std::FILE* tty_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread ticker_;
    bool running_ = false, shown_ = false;
    size_t total_ = 0, done_ = 0;
    std::string what_;
    std::chrono::steady_clock::time_point t0_;
};

}  // namespace spmma

// The progress line of a long run on the terminal.
#pragma once

#include <spmma/core/runner.hpp>

#include <chrono>
#include <cstdio>
#include <string>

namespace spmma {

// "[3/12] 4096x4096x4096 ... on sm90a  ETA 0:42", on a terminal, once a run passes 2 s.
class TerminalProgress : public Progress {
public:
    explicit TerminalProgress(std::FILE* tty) : tty_(tty) {}
    void start(size_t total) override;
    void step(size_t done, const std::string& what) override;
    void finish() override;

private:
    std::FILE* tty_;
    size_t total_ = 0;
    bool shown_ = false;
    std::chrono::steady_clock::time_point t0_;
};

}  // namespace spmma

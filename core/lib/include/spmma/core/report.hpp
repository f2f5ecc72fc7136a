// Where records go: a table on the terminal, JSON lines, CSV; and the progress line.
#pragma once

#include <spmma/core/runner.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace spmma {

// Rows as records arrive; skipped records are grouped by plugin and reason at the end.
class TableSink : public RecordSink {
public:
    explicit TableSink(std::FILE* out, bool show_baseline) : out_(out), show_baseline_(show_baseline) {}
    void record(const Record& r) override;
    void finish() override;

private:
    void header();
    std::FILE* out_;
    bool show_baseline_;
    bool header_done_ = false;
    std::vector<std::pair<std::string, int>> skipped_; // "plugin: reason" -> count, in first-seen order
    int counts_[5] = {};
};

// One JSON object per line; "-" is standard output. Each record is flushed and synced to disk
// as it is written, so a kill loses at most the record in flight (--resume drops a torn line).
class JsonLinesSink : public RecordSink {
public:
    JsonLinesSink(const std::string& path, bool append = false);
    ~JsonLinesSink() override;
    void record(const Record& r) override;

private:
    std::FILE* file_ = nullptr;
    bool owned_ = false;
};

class CsvSink : public RecordSink {
public:
    explicit CsvSink(const std::string& path);
    void record(const Record& r) override;

private:
    std::ofstream file_;
    std::ostream* out_;
};

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

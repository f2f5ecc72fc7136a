// Records as a table on the terminal.
#pragma once

#include <spmma/core/record_sink.hpp>

#include <cstdio>
#include <string>
#include <utility>
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

}  // namespace spmma

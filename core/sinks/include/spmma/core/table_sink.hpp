// Records as a table on the terminal.
//
// By default the rows fit the terminal's width (80 columns unless it says otherwise): each
// problem is a heading line, its runs the rows under it, a cut cell ends in "~", a failure's or
// an error's reason follows its row, wrapped; the skipped runs are one line at the end. --wide
// writes one line per record with every cell whole, and lists each skip reason.
#pragma once

#include <spmma/core/record_sink.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace spmma {

struct TableStyle {
    bool wide = false;    // --wide: one line per record, nothing cut
    size_t width = 80;    // the columns a row fits when not wide
    bool colour = false;  // FAILED and ERROR in colour (a terminal, NO_COLOR unset)
};

// Rows as records arrive; skipped records are counted by plugin and reason and told at the end.
class TableSink : public RecordSink {
public:
    TableSink(std::FILE* out, bool show_baseline, TableStyle style = {});
    void record(const Record& r) override;
    void finish() override;

    // One column: its heading, width (the least, when wide), alignment and text.
    struct Column {
        std::string head;
        size_t width = 0;
        bool right = false;
        std::function<std::string(const Record&)> text;
    };

private:
    void header();
    std::string line(const std::vector<std::string>& cells, bool alarm) const;
    std::string skipped_line() const;
    std::FILE* out_;
    TableStyle style_;
    std::vector<Column> columns_;  // the last one is the verification, as long as the line allows
    bool header_done_ = false;
    std::string last_problem_;     // the heading last written (not wide)
    std::vector<std::pair<std::string, int>> skipped_;  // "plugin: reason" -> count, in first-seen order
    std::vector<std::pair<std::string, int>> skipped_plugins_;  // plugin -> count, in first-seen order
    int counts_[5] = {};
};

}  // namespace spmma

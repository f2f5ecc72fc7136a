// What spmma writes to a terminal: whether to colour, how wide the terminal is, and text fitted
// to a width. The table, the progress line and compare's table all take these from here.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace spmma {

// Held while whole lines go to the terminal: the progress line (redrawn from its own thread)
// never lands inside a table row.
std::mutex& terminal_lock();

enum class Colour { Red, Yellow, Green };

// Colour on `out` only when it is a terminal and NO_COLOR is unset or empty (no-color.org).
bool colour_on(std::FILE* out);

// The terminal's columns: COLUMNS when it holds a number, else the width the terminal reports
// for `out`, else 80.
size_t terminal_columns(std::FILE* out);

// `text` in bold colour when `on`, else unchanged. Pad before painting: the escapes take bytes, no columns.
std::string paint(const std::string& text, Colour colour, bool on);

// The columns `text` takes: one per character (UTF-8 continuation bytes take none).
size_t display_width(const std::string& text);

// `text` cut to at most `width` columns, a cut marked by "~" in its last column.
std::string fit(const std::string& text, size_t width);

// The words of `text` in lines of at most `width` columns, each line starting with `indent`
// spaces; a word longer than a line is cut.
std::vector<std::string> wrap(const std::string& text, size_t width, size_t indent);

}  // namespace spmma

#include <spmma/core/terminal.hpp>

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace spmma {
namespace {

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The byte offset after the first `columns` characters of `text`.
size_t bytes_of(const std::string& text, size_t columns) {
    size_t i = 0;
    for (size_t seen = 0; i < text.size(); ++i) {
        if (continuation(text[i])) continue;
        if (seen++ == columns) break;
    }
    return i;
}

}  // namespace

std::mutex& terminal_lock() {
    static std::mutex m;
    return m;
}

bool colour_on(std::FILE* out) {
    const char* no = std::getenv("NO_COLOR");
    return (!no || !*no) && isatty(fileno(out));
}

size_t terminal_columns(std::FILE* out) {
    if (const char* c = std::getenv("COLUMNS")) {
        char* end = nullptr;
        const long n = std::strtol(c, &end, 10);
        if (end != c && *end == '\0' && n > 0 && n < 10000) return static_cast<size_t>(n);
    }
    winsize w{};
    if (ioctl(fileno(out), TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
    return 80;
}

std::string paint(const std::string& text, Colour colour, bool on) {
    if (!on) return text;
    const char* sgr = colour == Colour::Red ? "\033[1;31m" : colour == Colour::Yellow ? "\033[1;33m" : "\033[1;32m";
    return sgr + text + "\033[0m";
}

size_t display_width(const std::string& text) {
    size_t n = 0;
    for (char c : text) n += !continuation(c);
    return n;
}

std::string fit(const std::string& text, size_t width) {
    if (display_width(text) <= width) return text;
    if (width == 0) return {};
    return text.substr(0, bytes_of(text, width - 1)) + "~";
}

std::vector<std::string> wrap(const std::string& text, size_t width, size_t indent) {
    const size_t room = width > indent ? width - indent : 1;
    std::vector<std::string> lines;
    std::string line;
    std::istringstream words(text);
    for (std::string w; words >> w;) {
        w = fit(w, room);
        if (!line.empty() && display_width(line) + 1 + display_width(w) > room) {
            lines.push_back(std::string(indent, ' ') + line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + w;
    }
    if (!line.empty()) lines.push_back(std::string(indent, ' ') + line);
    return lines;
}

}  // namespace spmma

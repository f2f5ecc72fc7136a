#include <spmma/core/markup.hpp>

#include <cstdint>

namespace spmma {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when it is not one.
size_t utf8_sequence(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    const uint8_t c = b(i);
    size_t len;
    uint32_t cp;
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07;
    else return 0;
    if (i + len > s.size()) return 0;
    for (size_t k = 1; k < len; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    // NOTES: overlong forms, surrogates and code points past U+10FFFF are not UTF-8; U+FFFE and
    // U+FFFF are not XML characters.
    static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF || cp == 0xFFFE || cp == 0xFFFF) return 0;
    return len;
}

std::string escape(std::string_view text, bool attribute) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        const size_t len = utf8_sequence(text, i);
        if (len == 0) {
            out += kReplacement;
            ++i;
            continue;
        }
        if (len > 1) {
            out.append(text.substr(i, len));
            i += len;
            continue;
        }
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            case '\t': out += attribute ? "&#9;" : "\t"; break;
            case '\n': out += attribute ? "&#10;" : "\n"; break;
            case '\r': out += attribute ? "&#13;" : "\r"; break;
            default:
                if (static_cast<uint8_t>(c) < 0x20 || c == 0x7F) out += kReplacement;
                else out += c;
        }
        ++i;
    }
    return out;
}

}  // namespace

std::string markup_escape(std::string_view text) { return escape(text, false); }

std::string markup_attribute(std::string_view text) { return escape(text, true); }

}  // namespace spmma

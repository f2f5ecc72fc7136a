// The .npy header: a Python dict literal after a magic string, parsed by hand (the three keys
// numpy writes and nothing else) so that a hostile file is a clear error, never a crash.
#include <spmma/core/npy_format.hpp>

#include <cstring>
#include <limits>
#include <stdexcept>

namespace spmma {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

[[noreturn]] void fail(const std::string& why) { throw std::invalid_argument(why); }

// A cursor over the header dict with the few Python literal forms numpy writes.
class DictReader {
public:
    explicit DictReader(std::string_view text) : s_(text) {}

    void skip_space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
    }
    bool take(char c) {
        skip_space();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void expect(char c, const char* where) {
        if (!take(c)) fail(std::string("the header dict lacks '") + c + "' " + where);
    }
    bool at_end() {
        skip_space();
        return pos_ == s_.size();
    }
    bool peek(char c) {
        skip_space();
        return pos_ < s_.size() && s_[pos_] == c;
    }

    // A quoted string without escapes ('...' or "...").
    std::string string() {
        skip_space();
        if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) fail("the header dict has a key or descr that is not a string");
        const char quote = s_[pos_++];
        const size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] != quote) {
            if (s_[pos_] == '\\') fail("the header dict has an escaped string");
            ++pos_;
        }
        if (pos_ >= s_.size()) fail("the header dict has an unterminated string");
        return std::string(s_.substr(start, pos_++ - start));
    }

    bool boolean() {
        skip_space();
        for (const auto& [word, value] : {std::pair<std::string_view, bool>{"True", true}, {"False", false}})
            if (s_.substr(pos_, word.size()) == word) {
                pos_ += word.size();
                return value;
            }
        fail("fortran_order is neither True nor False");
    }

    // A non-negative decimal integer (Python 2 writers added an L).
    int64_t dimension() {
        skip_space();
        if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') fail("the shape holds something other than non-negative integers");
        int64_t v = 0;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
            const int d = s_[pos_++] - '0';
            if (v > (std::numeric_limits<int64_t>::max() - d) / 10) fail("a dimension of the shape overflows int64");
            v = v * 10 + d;
        }
        if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_;
        return v;
    }

    std::vector<int64_t> shape() {
        expect('(', "to open the shape");
        std::vector<int64_t> dims;
        while (!take(')')) {
            dims.push_back(dimension());
            if (!take(',')) {
                expect(')', "to close the shape");
                break;
            }
        }
        return dims;
    }

private:
    std::string_view s_;
    size_t pos_ = 0;
};

void parse_dict(std::string_view text, NpyHeader& h) {
    DictReader r(text);
    r.expect('{', "at its start");
    bool seen_descr = false, seen_order = false, seen_shape = false;
    while (!r.take('}')) {
        const std::string key = r.string();
        r.expect(':', "after a key");
        bool* seen = key == "descr" ? &seen_descr : key == "fortran_order" ? &seen_order : key == "shape" ? &seen_shape : nullptr;
        if (!seen) fail("the header dict has the key '" + key + "' (a .npy header holds descr, fortran_order and shape)");
        if (*seen) fail("the header dict has the key '" + key + "' twice");
        *seen = true;
        if (key == "descr") {
            if (r.peek('[')) fail("the descr is a list: structured dtypes are not read");
            h.descr = r.string();
        } else if (key == "fortran_order") {
            h.fortran_order = r.boolean();
        } else {
            h.shape = r.shape();
        }
        if (!r.take(',')) {
            r.expect('}', "to close it");
            break;
        }
    }
    if (!r.at_end()) fail("the header has something other than padding after its dict");
    if (!seen_descr || !seen_order || !seen_shape) fail("the header dict lacks one of descr, fortran_order and shape");
    npy_element_count(h.shape);
}

}  // namespace

int64_t npy_element_count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d < 0) fail("the shape has a negative dimension");
        if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) fail("the shape's element count overflows int64");
        n *= d;
    }
    return n;
}

NpyHeader parse_npy_header(std::string_view bytes) {
    if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic) fail("not a .npy file (no \\x93NUMPY magic)");
    NpyHeader h;
    h.major_version = static_cast<uint8_t>(bytes[6]);
    const int minor = static_cast<uint8_t>(bytes[7]);
    if (h.major_version < 1 || h.major_version > 3 || minor != 0)
        fail("format version " + std::to_string(h.major_version) + "." + std::to_string(minor) + " is not 1.0, 2.0 or 3.0");
    const size_t length_bytes = h.major_version == 1 ? 2 : 4;
    if (bytes.size() < 8 + length_bytes) fail("the file ends inside the header length");
    size_t length = 0;
    for (size_t i = 0; i < length_bytes; ++i) length |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    if (length > kNpyMaxHeaderBytes)
        fail("the header is " + std::to_string(length) + " bytes, more than the " + std::to_string(kNpyMaxHeaderBytes) + " read");
    h.data_offset = 8 + length_bytes + length;
    if (bytes.size() < h.data_offset) fail("the file ends inside the header");
    const std::string_view dict = bytes.substr(8 + length_bytes, length);
    for (char c : dict)
        if (static_cast<unsigned char>(c) >= 0x80 || c == '\0') fail("the header holds a byte that is not ASCII text");
    parse_dict(dict, h);
    return h;
}

std::string format_npy_header(std::string_view descr, const std::vector<int64_t>& shape) {
    std::string dims;  // "3," for one dimension, "3, 4" for two
    for (size_t x = 0; x < shape.size(); ++x) dims += (x ? ", " : "") + std::to_string(shape[x]);
    if (shape.size() == 1) dims += ",";
    std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    // Magic (6) + version (2) + length (2) + dict, padded with spaces to a multiple of 64 and
    // ended by a newline.
    const size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict.push_back('\n');
    if (dict.size() > 0xffff) throw std::invalid_argument("npy: the header of this shape is too long for format 1.0");
    std::string out(kMagic);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>(dict.size() >> 8);
    return out + dict;
}

}  // namespace spmma

#include <spmma/core/sizes.hpp>

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>
#include <string>

namespace spmma {
namespace {

constexpr size_t kMaxValues = 100000;

int64_t parse_int(std::string_view s, std::string_view whole) {
    int64_t v = 0;
    const auto* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, v);
    if (s.empty() || r.ec != std::errc() || r.ptr != end)
        throw std::invalid_argument(fmt::format("'{}' is not an integer (in '{}')", s, whole));
    return v;
}

}  // namespace

std::vector<int64_t> parse_size_range(std::string_view text) {
    const auto c1 = text.find(':');
    const auto c2 = text.find(':', c1 + 1);
    if (c1 == std::string_view::npos || c2 == std::string_view::npos || text.find(':', c2 + 1) != std::string_view::npos)
        throw std::invalid_argument(fmt::format("'{}' is not a range start:end:step or start:end:*factor", text));
    const int64_t start = parse_int(text.substr(0, c1), text);
    const int64_t end = parse_int(text.substr(c1 + 1, c2 - c1 - 1), text);
    std::string_view step_s = text.substr(c2 + 1);
    const bool geometric = !step_s.empty() && step_s.front() == '*';
    if (geometric) step_s.remove_prefix(1);
    const int64_t step = parse_int(step_s, text);
    if (start < 1) throw std::invalid_argument(fmt::format("range '{}' must start at 1 or more", text));
    if (end < start) throw std::invalid_argument(fmt::format("range '{}' ends before it starts", text));
    if (geometric ? step < 2 : step < 1)
        throw std::invalid_argument(fmt::format("range '{}' needs a step of {} or more", text, geometric ? "*2" : "1"));
    std::vector<int64_t> out;
    for (int64_t v = start;;) {
        out.push_back(v);
        if (out.size() > kMaxValues) throw std::invalid_argument(fmt::format("range '{}' has more than {} values", text, kMaxValues));
        // NOTES: a step past INT64_MAX ends the range (its end is below that), never wraps.
        int64_t next = 0;
        if (geometric ? __builtin_mul_overflow(v, step, &next) : __builtin_add_overflow(v, step, &next)) break;
        if (next > end) break;
        v = next;
    }
    return out;
}

std::vector<int64_t> parse_size_list(std::string_view text) {
    std::vector<int64_t> out;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = text.find(',', pos);
        std::string_view part = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        if (part.empty()) throw std::invalid_argument(fmt::format("empty entry in size list '{}'", text));
        if (part.find(':') != std::string_view::npos) {
            const auto r = parse_size_range(part);
            out.insert(out.end(), r.begin(), r.end());
        } else {
            const int64_t v = parse_int(part, text);
            if (v < 1) throw std::invalid_argument(fmt::format("size {} must be 1 or more (in '{}')", v, text));
            out.push_back(v);
        }
        if (out.size() > kMaxValues) throw std::invalid_argument(fmt::format("size list '{}' has more than {} values", text, kMaxValues));
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
    }
    return out;
}

}  // namespace spmma

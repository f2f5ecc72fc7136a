#include <spmma/weights/safetensors.hpp>

#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <set>

namespace spmma::weights {
namespace {

using nlohmann::json;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// Thrown from the parser's callback to stop at once (nesting too deep, a key twice).
struct HeaderShapeError {
    std::string reason;
};

// Parses the header JSON, refusing a key twice in one object, nesting deeper than the format's
// three levels (header object, tensor object, shape / offsets array) and any array longer than a
// shape may be, so that a hostile header cannot make the parser build more than the format
// allows. nlohmann's depth: 0 the header, 1 its keys and values, 2 theirs, 3 array items.
json parse_header_json(std::string_view text) {
    struct Open {
        std::set<std::string> keys;  // an object's keys so far
        size_t items = 0;            // an array's items so far
        bool array = false;
    };
    std::vector<Open> open;
    const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth > 3) throw HeaderShapeError{"the header nests deeper than the format (object, tensor, shape)"};
        switch (event) {
            case json::parse_event_t::object_start: open.push_back({{}, 0, false}); break;
            case json::parse_event_t::array_start: open.push_back({{}, 0, true}); break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end: open.pop_back(); break;
            case json::parse_event_t::key:
                if (!open.back().keys.insert(parsed.get<std::string>()).second)
                    throw HeaderShapeError{"the header has the key " + quote_name(parsed.get<std::string>()) + " twice in one object"};
                break;
            case json::parse_event_t::value:
                if (!open.empty() && open.back().array && ++open.back().items > kSafetensorsMaxRank)
                    throw HeaderShapeError{fmt::format("the header has an array of more than {} items (a shape has at most {} dimensions)",
                                                       kSafetensorsMaxRank, kSafetensorsMaxRank)};
                break;
        }
        return true;
    };
    return json::parse(text.begin(), text.end(), check);
}

uint64_t read_le64(std::span<const std::byte> b) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(b[static_cast<size_t>(i)]) << (8 * i);
    return v;
}

// A JSON integer in [0, max], else nullopt.
std::optional<uint64_t> non_negative(const json& v, uint64_t max) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<uint64_t>();
        if (u <= max) return u;
    } else if (v.is_number_integer() && v.get<int64_t>() >= 0) {
        const auto u = static_cast<uint64_t>(v.get<int64_t>());
        if (u <= max) return u;
    }
    return std::nullopt;
}

class HeaderChecker {
public:
    HeaderChecker(const std::filesystem::path& file, uint64_t data_bytes) : file_(file), data_bytes_(data_bytes) {}

    [[noreturn]] void fail(const std::string& reason) const { throw WeightsError(file_, reason); }
    [[noreturn]] void fail(const std::string& tensor, const std::string& reason) const {
        throw WeightsError(file_, "tensor " + quote_name(tensor) + ": " + reason);
    }

    void metadata(const json& m, std::map<std::string, std::string>& out) const {
        if (!m.is_object()) fail("__metadata__ is not an object of strings");
        for (const auto& [k, v] : m.items()) {
            if (!v.is_string()) fail("__metadata__ " + quote_name(k) + " is not a string");
            out.emplace(k, v.get<std::string>());
        }
    }

    SafetensorsEntry tensor(const std::string& name, const json& t) const {
        if (!t.is_object()) fail(name, "is not an object with dtype, shape and data_offsets");
        for (const auto& [k, v] : t.items())
            if (k != "dtype" && k != "shape" && k != "data_offsets") fail(name, "has the unknown key " + quote_name(k));
        for (const char* k : {"dtype", "shape", "data_offsets"})
            if (!t.contains(k)) fail(name, std::string("has no ") + k);
        SafetensorsEntry e;
        e.name = name;
        const json& dtype = t["dtype"];
        if (!dtype.is_string()) fail(name, "dtype is not a string");
        const auto type = parse_safetensors_dtype(dtype.get<std::string>());
        if (!type) fail(name, "unknown dtype " + quote_name(dtype.get<std::string>()));
        e.type = *type;
        const json& shape = t["shape"];
        if (!shape.is_array()) fail(name, "shape is not an array");
        int64_t elements = 1;
        for (const json& d : shape) {
            const auto v = non_negative(d, static_cast<uint64_t>(kInt64Max));
            if (!v) fail(name, "shape holds something other than non-negative integers");
            const auto dim = static_cast<int64_t>(*v);
            if (dim != 0 && elements > kInt64Max / dim) fail(name, "the element count of its shape overflows int64");
            elements *= dim;
            e.shape.push_back(dim);
        }
        const int64_t size = element_bytes(e.type);
        if (elements > kInt64Max / size) fail(name, "the byte count of its shape overflows int64");
        const auto bytes = static_cast<uint64_t>(elements * size);
        const json& offsets = t["data_offsets"];
        if (!offsets.is_array() || offsets.size() != 2) fail(name, "data_offsets is not an array of two integers");
        const auto begin = non_negative(offsets[0], std::numeric_limits<uint64_t>::max());
        const auto end = non_negative(offsets[1], std::numeric_limits<uint64_t>::max());
        if (!begin || !end) fail(name, "data_offsets holds something other than non-negative integers");
        if (*begin > *end) fail(name, fmt::format("data_offsets [{}, {}] end before they begin", *begin, *end));
        if (*end > data_bytes_)
            fail(name, fmt::format("data_offsets [{}, {}] run past the data area ({} bytes): the file is truncated or lies", *begin, *end,
                                   data_bytes_));
        if (*end - *begin != bytes)
            fail(name, fmt::format("data_offsets [{}, {}] hold {} bytes, {} {} is {}", *begin, *end, *end - *begin, weights::name(e.type),
                                   shape.dump(), bytes));
        e.begin = *begin;
        e.end = *end;
        return e;
    }

    // No two tensors share a byte, whatever their order in the file.
    void no_overlap(const std::vector<SafetensorsEntry>& tensors) const {
        std::vector<const SafetensorsEntry*> order;
        for (const auto& t : tensors)
            if (t.end > t.begin) order.push_back(&t);
        std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
        for (size_t i = 1; i < order.size(); ++i)
            if (order[i]->begin < order[i - 1]->end)
                fail(fmt::format("tensors {} [{}, {}] and {} [{}, {}] overlap", quote_name(order[i - 1]->name), order[i - 1]->begin,
                                 order[i - 1]->end, quote_name(order[i]->name), order[i]->begin, order[i]->end));
    }

private:
    const std::filesystem::path& file_;
    uint64_t data_bytes_;
};

}  // namespace

SafetensorsLayout parse_safetensors(std::span<const std::byte> file, const std::filesystem::path& file_name) {
    if (file.size() < 8) throw WeightsError(file_name, fmt::format("{} bytes: too short for a safetensors header length", file.size()));
    SafetensorsLayout out;
    out.header_bytes = read_le64(file.first(8));
    if (out.header_bytes > kSafetensorsMaxHeaderBytes)
        throw WeightsError(file_name, fmt::format("the header length {} is more than the format's limit of {} bytes", out.header_bytes,
                                                  kSafetensorsMaxHeaderBytes));
    if (out.header_bytes > file.size() - 8)
        throw WeightsError(file_name, fmt::format("the header length {} runs past the end of the file ({} bytes): truncated, or not safetensors",
                                                  out.header_bytes, file.size()));
    out.data_offset = 8 + out.header_bytes;
    const std::string_view text(reinterpret_cast<const char*>(file.data()) + 8, out.header_bytes);
    if (text.empty() || text.front() != '{') throw WeightsError(file_name, "the header does not start with '{'");
    json header;
    try {
        header = parse_header_json(text);
    } catch (const HeaderShapeError& e) {
        throw WeightsError(file_name, e.reason);
    } catch (const json::exception& e) {
        throw WeightsError(file_name, std::string("the header is not valid JSON: ") + e.what());
    }
    if (!header.is_object()) throw WeightsError(file_name, "the header is not a JSON object");
    const HeaderChecker check(file_name, file.size() - out.data_offset);
    for (const auto& [key, value] : header.items()) {
        if (key == "__metadata__") check.metadata(value, out.metadata);
        else out.tensors.push_back(check.tensor(key, value));
    }
    check.no_overlap(out.tensors);
    return out;
}

SafetensorsFile::SafetensorsFile(const std::filesystem::path& file) : map_(file), layout_(parse_safetensors(map_.bytes(), file)) {}

const SafetensorsEntry* SafetensorsFile::find(std::string_view name) const {
    const auto& t = layout_.tensors;
    const auto it = std::lower_bound(t.begin(), t.end(), name, [](const SafetensorsEntry& e, std::string_view n) { return e.name < n; });
    return it != t.end() && it->name == name ? &*it : nullptr;
}

TensorView SafetensorsFile::view(const SafetensorsEntry& e) const {
    return TensorView{path(), e.name, e.type, e.shape, map_.bytes().subspan(layout_.data_offset + e.begin, e.end - e.begin)};
}

}  // namespace spmma::weights

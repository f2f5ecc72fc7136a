#include <spmma/weights/bitmask24.hpp>

#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>

#include <cstring>

namespace spmma::weights {
namespace {

constexpr std::string_view kCompressed = ".compressed", kBitmask = ".bitmask", kShape = ".shape", kWeight = ".weight";

bool ends_with(std::string_view s, std::string_view tail) { return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail; }

// Element i of an integer tensor, sign-extended for the signed types; nullopt for other types.
std::optional<int64_t> integer_at(const TensorView& t, int64_t i) {
    const int bytes = element_bytes(t.type);
    const bool is_signed = t.type == StoredType::I8 || t.type == StoredType::I16 || t.type == StoredType::I32 || t.type == StoredType::I64;
    const bool is_unsigned = t.type == StoredType::U8 || t.type == StoredType::U16 || t.type == StoredType::U32 || t.type == StoredType::U64;
    if (!is_signed && !is_unsigned) return std::nullopt;
    uint64_t v = 0;
    std::memcpy(&v, t.bytes.data() + i * bytes, static_cast<size_t>(bytes));  // little-endian host
    if (is_signed && bytes < 8 && (v >> (8 * bytes - 1)) & 1) v |= ~uint64_t{0} << (8 * bytes);
    if (is_unsigned && bytes == 8 && v > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(v);
}

Bitmask24Layer assemble(const Checkpoint& c, const std::string& prefix, const TensorView& compressed) {
    auto part = [&](std::string_view suffix) {
        auto t = c.find(prefix + std::string(suffix));
        if (!t)
            throw WeightsError(compressed.file, fmt::format("{} has no {} beside it (a sparse-24-bitmask layer has .compressed, .bitmask and .shape)",
                                                            quote_name(compressed.name), quote_name(prefix + std::string(suffix))));
        return *t;
    };
    Bitmask24Layer l{prefix, compressed, part(kBitmask), part(kShape), 0, 0};
    auto fail = [&](const TensorView& t, const std::string& why) { throw WeightsError(t.file, "tensor " + quote_name(t.name) + ": " + why); };
    if (l.shape.elements() != 2) fail(l.shape, fmt::format("{} elements, a sparse-24-bitmask shape holds [m, k]", l.shape.elements()));
    const auto m = integer_at(l.shape, 0), k = integer_at(l.shape, 1);
    if (!m || !k) fail(l.shape, fmt::format("a {} tensor, not integers", name(l.shape.type)));
    if (*m < 1 || *k < 4 || *k % 4 != 0) fail(l.shape, fmt::format("[{}, {}]: m must be 1 or more, k a positive multiple of 4", *m, *k));
    l.m = *m;
    l.k = *k;
    if (compressed.shape != std::vector<int64_t>{l.m, l.k / 2})
        fail(compressed, fmt::format("shape {}, the layer's [{}, {}] keeps [{}, {}]", compressed.shape_text(), l.m, l.k, l.m, l.k / 2));
    if (l.bitmask.type != StoredType::U8 && l.bitmask.type != StoredType::I8)
        fail(l.bitmask, fmt::format("a {} tensor, the mask is packed in bytes (U8)", name(l.bitmask.type)));
    if (l.bitmask.shape != std::vector<int64_t>{l.m, (l.k + 7) / 8})
        fail(l.bitmask, fmt::format("shape {}, the layer's [{}, {}] packs into [{}, {}]", l.bitmask.shape_text(), l.m, l.k, l.m, (l.k + 7) / 8));
    return l;
}

}  // namespace

std::optional<Bitmask24Layer> find_bitmask24_layer(const Checkpoint& c, std::string_view name) {
    std::string prefix(name);
    if (!c.find(prefix + std::string(kCompressed)) && ends_with(prefix, kWeight)) prefix.resize(prefix.size() - kWeight.size());
    const auto compressed = c.find(prefix + std::string(kCompressed));
    if (!compressed) return std::nullopt;
    return assemble(c, prefix, *compressed);
}

std::vector<Bitmask24Layer> bitmask24_layers(const Checkpoint& c) {
    std::vector<Bitmask24Layer> out;
    for (const TensorView& t : c.tensors())
        if (ends_with(t.name, kCompressed)) out.push_back(assemble(c, t.name.substr(0, t.name.size() - kCompressed.size()), t));
    return out;
}

CompressedA decode_bitmask24(const Bitmask24Layer& l) {
    // Index byte of each 4-bit mask with two bits set (i0 | i1 << 2, i0 < i1); 0xff: not 2 of 4.
    uint8_t index_of[16];
    for (int nibble = 0; nibble < 16; ++nibble) {
        int cols[4], n = 0;
        for (int b = 0; b < 4; ++b)
            if (nibble >> b & 1) cols[n++] = b;
        index_of[nibble] = n == 2 ? static_cast<uint8_t>(cols[0] | cols[1] << 2) : 0xff;
    }
    const int64_t groups = l.k / 4, row_bytes = (l.k + 7) / 8;
    const auto* mask = reinterpret_cast<const uint8_t*>(l.bitmask.bytes.data());
    CompressedA a;
    a.values.assign(reinterpret_cast<const uint8_t*>(l.compressed.bytes.data()),
                    reinterpret_cast<const uint8_t*>(l.compressed.bytes.data()) + l.compressed.bytes.size());
    a.indices.resize(static_cast<size_t>(l.m * groups));
    for (int64_t i = 0; i < l.m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            const int nibble = mask[i * row_bytes + g / 2] >> (4 * (g % 2)) & 0xf;
            if (index_of[nibble] == 0xff)
                throw WeightsError(l.bitmask.file, fmt::format("tensor {}: row {}, group {} (columns {}..{}) keeps {} columns, 2:4 keeps 2",
                                                               quote_name(l.bitmask.name), i, g, 4 * g, 4 * g + 3,
                                                               __builtin_popcount(static_cast<unsigned>(nibble))));
            a.indices[static_cast<size_t>(i * groups + g)] = index_of[nibble];
        }
    return a;
}

}  // namespace spmma::weights

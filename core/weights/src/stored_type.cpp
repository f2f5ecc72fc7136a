#include <spmma/weights/stored_type.hpp>

#include <fmt/format.h>

#include <array>

namespace spmma::weights {
namespace {

struct Row {
    StoredType type;
    const char* name;        // safetensors' name (V1 / V2: not safetensors dtypes)
    int bytes;
    DType natural;
    bool safetensors;
};

// The one table of stored types.
constexpr std::array<Row, 18> kRows = {{
    {StoredType::Bool, "BOOL", 1, DType::None, true},
    {StoredType::U8, "U8", 1, DType::U8, true},
    {StoredType::I8, "I8", 1, DType::S8, true},
    {StoredType::U16, "U16", 2, DType::None, true},
    {StoredType::I16, "I16", 2, DType::None, true},
    {StoredType::F16, "F16", 2, DType::F16, true},
    {StoredType::BF16, "BF16", 2, DType::BF16, true},
    {StoredType::U32, "U32", 4, DType::None, true},
    {StoredType::I32, "I32", 4, DType::None, true},
    {StoredType::F32, "F32", 4, DType::F32, true},
    {StoredType::U64, "U64", 8, DType::None, true},
    {StoredType::I64, "I64", 8, DType::None, true},
    {StoredType::F64, "F64", 8, DType::None, true},
    {StoredType::F8_E4M3, "F8_E4M3", 1, DType::E4M3, true},
    {StoredType::F8_E5M2, "F8_E5M2", 1, DType::E5M2, true},
    {StoredType::F8_E8M0, "F8_E8M0", 1, DType::UE8M0, true},
    {StoredType::Raw8, "V1", 1, DType::None, false},
    {StoredType::Raw16, "V2", 2, DType::None, false},
}};

static_assert([] {
    for (size_t i = 0; i < kRows.size(); ++i)
        if (static_cast<size_t>(kRows[i].type) != i) return false;
    return true;
}(), "kRows is in the order of StoredType");

const Row& row(StoredType s) { return kRows[static_cast<size_t>(s)]; }

bool is_8bit_float(DType t) { return t == DType::E4M3 || t == DType::E5M2; }

}  // namespace

const char* name(StoredType s) { return row(s).name; }
int element_bytes(StoredType s) { return row(s).bytes; }
DType natural_type(StoredType s) { return row(s).natural; }

std::optional<StoredType> parse_safetensors_dtype(std::string_view s) {
    for (const Row& r : kRows)
        if (r.safetensors && s == r.name) return r.type;
    return std::nullopt;
}

std::optional<StoredType> parse_npy_descr(std::string_view d) {
    // NOTES: numpy writes '|' for types without a byte order (1-byte ones, void) and '<' for
    // little-endian; some writers put '<' on 1-byte types too. '>' and '=' are refused: '='
    // is the writer's native order, which the file does not record.
    if (d.size() < 3 || (d[0] != '<' && d[0] != '|')) return std::nullopt;
    static constexpr std::pair<std::string_view, StoredType> kDescr[] = {
        {"f2", StoredType::F16}, {"f4", StoredType::F32}, {"f8", StoredType::F64}, {"i1", StoredType::I8},
        {"u1", StoredType::U8},  {"i2", StoredType::I16}, {"u2", StoredType::U16}, {"i4", StoredType::I32},
        {"u4", StoredType::U32}, {"i8", StoredType::I64}, {"u8", StoredType::U64}, {"b1", StoredType::Bool},
        {"V1", StoredType::Raw8}, {"V2", StoredType::Raw16}};
    for (const auto& [code, type] : kDescr)
        if (d.substr(1) == code) return type;
    return std::nullopt;
}

DType run_type(StoredType s, DType int8_view) {
    if ((s == StoredType::I8 || s == StoredType::U8) && int8_view != DType::None) return int8_view;
    if (s == StoredType::F32) return DType::TF32;
    const DType t = natural_type(s);
    return t == DType::F16 || t == DType::BF16 || t == DType::E4M3 || t == DType::E5M2 || t == DType::S8 || t == DType::U8 ? t : DType::None;
}

std::optional<ReadPlan> plan_read(StoredType s, DType t, std::string* why) {
    const DType natural = natural_type(s);
    if (natural != DType::None && natural == t) return ReadPlan{Reading::Bits, t};
    if (natural != DType::None && is_float(natural) && is_float(t)) return ReadPlan{Reading::Convert, natural};
    if ((s == StoredType::I8 || s == StoredType::U8 || s == StoredType::Raw8) && is_8bit_float(t)) return ReadPlan{Reading::View, t};
    if ((s == StoredType::U16 || s == StoredType::I16 || s == StoredType::Raw16) && (t == DType::BF16 || t == DType::F16))
        return ReadPlan{Reading::View, t};
    if (why) {
        if (natural != DType::None && is_float(natural) && is_integer(t))
            *why = fmt::format("a {} tensor is not an {} operand: floats become integers only with a quantization scale", name(s), spmma::name(t));
        else
            *why = fmt::format("a {} tensor cannot be read as an {} operand", name(s), spmma::name(t));
    }
    return std::nullopt;
}

}  // namespace spmma::weights

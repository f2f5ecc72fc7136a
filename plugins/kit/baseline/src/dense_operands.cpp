#include <spmma_baseline/dense_operands.hpp>

#include <spmma_plugin/host_pack.hpp>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace spmma_baseline {
namespace {

using spmma_plugin::host::kept_columns;

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

struct ExpandArgs {
    const spmma_problem& p;
    const uint8_t* values;
    const uint8_t* indices;
    uint8_t* dense;
    int64_t cols;  // of the padded dense A
    int group;
    int64_t groups, kept_per_row;
};

// NOTES: one instantiation per element size, so the element copies are fixed-size moves (A of
// the largest standard shape has 235 M elements).
template <int EB>
void expand_rows(const ExpandArgs& a) {
    for (int64_t i = 0; i < a.p.m; ++i) {
        const uint8_t* row_values = a.values + i * a.kept_per_row * EB;
        const uint8_t* row_indices = a.indices + i * a.groups;
        uint8_t* out = a.dense + i * a.cols * EB;
        int64_t next = 0;  // kept value of this row
        for (int64_t g = 0; g < a.groups; ++g) {
            int kept[4];
            const int count = kept_columns(a.p.pattern, row_indices[g], kept);
            if (count == 0) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02x", row_indices[g]);
                bad(std::string("A: index byte ") + hex + " at row " + std::to_string(i) + ", group " + std::to_string(g) +
                    " is not a valid " + spmma_pattern_name(a.p.pattern) + " selection");
            }
            for (int c = 0; c < count; ++c, ++next)
                std::memcpy(out + (g * a.group + kept[c]) * EB, row_values + next * EB, EB);
        }
    }
}

}  // namespace

int element_bytes(spmma_dtype t) {
    const int bits = spmma_dtype_storage_bits(t);
    if (bits < 8 || t == SPMMA_DTYPE_NONE || t > SPMMA_S32)
        bad(std::string("no dense expansion for ") + spmma_dtype_name(t) + " (packed or unknown type)");
    return bits / 8;
}

PaddedSizes pad_sizes(const spmma_problem& p, int64_t multiple_m, int64_t multiple_n, int64_t multiple_k) {
    return {round_up(p.m, multiple_m), round_up(p.n, multiple_n), round_up(p.k, multiple_k)};
}

std::vector<uint8_t> expand_a(const spmma_problem& p, const void* values, size_t values_bytes, const uint8_t* indices,
                              size_t indices_bytes, int64_t rows, int64_t cols) {
    const int eb = element_bytes(p.a_type);
    const int group = spmma_pattern_group(p.pattern);
    if (group == 0) bad("A has no sparsity pattern");
    if (p.m <= 0 || p.k <= 0 || p.k % group != 0) bad("A's k must be a positive multiple of the pattern's group");
    if (rows < p.m || cols < p.k) bad("the padded A is smaller than A");
    const int64_t groups = p.k / group;
    const int64_t kept_per_row = p.k / 2;
    if (values_bytes != static_cast<size_t>(p.m * kept_per_row * eb))
        bad("A's values have " + std::to_string(values_bytes) + " bytes, expected " + std::to_string(p.m * kept_per_row * eb));
    if (indices_bytes != static_cast<size_t>(p.m * groups))
        bad("A's index bytes number " + std::to_string(indices_bytes) + ", expected " + std::to_string(p.m * groups));
    if (!values || !indices) bad("null A buffer");

    std::vector<uint8_t> dense(static_cast<size_t>(rows * cols * eb), 0);
    const ExpandArgs args{p, static_cast<const uint8_t*>(values), indices, dense.data(), cols, group, groups, kept_per_row};
    switch (eb) {
        case 1: expand_rows<1>(args); break;
        case 2: expand_rows<2>(args); break;
        default: expand_rows<4>(args); break;
    }
    return dense;
}

bool check_b_and_c(const spmma_problem& p, const spmma_operands& ops) {
    const size_t b_expected = static_cast<size_t>(p.k * p.n * element_bytes(p.b_type));
    if (!ops.b || ops.b_bytes != b_expected)
        bad("B has " + std::to_string(ops.b_bytes) + " bytes, expected " + std::to_string(b_expected));
    const bool read_c = p.beta != 0.0;
    const size_t c_expected = static_cast<size_t>(p.m * p.n * element_bytes(p.d_type));
    if (read_c && (!ops.c || ops.c_bytes != c_expected))
        bad("C has " + std::to_string(ops.c_bytes) + " bytes, expected " + std::to_string(c_expected) + " (beta is not 0)");
    return read_c;
}

std::vector<uint8_t> pad_matrix(const void* src, int elem_bytes, int64_t rows, int64_t cols, int64_t padded_rows,
                                int64_t padded_cols) {
    if (padded_rows < rows || padded_cols < cols) bad("padding smaller than the matrix");
    std::vector<uint8_t> out(static_cast<size_t>(padded_rows * padded_cols * elem_bytes), 0);
    const auto* s = static_cast<const uint8_t*>(src);
    const size_t row_bytes = static_cast<size_t>(cols * elem_bytes);
    for (int64_t r = 0; r < rows; ++r) std::memcpy(out.data() + r * padded_cols * elem_bytes, s + r * cols * elem_bytes, row_bytes);
    return out;
}

void crop_matrix(const void* src, int elem_bytes, int64_t padded_rows, int64_t padded_cols, void* dst, int64_t rows,
                 int64_t cols) {
    if (padded_rows < rows || padded_cols < cols) bad("padding smaller than the matrix");
    const auto* s = static_cast<const uint8_t*>(src);
    auto* d = static_cast<uint8_t*>(dst);
    const size_t row_bytes = static_cast<size_t>(cols * elem_bytes);
    for (int64_t r = 0; r < rows; ++r) std::memcpy(d + r * cols * elem_bytes, s + r * padded_cols * elem_bytes, row_bytes);
}

}  // namespace spmma_baseline

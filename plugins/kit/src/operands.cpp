#include <spmma_plugin/operands.hpp>

#include <spmma_plugin/boundary.hpp>

#include <string>

namespace spmma_plugin {
namespace {

void expect(const char* what, const void* ptr, size_t got, size_t want, const char* why_needed = "") {
    if (!ptr) fail(SPMMA_INVALID_ARGUMENT, std::string(what) + " is null" + why_needed);
    if (got != want)
        fail(SPMMA_INVALID_ARGUMENT, std::string(what) + " has " + std::to_string(got) + " bytes, expected " + std::to_string(want));
}

}  // namespace

size_t storage_bytes(spmma_dtype t, int64_t count) {
    return static_cast<size_t>(count) * static_cast<size_t>(spmma_dtype_storage_bits(t)) / 8;
}

CanonicalSizes canonical_sizes(const spmma_problem& p) {
    CanonicalSizes s;
    const int g = spmma_pattern_group(p.pattern);
    s.a_values = storage_bytes(p.a_type, p.m * (p.k / 2));
    s.a_indices = g > 0 ? static_cast<size_t>(p.m * (p.k / g)) : 0;
    s.b = storage_bytes(p.b_type, p.k * p.n);
    s.c = reads_c(p) ? storage_bytes(p.c_type, p.m * p.n) : 0;
    s.d = storage_bytes(p.d_type, p.m * p.n);
    if (p.scale_type != SPMMA_DTYPE_NONE && p.scale_block > 0) {
        s.scale_a = static_cast<size_t>(p.m * (p.k / p.scale_block));
        s.scale_b = static_cast<size_t>(p.n * (p.k / p.scale_block));
    }
    if (p.row_scale) s.row_scale = storage_bytes(SPMMA_F32, p.m);
    if (p.col_scale) s.col_scale = storage_bytes(SPMMA_F32, p.n);
    if (p.bias != SPMMA_BIAS_NONE) s.bias = storage_bytes(p.bias_type, p.bias == SPMMA_BIAS_ROW ? p.m : p.n);
    return s;
}

void check_operands(const spmma_problem& p, const spmma_operands& ops) {
    const CanonicalSizes s = canonical_sizes(p);
    expect("A values", ops.a_values, ops.a_values_bytes, s.a_values);
    expect("A indices", ops.a_indices, ops.a_indices_bytes, s.a_indices);
    expect("B", ops.b, ops.b_bytes, s.b);
    if (reads_c(p)) expect("C", ops.c, ops.c_bytes, s.c, " (beta is not 0)");
    if (p.scale_type != SPMMA_DTYPE_NONE) {
        if (p.scale_block <= 0) fail(SPMMA_INVALID_ARGUMENT, "block scales without a scale block");
        expect("scale_A", ops.scale_a, ops.scale_a_bytes, s.scale_a);
        expect("scale_B", ops.scale_b, ops.scale_b_bytes, s.scale_b);
    }
    if (p.row_scale) expect("row_scale", ops.row_scale, ops.row_scale_bytes, s.row_scale, " (the problem has a row scale)");
    if (p.col_scale) expect("col_scale", ops.col_scale, ops.col_scale_bytes, s.col_scale, " (the problem has a column scale)");
    if (p.bias != SPMMA_BIAS_NONE) expect("bias", ops.bias, ops.bias_bytes, s.bias, " (the problem has a bias)");
}

void check_d_bytes(const spmma_problem& p, size_t bytes) {
    const size_t want = canonical_sizes(p).d;
    if (bytes != want) fail(SPMMA_INVALID_ARGUMENT, "D has " + std::to_string(bytes) + " bytes, expected " + std::to_string(want));
}

}  // namespace spmma_plugin

#include <spmma/core/sparsity.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace spmma {
namespace {

bool is_zero(DType t, uint32_t code) { return decode(t, code) == 0.0; }

// Units a group is made of: elements (2:4, 1:2) or pairs (4:8).
struct Shape {
    int group;      // elements per group
    int unit;       // elements per unit
    int units;      // units per group
    int keep;       // units kept
};

Shape shape_of(Pattern p) {
    switch (p) {
        case Pattern::P2_4: return {4, 1, 4, 2};
        case Pattern::P1_2: return {2, 1, 2, 1};
        case Pattern::P4_8: return {8, 2, 4, 2};
        default: throw std::invalid_argument("no sparsity pattern");
    }
}

// Non-zero flags of the units of one group starting at element `base`.
int unit_flags(DType t, const Shape& s, const void* dense, int64_t base, bool nz[4]) {
    int count = 0;
    for (int u = 0; u < s.units; ++u) {
        nz[u] = false;
        for (int e = 0; e < s.unit; ++e) nz[u] = nz[u] || !is_zero(t, load_code(t, dense, base + u * s.unit + e));
        count += nz[u];
    }
    return count;
}

PatternViolation violation(Pattern p, const Shape& s, int64_t row, int64_t group, int count) {
    const int64_t c0 = group * s.group;
    return {row, group, count,
            fmt::format("A breaks the {} pattern at row {}, group {} (columns {}..{}): {} non-zero {}, the pattern allows {}",
                        name(p), row, group, c0, c0 + s.group - 1, count, s.unit == 2 ? "pairs" : "elements", s.keep)};
}

}  // namespace

bool decode_index(Pattern p, uint8_t index, int cols[4], int& count) {
    switch (p) {
        case Pattern::P1_2:
            if (index > 1) return false;
            cols[0] = index;
            count = 1;
            return true;
        case Pattern::P2_4:
        case Pattern::P4_8: {
            if (index > 0xf) return false;
            const int i0 = index & 3, i1 = (index >> 2) & 3;
            if (i0 >= i1) return false;
            if (p == Pattern::P2_4) {
                cols[0] = i0;
                cols[1] = i1;
                count = 2;
            } else {
                cols[0] = 2 * i0;
                cols[1] = 2 * i0 + 1;
                cols[2] = 2 * i1;
                cols[3] = 2 * i1 + 1;
                count = 4;
            }
            return true;
        }
        default: return false;
    }
}

std::optional<PatternViolation> find_violation(DType t, Pattern p, const void* dense, int64_t m, int64_t k) {
    const Shape s = shape_of(p);
    const int64_t groups = k / s.group;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            bool nz[4];
            const int c = unit_flags(t, s, dense, i * k + g * s.group, nz);
            if (c > s.keep) return violation(p, s, i, g, c);
        }
    return std::nullopt;
}

PatternCensus pattern_census(DType t, Pattern p, const void* dense, int64_t m, int64_t k) {
    const Shape s = shape_of(p);
    const int64_t groups = k / s.group;
    int64_t conforming = 0;
#pragma omp parallel for schedule(static) reduction(+ : conforming)
    for (int64_t i = 0; i < m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            bool nz[4];
            conforming += unit_flags(t, s, dense, i * k + g * s.group, nz) <= s.keep;
        }
    return {m * groups, conforming};
}

void prune_by_magnitude(DType t, Pattern p, void* dense, int64_t m, int64_t k) {
    const Shape s = shape_of(p);
    const int64_t groups = k / s.group;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            const int64_t base = i * k + g * s.group;
            double mag[4];
            for (int u = 0; u < s.units; ++u) {
                mag[u] = 0;
                for (int e = 0; e < s.unit; ++e) {
                    const double v = std::fabs(decode(t, load_code(t, dense, base + u * s.unit + e)));
                    mag[u] += std::isnan(v) ? INFINITY : v;
                }
            }
            int order[4] = {0, 1, 2, 3};
            std::stable_sort(order, order + s.units, [&](int x, int y) { return mag[x] > mag[y]; });
            for (int r = s.keep; r < s.units; ++r)
                for (int e = 0; e < s.unit; ++e) store_code(t, dense, base + order[r] * s.unit + e, 0);
        }
}

CompressedA compress(DType t, Pattern p, const void* dense, int64_t m, int64_t k) {
    if (auto v = find_violation(t, p, dense, m, k)) throw PatternError(*v);
    const Shape s = shape_of(p);
    const int64_t groups = k / s.group;
    const int64_t kept_per_row = k / 2;
    CompressedA out;
    out.values.assign(storage_bytes(t, m * kept_per_row), 0);
    out.indices.assign(static_cast<size_t>(m * groups), 0);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            const int64_t base = i * k + g * s.group;
            bool nz[4];
            unit_flags(t, s, dense, base, nz);
            int pick[2];
            int n = 0;
            for (int u = 0; u < s.units && n < s.keep; ++u)
                if (nz[u]) pick[n++] = u;
            // Fill with the lowest zero units, then restore increasing order.
            for (int u = 0; u < s.units && n < s.keep; ++u)
                if (!nz[u] && std::find(pick, pick + n, u) == pick + n) pick[n++] = u;
            if (s.keep == 2 && pick[0] > pick[1]) std::swap(pick[0], pick[1]);
            out.indices[static_cast<size_t>(i * groups + g)] =
                static_cast<uint8_t>(s.keep == 1 ? pick[0] : (pick[0] | (pick[1] << 2)));
            int64_t dst = i * kept_per_row + g * (s.group / 2);
            for (int r = 0; r < s.keep; ++r)
                for (int e = 0; e < s.unit; ++e)
                    store_code(t, out.values.data(), dst++, load_code(t, dense, base + pick[r] * s.unit + e));
        }
    return out;
}

std::vector<uint8_t> decompress(DType t, Pattern p, const CompressedA& a, int64_t m, int64_t k) {
    const Shape s = shape_of(p);
    const int64_t groups = k / s.group;
    if (a.indices.size() != static_cast<size_t>(m * groups) || a.values.size() != storage_bytes(t, m * k / 2))
        throw std::invalid_argument("compressed A has the wrong size for its problem");
    std::vector<uint8_t> dense(storage_bytes(t, m * k), 0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            int cols[4], count = 0;
            const uint8_t idx = a.indices[static_cast<size_t>(i * groups + g)];
            if (!decode_index(p, idx, cols, count))
                throw std::invalid_argument(fmt::format("invalid index byte 0x{:02x} at row {}, group {}", idx, i, g));
            int64_t src = i * (k / 2) + g * (s.group / 2);
            for (int c = 0; c < count; ++c) store_code(t, dense.data(), i * k + g * s.group + cols[c], load_code(t, a.values.data(), src++));
        }
    return dense;
}

}  // namespace spmma

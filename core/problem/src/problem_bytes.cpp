#include <spmma/core/problem_bytes.hpp>

#include <fmt/format.h>

namespace spmma {
namespace {

// NOTES: every count is taken in bits (storage_bits x elements) so that the byte counts derived
// from it later (storage_bytes, OperandSizes::of) cannot overflow either.
struct Checked {
    bool overflow = false;
    int64_t mul(int64_t a, int64_t b) {
        int64_t r = 0;
        overflow |= a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r);
        return r;
    }
    int64_t add(int64_t a, int64_t b) {
        int64_t r = 0;
        overflow |= __builtin_add_overflow(a, b, &r);
        return r;
    }
    int64_t bytes(DType t, int64_t count) { return add(mul(info(t).storage_bits, count), 7) / 8; }
};

}  // namespace

std::optional<ProblemBytes> problem_bytes(const Problem& p, int64_t checked) {
    Checked c;
    ProblemBytes b;
    const int group = group_size(p.pattern) > 0 ? group_size(p.pattern) : 1;
    int64_t ops = c.bytes(p.a, c.mul(p.m, p.k / 2));
    ops = c.add(ops, c.mul(p.m, p.k / group));
    ops = c.add(ops, c.bytes(p.b, c.mul(p.k, p.n)));
    const int64_t mn = c.mul(p.m, p.n);
    if (p.beta != 0.0) ops = c.add(ops, c.bytes(p.c, mn));
    if (p.scale != DType::None && p.scale_block > 0) {
        ops = c.add(ops, c.mul(p.m, p.k / p.scale_block));
        ops = c.add(ops, c.mul(p.n, p.k / p.scale_block));
    }
    if (p.row_scale.present()) ops = c.add(ops, c.mul(p.m, 4));
    if (p.col_scale.present()) ops = c.add(ops, c.mul(p.n, 4));
    if (p.bias.present()) ops = c.add(ops, c.bytes(p.bias_type, p.bias_axis == BiasAxis::Row ? p.m : p.n));
    // NOTES: the operand arena aligns each of its nine buffers to 64 bytes.
    b.operands = c.add(ops, 9 * 64);
    b.d = c.bytes(p.d, mn);
    b.reference = c.mul(checked, 2 * static_cast<int64_t>(sizeof(double)));
    c.mul(c.add(b.operands, c.add(b.d, b.reference)), 8);  // the total, in bits too
    if (c.overflow) return std::nullopt;
    return b;
}

std::string format_bytes(double bytes) {
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) {
        bytes /= 1024;
        ++u;
    }
    return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[u]);
}

}  // namespace spmma

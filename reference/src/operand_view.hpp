// Internal: the ABI operands of one problem, validated, with fast element decoders. Everything
// the reference reads goes through here: compressed A (values, index bytes), B (column-major),
// C, the block scales.
#pragma once

#include <spmma/reference/verify.hpp>
#include <spmma/types.hpp>

#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace spmma::reference::detail {

// Exponent of the lowest set bit of |x| (x = odd * 2^result); INT_MAX for zero, NaN and inf
// (they constrain nothing). Bit arithmetic on the double: a few integer operations.
inline int lsb_exponent(double x) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    const int biased = static_cast<int>((u >> 52) & 0x7ff);
    uint64_t significand = u & ((1ull << 52) - 1);
    if (biased == 0x7ff || (biased == 0 && significand == 0)) return INT_MAX;
    if (biased != 0) significand |= 1ull << 52;
    return (biased == 0 ? -1074 : biased - 1075) + __builtin_ctzll(significand);
}

// 2^e, or +inf for INT_MAX (no constraint).
inline double quantum_of(int e) { return e == INT_MAX ? INFINITY : std::ldexp(1.0, e); }

// Decodes element x of a canonical buffer of one type to double, exactly.
class Decoder {
public:
    Decoder() = default;
    explicit Decoder(DType t);
    double operator()(const void* buf, int64_t x) const {
        const auto* p = static_cast<const uint8_t*>(buf);
        switch (kind_) {
            case Kind::Nibble: return table_[(p[x >> 1] >> ((x & 1) * 4)) & 0xf];
            case Kind::Byte: return table_[p[x]];
            case Kind::Half: { uint16_t u; std::memcpy(&u, p + 2 * x, 2); return table_[u]; }
            case Kind::F32: { float f; std::memcpy(&f, p + 4 * x, 4); return f; }
            case Kind::TF32: { uint32_t u; std::memcpy(&u, p + 4 * x, 4); u &= ~0x1fffu; float f; std::memcpy(&f, &u, 4); return f; }
            case Kind::S32: { int32_t i; std::memcpy(&i, p + 4 * x, 4); return i; }
        }
        return 0;
    }
    DType type() const { return type_; }

private:
    enum class Kind { Nibble, Byte, Half, F32, TF32, S32 };
    DType type_ = DType::None;
    Kind kind_ = Kind::Byte;
    const float* table_ = nullptr;
};

class OperandView {
public:
    // Validates sizes, types and every index byte; throws std::invalid_argument naming the problem.
    explicit OperandView(const GemmInput& in);

    int64_t m, n, k;
    DType a_type, b_type, c_type, d_type, acc_type, scale_type;
    bool integer;          // s32 accumulation
    bool saturate;
    int group;             // elements per index byte (4, 2, 8)
    int kept;              // kept elements per group (group / 2)
    int64_t groups;        // index bytes per row
    int64_t entries;       // kept elements per row: k / 2
    int scale_block;       // 0 when unscaled
    int64_t scale_blocks;  // k / scale_block
    double alpha, beta;
    bool has_c;            // beta != 0 (C is read)
    // The epilogue (ABI 1.2): per-row and per-column f32 scales, a bias, an activation.
    bool row_scaled, col_scaled;
    int32_t bias_axis;     // SPMMA_BIAS_*
    int32_t activation;    // SPMMA_ACTIVATION_*
    bool has_epilogue;

    // rs[i] * cs[j] (1 when absent), exact in double.
    double vector_scale(int64_t i, int64_t j) const {
        double s = 1.0;
        if (row_scaled) { float f; std::memcpy(&f, row_scale_ + 4 * i, 4); s *= f; }
        if (col_scaled) { float f; std::memcpy(&f, col_scale_ + 4 * j, 4); s *= f; }
        return s;
    }
    // The bias of element (i, j) (0 when absent).
    double bias(int64_t i, int64_t j) const {
        if (bias_axis == SPMMA_BIAS_NONE) return 0.0;
        return dec_bias_(bias_, bias_axis == SPMMA_BIAS_ROW ? i : j);
    }

    // Column (0..k-1) of kept entry e (0..k/2-1) of row i.
    int64_t column(int64_t i, int64_t e) const {
        const uint8_t idx = a_indices_[i * groups + e / kept];
        return (e / kept) * group + positions_[idx][e % kept];
    }
    // Kept entry e of row i, times its row's block scale.
    double a_value(int64_t i, int64_t e, int64_t col) const {
        const double v = dec_a_(a_values_, i * entries + e);
        return scale_block ? v * dec_s_(scale_a_, i * scale_blocks + col / scale_block) : v;
    }
    // Decodes row i's entries [e0, e1): values (scale applied) and columns.
    void a_row(int64_t i, int64_t e0, int64_t e1, double* values, int32_t* columns) const;
    // B element (kk, j) times its column's block scale.
    double b_value(int64_t kk, int64_t j) const {
        const double v = dec_b_(b_, j * k + kk);
        return scale_block ? v * dec_s_(scale_b_, j * scale_blocks + kk / scale_block) : v;
    }
    // C element (i, j) as stored (0 when C is not read).
    double c_value(int64_t i, int64_t j) const { return has_c ? dec_c_(c_, i * n + j) : 0.0; }

private:
    const void* a_values_;
    const uint8_t* a_indices_;
    const void* b_;
    const void* c_;
    const uint8_t* scale_a_;
    const uint8_t* scale_b_;
    const uint8_t* row_scale_ = nullptr;
    const uint8_t* col_scale_ = nullptr;
    const void* bias_ = nullptr;
    Decoder dec_a_, dec_b_, dec_c_, dec_s_, dec_bias_;
    std::array<std::array<uint8_t, 4>, 256> positions_{};  // kept positions within the group per index byte
};

// Raw accumulation of every element (full mode): acc = sum a*b, abs = sum |a*b| (scales
// applied, no alpha/beta), row_lsb[i] / col_lsb[j] = lsb_exponent minimum over the kept values
// of row i of A / column j of B (scaled). abs, row_lsb and col_lsb may be null.
void accumulate_full(const OperandView& v, double* acc, double* abs, int* row_lsb, int* col_lsb);

// One element from scratch: row i's kept entries (decoded into `values`/`columns`, k/2 each,
// with `row_lsb` their lsb_exponent minimum) against column j of B.
struct RawElement {
    double acc = 0, abs = 0;
    int lsb = INT_MAX;  // lsb_exponent minimum over the products' factors (row's + column's)
};
RawElement raw_element(const OperandView& v, const double* values, const int32_t* columns, int row_lsb, int64_t j);

// The activation of plugin.h, exactly (in double).
double activate(int32_t activation, double x);

// The final value of element (i, j) from its raw sum: act(alpha*rs[i]*cs[j]*acc + beta*C +
// bias) (floats; plain problems alpha*acc + beta*C) or the s32 result (integers: 64-bit, then
// wrapped or clamped). With `pre`, the floating value before the activation.
double finish(const OperandView& v, int64_t i, int64_t j, double acc, double c, double* pre = nullptr);

}  // namespace spmma::reference::detail

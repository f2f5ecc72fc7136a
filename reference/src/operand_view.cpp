// Validation of the ABI operands and the element decoders.
#include "operand_view.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace spmma::reference::detail {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("reference: " + what); }

bool operand_type(DType t) {
    switch (t) {
        case DType::F16: case DType::BF16: case DType::TF32: case DType::E4M3: case DType::E5M2: case DType::E3M2:
        case DType::E2M3: case DType::E2M1: case DType::S8: case DType::U8: case DType::S4: case DType::U4: return true;
        default: return false;
    }
}

DType checked_type(spmma_dtype raw, const char* what) {
    if (raw < SPMMA_F32 || raw > SPMMA_S32) fail(std::string("unknown ") + what + " type code " + std::to_string(raw));
    return static_cast<DType>(raw);
}

void expect_bytes(const char* what, size_t got, size_t want) {
    if (got != want) fail(std::string(what) + " has " + std::to_string(got) + " bytes, the problem needs " + std::to_string(want));
}

}  // namespace

Decoder::Decoder(DType t) : type_(t) {
    switch (t) {
        case DType::F32: kind_ = Kind::F32; return;
        case DType::TF32: kind_ = Kind::TF32; return;
        case DType::S32: kind_ = Kind::S32; return;
        default: break;
    }
    table_ = decode_table(t).data();
    switch (info(t).storage_bits) {
        case 4: kind_ = Kind::Nibble; break;
        case 8: kind_ = Kind::Byte; break;
        case 16: kind_ = Kind::Half; break;
        default: fail(std::string("no decoder for ") + name(t));
    }
}

OperandView::OperandView(const GemmInput& in) {
    const spmma_problem& p = in.problem;
    const spmma_operands& o = in.operands;
    m = p.m;
    n = p.n;
    k = p.k;
    if (m <= 0 || n <= 0 || k <= 0) fail("m, n and k must be positive");
    a_type = checked_type(p.a_type, "A");
    b_type = checked_type(p.b_type, "B");
    d_type = checked_type(p.d_type, "D");
    acc_type = checked_type(p.acc_type, "accumulator");
    c_type = p.c_type == SPMMA_DTYPE_NONE ? d_type : checked_type(p.c_type, "C");
    if (!operand_type(a_type) || !operand_type(b_type)) fail(std::string("cannot multiply ") + name(a_type) + " by " + name(b_type));
    integer = is_integer(a_type);
    if (integer != is_integer(b_type)) fail("A and B must both be integer or both floating");
    if (integer && (acc_type != DType::S32 || d_type != DType::S32)) fail("integer problems accumulate and write s32");
    if (!integer && acc_type != DType::F32 && acc_type != DType::F16) fail("floating problems accumulate in f32 or f16");
    if (!integer && d_type != DType::F32 && d_type != DType::F16 && d_type != DType::BF16) fail("floating D must be f32, f16 or bf16");
    saturate = p.saturate != 0;
    alpha = p.alpha;
    beta = p.beta;
    if (integer) {
        const double lim = 0x1p62;
        if (alpha != std::floor(alpha) || beta != std::floor(beta) || std::fabs(alpha) > lim || std::fabs(beta) > lim)
            fail("integer problems need integral alpha and beta (below 2^62)");
    }
    has_c = beta != 0;
    row_scaled = p.row_scale != 0;
    col_scaled = p.col_scale != 0;
    bias_axis = p.bias;
    activation = p.activation;
    has_epilogue = spmma_problem_has_epilogue(&p) != 0;
    if (has_epilogue && integer) fail("integer problems take no epilogue (scales, bias, activation)");
    if (activation < SPMMA_ACTIVATION_NONE || activation > SPMMA_ACTIVATION_SILU) fail("unknown activation " + std::to_string(activation));
    if (bias_axis < SPMMA_BIAS_NONE || bias_axis > SPMMA_BIAS_COL) fail("unknown bias axis " + std::to_string(bias_axis));
    DType bias_type = DType::None;
    if (bias_axis != SPMMA_BIAS_NONE) {
        bias_type = checked_type(p.bias_type, "bias");
        if (bias_type != DType::F32 && bias_type != d_type) fail("the bias is f32 or D's type");
    }

    group = spmma_pattern_group(p.pattern);
    if (group == 0) fail("no sparsity pattern");
    kept = group / 2;
    if (k % group) fail("k = " + std::to_string(k) + " is not a multiple of the pattern's group " + std::to_string(group));
    groups = k / group;
    entries = k / 2;

    scale_type = p.scale_type == SPMMA_DTYPE_NONE ? DType::None : checked_type(p.scale_type, "scale");
    scale_block = 0;
    scale_blocks = 0;
    if (scale_type != DType::None) {
        if (scale_type != DType::UE8M0 && scale_type != DType::UE4M3) fail("block scales are ue8m0 or ue4m3");
        if (p.scale_block <= 0 || k % p.scale_block) fail("k must be a multiple of the scale block");
        scale_block = p.scale_block;
        scale_blocks = k / scale_block;
    }

    expect_bytes("A values", o.a_values_bytes, storage_bytes(a_type, m * entries));
    expect_bytes("A indices", o.a_indices_bytes, static_cast<size_t>(m * groups));
    expect_bytes("B", o.b_bytes, storage_bytes(b_type, k * n));
    if (!o.a_values || !o.a_indices || !o.b) fail("A or B is missing");
    if (has_c) {
        expect_bytes("C", o.c_bytes, storage_bytes(c_type, m * n));
        if (!o.c) fail("beta is not 0 but C is missing");
    }
    if (scale_block) {
        expect_bytes("scale_A", o.scale_a_bytes, static_cast<size_t>(m * scale_blocks));
        expect_bytes("scale_B", o.scale_b_bytes, static_cast<size_t>(n * scale_blocks));
        if (!o.scale_a || !o.scale_b) fail("block scales are missing");
    }
    if (row_scaled) {
        expect_bytes("row_scale", o.row_scale_bytes, static_cast<size_t>(m) * 4);
        if (!o.row_scale) fail("the row scale is missing");
    }
    if (col_scaled) {
        expect_bytes("col_scale", o.col_scale_bytes, static_cast<size_t>(n) * 4);
        if (!o.col_scale) fail("the column scale is missing");
    }
    if (bias_axis != SPMMA_BIAS_NONE) {
        expect_bytes("bias", o.bias_bytes, storage_bytes(bias_type, bias_axis == SPMMA_BIAS_ROW ? m : n));
        if (!o.bias) fail("the bias is missing");
        bias_ = o.bias;
        dec_bias_ = Decoder(bias_type);
    }
    row_scale_ = reinterpret_cast<const uint8_t*>(o.row_scale);
    col_scale_ = reinterpret_cast<const uint8_t*>(o.col_scale);
    a_values_ = o.a_values;
    a_indices_ = o.a_indices;
    b_ = o.b;
    c_ = o.c;
    scale_a_ = o.scale_a;
    scale_b_ = o.scale_b;
    dec_a_ = Decoder(a_type);
    dec_b_ = Decoder(b_type);
    if (has_c) dec_c_ = Decoder(c_type);
    if (scale_block) dec_s_ = Decoder(scale_type);

    // Index bytes: which positions of a group each byte keeps (plugin.h), and which are valid.
    std::array<bool, 256> valid{};
    for (int b = 0; b < 256; ++b) {
        const int lo = b & 3, hi = (b >> 2) & 3;
        if (group == 2) {
            valid[b] = b <= 1;
            positions_[b][0] = static_cast<uint8_t>(b & 1);
        } else if (group == 4) {
            valid[b] = b < 16 && lo < hi;
            positions_[b] = {static_cast<uint8_t>(lo), static_cast<uint8_t>(hi), 0, 0};
        } else {
            valid[b] = b < 16 && lo < hi;
            positions_[b] = {static_cast<uint8_t>(2 * lo), static_cast<uint8_t>(2 * lo + 1), static_cast<uint8_t>(2 * hi),
                             static_cast<uint8_t>(2 * hi + 1)};
        }
    }
    const int64_t total = m * groups;
    int64_t bad = -1;
    for (int64_t x = 0; x < total; ++x)
        if (!valid[a_indices_[x]]) {
            bad = x;
            break;
        }
    if (bad >= 0) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", a_indices_[bad]);
        fail(std::string("invalid ") + spmma_pattern_name(p.pattern) + " index byte " + hex + " at row " + std::to_string(bad / groups) +
             ", group " + std::to_string(bad % groups));
    }
}

void OperandView::a_row(int64_t i, int64_t e0, int64_t e1, double* values, int32_t* columns) const {
    for (int64_t e = e0; e < e1; ++e) {
        const int64_t col = column(i, e);
        values[e - e0] = a_value(i, e, col);
        columns[e - e0] = static_cast<int32_t>(col);
    }
}

double activate(int32_t activation, double x) {
    switch (activation) {
        case SPMMA_ACTIVATION_RELU: return x > 0 ? x : 0.0;
        case SPMMA_ACTIVATION_GELU_TANH: {
            const double sqrt_2_over_pi = 0.79788456080286535588;
            return 0.5 * x * (1.0 + std::tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x)));
        }
        case SPMMA_ACTIVATION_SILU: return x / (1.0 + std::exp(-x));
        default: return x;
    }
}

double finish(const OperandView& v, int64_t i, int64_t j, double acc, double c, double* pre) {
    if (!v.integer) {
        const double x = v.alpha * v.vector_scale(i, j) * acc + (v.has_c ? v.beta * c : 0.0) + v.bias(i, j);
        if (pre) *pre = x;
        return activate(v.activation, x);
    }
    // Integer sums are exact in double (|sum| < 2^53 for any k below 2^37); the epilogue is
    // done in 128 bits so alpha and beta up to 2^62 cannot overflow it.
    const auto a = static_cast<__int128>(static_cast<int64_t>(v.alpha)) * static_cast<int64_t>(acc);
    const auto b = v.has_c ? static_cast<__int128>(static_cast<int64_t>(v.beta)) * static_cast<int64_t>(c) : 0;
    const __int128 r = a + b;
    if (v.saturate) {
        if (r > std::numeric_limits<int32_t>::max()) return std::numeric_limits<int32_t>::max();
        if (r < std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::min();
        return static_cast<double>(static_cast<int64_t>(r));
    }
    return static_cast<int32_t>(static_cast<uint32_t>(static_cast<unsigned __int128>(r) & 0xffffffffu));
}

}  // namespace spmma::reference::detail

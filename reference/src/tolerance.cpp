// THE tolerance table (documented in reference/README.md; the top-level README copies it).
//
// NOTES: how the floating bound is built. For one element let n = k/2 (the products a tensor
// core really multiplies), S = sum |a*b| (scales applied), S' = |alpha|*S + |beta*C|, and V the
// exact |alpha*A*B + beta*C|. The hardware may add in any order, truncate instead of rounding,
// and keep fewer bits than an IEEE f32 (fp8 on Hopper keeps about 14); one addition into an
// accumulator with relative precision eps moves the result by at most eps*|partial sum|.
//   * Worst case over any order: eps * n * S'. Rigorous, but for k = 4096 it is larger than a
//     single product (S/n), so a wrong product would pass.
//   * Statistical: for the zero-mean data spmma draws, partial sums grow like sqrt(j), so
//     truncation errors add up to about eps*sqrt(n)*S (round-to-nearest: less). A systematic
//     drift (data of one sign) adds up to eps*n*V/2, V being where the partial sums end.
//   We take  e_acc = eps * min(n*S', c*sqrt(n)*S' + n*V/2)  with c = kStatisticalFactor = 4,
//   checked against simulated accumulators (sequential RNE and truncating f32, chunked,
//   14-bit truncating, f16) in tests/reference/test_tolerance.cpp.
//   The epilogue (alpha*acc + beta*C, in f32 or the accumulator type) adds
//   e_epi = eps_epi * (|alpha*acc| + |beta*C|), and the conversion to d_type half an ulp of
//   d_type at V + e_acc + e_epi.
//   The epilogue of ABI 1.2 (alpha*rs*cs*acc + beta*C + bias, then an activation, in f32): with
//   u = eps_epi/2 (half an ulp, round to nearest), r the roundings of the product
//   alpha*rs*cs*acc (1 + one per scale vector) and a the additions (1, 2 with a bias),
//     e_epi = u * (r*|s*acc| + |beta*C| + a*(|s*acc| + |beta*C| + |bias|)),  s = alpha*rs*cs,
//   which for r = a = 1 and no bias is the plain bound above. The accumulator's error reaches the
//   value times |s| (S' = |s|*S + |beta*C|). The activation then stretches the error e before it
//   by at most its largest slope L (relu 1, silu 1.0998, gelu-tanh 1.1289: taken as 1.1 and
//   1.13) and adds its own f32 evaluation error: tanhf and expf within 2 ulp and the few
//   multiplications and additions around them (the cancellation in 1 + tanh for gelu makes it
//   an error relative to |x|, not to the result): eps_act*|x| with eps_act = 2^-20 (16 half-ulps
//   of f32), 0 for relu. An approximate tanh (tanh.approx.f32, about 2^-11) does not fit this.
//   The exact regime below is for plain problems only.
//   Exact regime: when every product is a multiple of a power of two q and S/q < 2^exact_bits,
//   every partial sum in any order is exact in the accumulator; if alpha*acc, beta*C and V
//   are representable in the accumulator type too, the only error left is the output rounding,
//   and the bound is half an ulp of d_type at V. The "int" distribution lands here, so any
//   indexing bug is caught exactly.
#include <spmma/reference/tolerance.hpp>

#include <spmma/types.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace spmma::reference {
namespace {

constexpr std::array<ToleranceRule, 4> kTable{{
    {"integer inputs, s32 accumulation", true, 0, 0, 0,
     "integer arithmetic is exact: D must equal the wrapped (or, with saturate, clamped) 64-bit result"},
    {"f16/bf16/tf32 inputs, f32 accumulation", false, 0x1p-23, 24, 0x1p-23,
     "PTX: products exact, accumulation at least single precision, order and rounding unspecified; "
     "one f32 ulp per addition allows truncation"},
    {"e4m3/e5m2/e3m2/e2m3/e2m1 inputs (block-scaled or not), f32 accumulation", false, 0x1p-13, 14, 0x1p-23,
     "Hopper's fp8 tensor-core accumulation keeps about 14 significand bits (DeepSeek-V3 report, 3.3.2); "
     "assumed for every 8/6/4-bit float kind"},
    {"f16/e4m3/e5m2/e3m2/e2m3/e2m1 inputs, f16 accumulation", false, 0x1p-10, 11, 0x1p-10,
     "PTX: with f16 C and D the accumulation is at least half precision; one f16 ulp per addition"},
}};

bool is_int(spmma_dtype t) {
    return t == SPMMA_S8 || t == SPMMA_U8 || t == SPMMA_S4 || t == SPMMA_U4 || t == SPMMA_S32;
}
bool is_wide_float(spmma_dtype t) { return t == SPMMA_F16 || t == SPMMA_BF16 || t == SPMMA_TF32; }

// Significant bits of x's significand (1 for powers of two); 0 for zero.
int significant_bits(double x) {
    if (x == 0) return 0;
    int e;
    const double f = std::frexp(std::fabs(x), &e);
    auto mant = static_cast<uint64_t>(std::ldexp(f, 53));
    return 53 - __builtin_ctzll(mant);
}

// The lowest set bit of x as a power of two (0 for zero).
double lowest_bit(double x) {
    if (x == 0) return 0;
    int e;
    std::frexp(std::fabs(x), &e);
    return std::ldexp(1.0, e - significant_bits(x));
}

// x is a value of a float format with `bits` significand bits, smallest quantum `tiny` and
// largest finite `max`.
bool representable(double x, int bits, double tiny, double max) {
    if (x == 0) return true;
    if (!std::isfinite(x) || std::fabs(x) > max) return false;
    return significant_bits(x) <= bits && lowest_bit(x) >= tiny;
}

std::string pow2(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "2^%d", static_cast<int>(std::lround(std::log2(x))));
    return buf;
}

}  // namespace

std::span<const ToleranceRule> tolerance_table() { return kTable; }

ActivationBound activation_bound(int32_t activation) {
    switch (activation) {
        case SPMMA_ACTIVATION_RELU: return {1.0, 0.0};
        case SPMMA_ACTIVATION_GELU_TANH: return {1.13, 0x1p-20};
        case SPMMA_ACTIVATION_SILU: return {1.1, 0x1p-20};
        default: return {1.0, 0.0};
    }
}

const ToleranceRule& tolerance_rule(const spmma_problem& p) {
    if (is_int(p.a_type)) return kTable[0];
    if (p.acc_type == SPMMA_F16) return kTable[3];
    if (is_wide_float(p.a_type)) return kTable[1];
    return kTable[2];
}

ToleranceModel::ToleranceModel(const spmma_problem& p)
    : rule_(&tolerance_rule(p)), d_(p.d_type), acc_(p.acc_type), alpha_(p.alpha), beta_(p.beta), n_(std::max<int64_t>(1, p.k / 2)),
      products_(1 + (p.row_scale ? 1 : 0) + (p.col_scale ? 1 : 0)), additions_(p.bias != SPMMA_BIAS_NONE ? 2 : 1),
      activation_(p.activation), epilogue_(spmma_problem_has_epilogue(&p) != 0) {
    if (!rule_->bit_exact && d_ != SPMMA_F32 && d_ != SPMMA_F16 && d_ != SPMMA_BF16)
        throw std::invalid_argument(std::string("no tolerance for floating D of type ") + spmma_dtype_name(d_));
}

bool ToleranceModel::exact(const ElementTerms& t) const {
    if (rule_->bit_exact) return true;
    if (epilogue_) return false;
    if (!(t.quantum > 0) || !std::isfinite(t.abs_sum)) return false;
    const bool f16 = acc_ == SPMMA_F16;
    const double tiny = f16 ? 0x1p-24 : 0x1p-149;
    const double max = f16 ? 65504.0 : 3.4028234663852886e38;
    const int acc_bits = f16 ? 11 : 24;
    // Every partial sum is a multiple of quantum no larger than S: exact in any order.
    if (t.quantum < tiny || t.abs_sum >= std::ldexp(t.quantum, rule_->exact_bits) || t.abs_sum > max) return false;
    return representable(alpha_ * t.acc, acc_bits, tiny, max) && representable(t.beta_c, acc_bits, tiny, max) &&
           representable(t.value, acc_bits, tiny, max);
}

double ToleranceModel::operator()(const ElementTerms& t) const {
    if (rule_->bit_exact) return 0;
    const DType d = static_cast<DType>(d_);
    const double v = std::fabs(t.value);
    if (exact(t)) return 0.5 * ulp(d, v);
    const double n = static_cast<double>(n_);
    const double scale = alpha_ * t.scale;
    const double x = epilogue_ ? std::fabs(t.pre) : v;  // where the accumulator's sums end, scaled
    const double s = std::fabs(scale) * t.abs_sum + std::fabs(t.beta_c);
    const double e_acc = rule_->acc_epsilon * std::min(n * s, kStatisticalFactor * std::sqrt(n) * s + n * x / 2);
    const double prod = std::fabs(scale * t.acc), bc = std::fabs(t.beta_c);
    const double e_epi = rule_->epilogue_epsilon / 2 * (products_ * prod + bc + additions_ * (prod + bc + std::fabs(t.bias)));
    double e = e_acc + e_epi;
    if (activation_ != SPMMA_ACTIVATION_NONE) {
        const ActivationBound a = activation_bound(activation_);
        e = a.lipschitz * e + a.epsilon * x;
    }
    return e + 0.5 * ulp(d, v + e);
}

std::string ToleranceModel::description() const {
    const std::string d = spmma_dtype_name(d_);
    if (rule_->bit_exact) return std::string(rule_->name) + ": bit-exact";
    char c[16];
    std::snprintf(c, sizeof c, "%g", kStatisticalFactor);
    return std::string(rule_->name) + " -> " + d + ": |D-ref| <= " + pow2(rule_->acc_epsilon) + "*min(n*S, " + c +
           "*sqrt(n)*S + n*|ref|/2) + " + pow2(rule_->epilogue_epsilon) + "*(|alpha*acc|+|beta*C|) + ulp_" + d +
           "/2, n = k/2 = " + std::to_string(n_) + ", S = |alpha|*sum|a*b| + |beta*C|; ulp_" + d + "/2 alone where all partial sums fit " +
           std::to_string(rule_->exact_bits) + " bits" + epilogue_description();
}

std::string ToleranceModel::epilogue_description() const {
    if (!epilogue_) return {};
    std::string s = "; epilogue: alpha*rs*cs for alpha (" + std::to_string(products_) + " product roundings, " +
                    std::to_string(additions_) + " additions), no exact regime";
    if (activation_ != SPMMA_ACTIVATION_NONE) {
        const ActivationBound a = activation_bound(activation_);
        char buf[96];
        std::snprintf(buf, sizeof buf, ", then %s: error*%g + %g*|x|", spmma_activation_name(activation_), a.lipschitz, a.epsilon);
        s += buf;
    }
    return s;
}

}  // namespace spmma::reference

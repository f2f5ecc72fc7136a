// A GEMM problem as spmma describes it: sizes, types, pattern, scaling, epilogue, operand
// distribution and seed. Converts to the ABI's spmma_problem.
#pragma once

#include <spmma/types.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace spmma {

enum class Pattern : int32_t {
    None = SPMMA_PATTERN_NONE,
    P2_4 = SPMMA_PATTERN_2_4,
    P1_2 = SPMMA_PATTERN_1_2,
    P4_8 = SPMMA_PATTERN_4_8_PAIRWISE,
};
inline const char* name(Pattern p) { return spmma_pattern_name(static_cast<spmma_pattern>(p)); }
inline int group_size(Pattern p) { return spmma_pattern_group(static_cast<spmma_pattern>(p)); }
std::optional<Pattern> parse_pattern(std::string_view s);
// The pattern an operand type takes on A (tf32 1:2; 4-bit and packed e2m1 4:8; else 2:4).
Pattern default_pattern(DType a);

enum class Distribution { Int, Uniform, Normal };
const char* name(Distribution d);
std::optional<Distribution> parse_distribution(std::string_view s);

// How block scales are made: drawn at random in [scale_min, scale_max] (log-uniform), or from
// real-valued operands by the amax rule (OCP MX: 2^(floor(log2 amax) - emax of the element
// type) for ue8m0; NVFP4: amax / 6 rounded to ue4m3), the elements then quantized by their scale.
enum class ScaleGen { Random, Amax };
const char* name(ScaleGen g);
std::optional<ScaleGen> parse_scale_gen(std::string_view s);

// The epilogue's activation and bias axis (plugin.h, ABI 1.2).
enum class Activation : int32_t {
    None = SPMMA_ACTIVATION_NONE,
    Relu = SPMMA_ACTIVATION_RELU,
    GeluTanh = SPMMA_ACTIVATION_GELU_TANH,
    Silu = SPMMA_ACTIVATION_SILU,
};
inline const char* name(Activation a) { return spmma_activation_name(static_cast<int32_t>(a)); }
std::optional<Activation> parse_activation(std::string_view s);

enum class BiasAxis : int32_t { None = SPMMA_BIAS_NONE, Row = SPMMA_BIAS_ROW, Col = SPMMA_BIAS_COL };
inline const char* name(BiasAxis b) { return spmma_bias_name(static_cast<int32_t>(b)); }
std::optional<BiasAxis> parse_bias_axis(std::string_view s);

// One vector of the epilogue (a row or column scale, a bias): absent, drawn from the seed like
// every operand, or one given value in every element.
struct EpilogueVector {
    enum class Source { None, Drawn, Given } source = Source::None;
    double value = 0;  // Given: every element's value
    bool present() const { return source != Source::None; }
    bool operator==(const EpilogueVector&) const = default;
};
// "random", or the given value ("0.5"); "none" when absent.
std::string to_string(const EpilogueVector& v);
// "random" or a finite number; nullopt otherwise.
std::optional<EpilogueVector> parse_epilogue_vector(std::string_view s);

struct Problem {
    int64_t m = 0, n = 0, k = 0;
    DType a = DType::F16, b = DType::F16;
    DType acc = DType::F32;
    DType c = DType::F16, d = DType::F16; // C has D's type
    Pattern pattern = Pattern::P2_4;
    bool saturate = false;
    DType scale = DType::None;            // UE8M0 / UE4M3 when block-scaled
    int scale_block = 0;                  // k elements per scale
    ScaleGen scale_gen = ScaleGen::Random;
    double scale_min = 0.125, scale_max = 8.0; // range of random scales
    double alpha = 1.0, beta = 0.0;
    // The epilogue (floating problems): D = act(alpha*rs[i]*cs[j]*acc + beta*C + bias).
    EpilogueVector row_scale, col_scale;  // m and n f32 values
    EpilogueVector bias;                  // m (Row) or n (Col) values of bias_type
    BiasAxis bias_axis = BiasAxis::None;
    DType bias_type = DType::None;        // F32 or d; None without a bias
    Activation activation = Activation::None;
    bool has_epilogue() const { return row_scale.present() || col_scale.present() || bias.present() || activation != Activation::None; }
    Distribution dist = Distribution::Uniform;
    uint64_t seed = 42;

    spmma_problem to_abi() const;
    // "4096x4096x4096 f16*f16+f32->f16 2:4" (+ " sat", " ue8m0/32", the epilogue as
    // epilogue_label writes it)
    std::string label() const;
    double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

// Fills acc/d/c/pattern from a and b when they were not given: f16 -> f32 acc, f16 out;
// bf16 -> bf16 out; tf32 -> f32; 8/6/4-bit floats -> f32 acc, bf16 out; integers -> s32;
// block scales without a block size: 64 of k (ue8m0) or 32 (ue4m3).
void apply_default_types(Problem& p, bool acc_given, bool d_given, bool pattern_given);

// The epilogue of an ABI problem in words, "" when it has none: "rs cs bias:col/f32 gelu-tanh"
// (plugin.h's spmma_epilogue_label), the form labels, records and refusals use.
std::string epilogue_label(const spmma_problem& p);

// Why a problem is impossible: the key at fault (m, n, k (also when the problem's bytes overflow
// int64: its largest dimension), a_type, b_type, acc, out, pattern,
// satfinite, alpha, beta, scale_type, scale_block, scale_min, scale_max, row_scale, col_scale,
// bias, bias_type, activation) and the reason.
struct Invalid {
    std::string key;
    std::string message;
};
std::optional<Invalid> validate(const Problem& p);
// A value that must be a finite number (alpha, beta): NaN or an infinity makes D NaN or
// infinite everywhere, which no reference can vouch for. The key and the reason, or nullopt.
std::optional<Invalid> check_finite(const char* key, double value);

}  // namespace spmma

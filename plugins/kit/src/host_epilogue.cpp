#include <spmma_plugin/host_epilogue.hpp>

#include <spmma_plugin/boundary.hpp>

#include <cmath>
#include <cstring>

namespace spmma_plugin {
namespace {

// Element x of a vector of f32, f16 or bf16 (the bias types) as f32, exactly.
float load_float(spmma_dtype t, const void* buf, int64_t x) {
    const auto* p = static_cast<const uint8_t*>(buf);
    if (t == SPMMA_F32) {
        float f;
        std::memcpy(&f, p + 4 * x, 4);
        return f;
    }
    uint16_t h;
    std::memcpy(&h, p + 2 * x, 2);
    if (t == SPMMA_BF16) {
        const uint32_t u = static_cast<uint32_t>(h) << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    _Float16 f;
    std::memcpy(&f, &h, 2);
    return static_cast<float>(f);
}

std::vector<float> floats(spmma_dtype t, const void* buf, int64_t count) {
    std::vector<float> v(static_cast<size_t>(count));
    for (int64_t x = 0; x < count; ++x) v[static_cast<size_t>(x)] = load_float(t, buf, x);
    return v;
}

bool float_type(spmma_dtype t) { return t == SPMMA_F32 || t == SPMMA_F16 || t == SPMMA_BF16; }

}  // namespace

float activate_f32(int32_t activation, float x) {
    switch (activation) {
        case SPMMA_ACTIVATION_RELU: return x > 0.0f ? x : 0.0f;
        case SPMMA_ACTIVATION_GELU_TANH: {
            const float sqrt_2_over_pi = 0.7978845608f;
            return 0.5f * x * (1.0f + std::tanh(sqrt_2_over_pi * (x + 0.044715f * x * x * x)));
        }
        case SPMMA_ACTIVATION_SILU: return x / (1.0f + std::exp(-x));
        default: return x;
    }
}

std::string host_epilogue_reason(const spmma_problem& p) {
    if (!spmma_problem_has_epilogue(&p)) return {};
    if (p.acc_type == SPMMA_S32) return "integer problems take no epilogue (scales, bias, activation)";
    if (p.activation < SPMMA_ACTIVATION_NONE || p.activation > SPMMA_ACTIVATION_SILU)
        return "unknown activation " + std::to_string(p.activation);
    if (p.bias < SPMMA_BIAS_NONE || p.bias > SPMMA_BIAS_COL) return "unknown bias axis " + std::to_string(p.bias);
    if (p.bias != SPMMA_BIAS_NONE && (!float_type(p.bias_type) || (p.bias_type != SPMMA_F32 && p.bias_type != p.d_type)))
        return std::string("the bias is f32 or D's type, not ") + spmma_dtype_name(p.bias_type);
    return {};
}

HostEpilogue::HostEpilogue(const spmma_problem& p, const spmma_operands& o)
    : alpha_(static_cast<float>(p.alpha)), beta_(static_cast<float>(p.beta)), bias_axis_(p.bias), activation_(p.activation) {
    if (p.row_scale) rs_ = floats(SPMMA_F32, o.row_scale, p.m);
    if (p.col_scale) cs_ = floats(SPMMA_F32, o.col_scale, p.n);
    if (p.bias != SPMMA_BIAS_NONE) bias_ = floats(p.bias_type, o.bias, p.bias == SPMMA_BIAS_ROW ? p.m : p.n);
}

}  // namespace spmma_plugin

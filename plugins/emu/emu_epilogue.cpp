// The emulated kernels' epilogue and the checks every family shares.
#include "emu_epilogue.hpp"

#include <spmma/types.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace spmma_emu {

namespace {
bool float_out(spmma_dtype t) { return t == SPMMA_F32 || t == SPMMA_F16 || t == SPMMA_BF16; }
}  // namespace

std::string epilogue_reason(const spmma_problem& p) {
    if (p.acc_type == SPMMA_S32) {
        if (spmma_problem_has_epilogue(&p)) return spmma_plugin::host_epilogue_reason(p);
        if (p.d_type != SPMMA_S32) return std::string("integer problems write s32 D, not ") + spmma_dtype_name(p.d_type);
        if (p.beta != 0 && p.c_type != SPMMA_S32) return std::string("integer problems read s32 C, not ") + spmma_dtype_name(p.c_type);
        if (p.alpha != std::floor(p.alpha) || p.beta != std::floor(p.beta)) return "integer problems take integer alpha and beta";
        return {};
    }
    if (!float_out(p.d_type)) return std::string("D must be f32, f16 or bf16, not ") + spmma_dtype_name(p.d_type);
    if (p.beta != 0 && !float_out(p.c_type)) return std::string("C must be f32, f16 or bf16, not ") + spmma_dtype_name(p.c_type);
    return spmma_plugin::host_epilogue_reason(p);
}

// NOTES: the models cost some tens of nanoseconds of CPU per sparse multiply-add (2^20 m16n8k32
// mma.sp of 2^11 each, 2^31 in all, are a minute or so on a few cores): the most an emulated run
// should take.
std::string size_reason(const spmma_problem& p, int64_t multiply_adds) {
    constexpr int64_t kMax = int64_t(1) << 31;
    if (multiply_adds > kMax)
        return "the emulator runs at most 2^31 sparse multiply-adds per problem; this one needs " +
               std::to_string(multiply_adds) + " (m " + std::to_string(p.m) + ", n " + std::to_string(p.n) + ", k " +
               std::to_string(p.k) + ", padded to the kernel's tiles): use a smaller problem";
    return {};
}

void epilogue(const spmma_problem& p, const std::vector<double>& acc, const std::vector<uint8_t>& c, const spmma_plugin::HostEpilogue& epi,
              void* d) {
    const int64_t count = p.m * p.n;
    const bool with_c = p.beta != 0 && !c.empty();
    if (p.acc_type == SPMMA_S32) {
        auto* out = static_cast<int32_t*>(d);
        const auto alpha = static_cast<int64_t>(p.alpha), beta = static_cast<int64_t>(p.beta);
        for (int64_t i = 0; i < count; ++i) {
            int64_t v = alpha * static_cast<int64_t>(acc[static_cast<size_t>(i)]);
            if (with_c) v += beta * static_cast<int32_t>(spmma::load_code(spmma::DType::S32, c.data(), i));
            if (p.saturate) v = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, v));
            out[i] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
        }
        return;
    }
    const auto dt = static_cast<spmma::DType>(p.d_type), ct = static_cast<spmma::DType>(p.c_type);
    if (spmma_problem_has_epilogue(&p)) {
        for (int64_t i = 0; i < count; ++i) {
            const float cv = with_c ? static_cast<float>(spmma::decode(ct, spmma::load_code(ct, c.data(), i))) : 0.0f;
            const float v = epi(i / p.n, i % p.n, static_cast<float>(acc[static_cast<size_t>(i)]), cv);
            spmma::store_code(dt, d, i, spmma::encode(dt, v));
        }
        return;
    }
    for (int64_t i = 0; i < count; ++i) {
        double v = p.alpha * acc[static_cast<size_t>(i)];
        if (with_c) v += p.beta * spmma::decode(ct, spmma::load_code(ct, c.data(), i));
        spmma::store_code(dt, d, i, spmma::encode(dt, v));
    }
}

}  // namespace spmma_emu

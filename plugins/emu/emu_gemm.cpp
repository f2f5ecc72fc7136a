// The emulator's problem: canonical operands in, the emulated kernel's D out.
#include "emu_gemm.hpp"

#include "emu_epilogue.hpp"

#include <spmma/types.hpp>

#include <chrono>
#include <cstring>

namespace spmma_emu {
namespace {

std::vector<uint8_t> take(const void* p, size_t bytes, size_t need, const char* what) {
    using spmma_plugin::fail;
    if (bytes < need) fail(SPMMA_INVALID_ARGUMENT, std::string(what) + ": " + std::to_string(bytes) + " bytes, need " + std::to_string(need));
    if (need && !p) fail(SPMMA_INVALID_ARGUMENT, std::string(what) + ": null pointer");
    const auto* b = static_cast<const uint8_t*>(p);
    return need ? std::vector<uint8_t>(b, b + need) : std::vector<uint8_t>{};
}

size_t bytes_of(spmma_dtype t, int64_t count) { return spmma::storage_bytes(static_cast<spmma::DType>(t), count); }

}  // namespace

void EmuGemm::upload(const spmma_operands& o) {
    const int group = spmma_pattern_group(p_.pattern);
    in_.a_values = take(o.a_values, o.a_values_bytes, bytes_of(p_.a_type, p_.m * (p_.k / 2)), "A values");
    in_.a_indices = take(o.a_indices, o.a_indices_bytes, static_cast<size_t>(p_.m * (p_.k / group)), "A indices");
    in_.b = take(o.b, o.b_bytes, bytes_of(p_.b_type, p_.k * p_.n), "B");
    in_.c = p_.beta != 0 ? take(o.c, o.c_bytes, bytes_of(p_.c_type, p_.m * p_.n), "C") : std::vector<uint8_t>{};
    if (p_.scale_type != SPMMA_DTYPE_NONE) {
        const int64_t blocks = p_.k / p_.scale_block;
        in_.scale_a = take(o.scale_a, o.scale_a_bytes, static_cast<size_t>(p_.m * blocks), "scale A");
        in_.scale_b = take(o.scale_b, o.scale_b_bytes, static_cast<size_t>(p_.n * blocks), "scale B");
    }
}

void EmuGemm::run(int, int iterations, float* times_ms, uint32_t) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> acc = kernel_.accumulate(p_, in_);
    d_.assign(bytes_of(p_.d_type, p_.m * p_.n), 0);
    epilogue(p_, acc, in_.c, d_.data());
    const float ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (int i = 0; i < iterations; ++i) times_ms[i] = ms;
}

void EmuGemm::download(void* d, size_t bytes) {
    if (d_.empty()) spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, "download before run");
    if (bytes != d_.size())
        spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, "D buffer has " + std::to_string(bytes) + " bytes, D has " + std::to_string(d_.size()));
    std::memcpy(d, d_.data(), d_.size());
}

}  // namespace spmma_emu

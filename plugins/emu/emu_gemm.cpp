// The emulator's problem: canonical operands in, the emulated kernel's D out.
#include "emu_gemm.hpp"

#include "emu_epilogue.hpp"

#include <spmma/types.hpp>
#include <spmma_plugin/operands.hpp>

#include <chrono>
#include <cstring>

namespace spmma_emu {
namespace {

// A copy of a host buffer (its size already checked against the problem).
std::vector<uint8_t> take(const void* p, size_t bytes) {
    const auto* b = static_cast<const uint8_t*>(p);
    return b ? std::vector<uint8_t>(b, b + bytes) : std::vector<uint8_t>{};
}

size_t bytes_of(spmma_dtype t, int64_t count) { return spmma::storage_bytes(static_cast<spmma::DType>(t), count); }

}  // namespace

void EmuGemm::upload(const spmma_operands& o) {
    spmma_plugin::check_operands(p_, o);
    in_.a_values = take(o.a_values, o.a_values_bytes);
    in_.a_indices = take(o.a_indices, o.a_indices_bytes);
    in_.b = take(o.b, o.b_bytes);
    in_.c = spmma_plugin::reads_c(p_) ? take(o.c, o.c_bytes) : std::vector<uint8_t>{};
    if (p_.scale_type != SPMMA_DTYPE_NONE) {
        in_.scale_a = take(o.scale_a, o.scale_a_bytes);
        in_.scale_b = take(o.scale_b, o.scale_b_bytes);
    }
    epi_ = spmma_plugin::HostEpilogue(p_, o);
}

void EmuGemm::run(int, int iterations, float* times_ms, uint32_t) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> acc = kernel_.accumulate(p_, in_);
    d_.assign(bytes_of(p_.d_type, p_.m * p_.n), 0);
    epilogue(p_, acc, in_.c, epi_, d_.data());
    const float ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (int i = 0; i < iterations; ++i) times_ms[i] = ms;
}

void EmuGemm::download(void* d, size_t bytes) {
    if (d_.empty()) spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, "download before run");
    spmma_plugin::check_d_bytes(p_, bytes);
    std::memcpy(d, d_.data(), d_.size());
}

}  // namespace spmma_emu

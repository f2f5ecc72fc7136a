#include "cpu_gemm.hpp"

#include <spmma/types.hpp>
#include <spmma_plugin/host_pack.hpp>
#include <spmma_plugin/operands.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

namespace spmma_cpu {

using spmma_plugin::fail;
using spmma_plugin::host::kept_columns;
using spmma::DType;

namespace {

DType dt(spmma_dtype t) { return static_cast<DType>(t); }

float round_f16(float x) { return static_cast<float>(static_cast<_Float16>(x)); }

constexpr int64_t kColBlock = 256;  // columns of D per inner pass (a 1 KiB row slice of B)
constexpr int64_t kF16Chunk = 32;   // k elements summed in f32 before an f16 accumulation step

}  // namespace

CpuGemm::CpuGemm(const spmma_problem& p, const char* kernel) : Gemm(p), p_(p), kernel_(kernel), integer_(spmma::is_integer(dt(p.a_type))) {}

void CpuGemm::upload(const spmma_operands& o) {
    const int64_t m = p_.m, n = p_.n, k = p_.k, kh = k / 2;
    const int g = spmma_pattern_group(p_.pattern);
    spmma_plugin::check_operands(p_, o);
    const bool scaled = p_.scale_type != SPMMA_DTYPE_NONE;

    a_col_.assign(static_cast<size_t>(m * kh), 0);
    if (integer_) ai_.assign(static_cast<size_t>(m * kh), 0);
    else a_val_.assign(static_cast<size_t>(m * kh), 0.0f);
    const int kept = g / 2;
    int bad_row = -1;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < m; ++i)
        for (int64_t grp = 0; grp < k / g; ++grp) {
            int cols[4];
            const int c = kept_columns(p_.pattern, o.a_indices[i * (k / g) + grp], cols);
            if (c != kept) {
#pragma omp critical
                bad_row = static_cast<int>(i);
                continue;
            }
            for (int e = 0; e < kept; ++e) {
                const int64_t idx = i * kh + grp * kept + e;
                const uint32_t code = spmma::load_code(dt(p_.a_type), o.a_values, idx);
                a_col_[idx] = static_cast<int32_t>(grp * g + cols[e]);
                if (integer_) ai_[idx] = static_cast<int32_t>(spmma::decode(dt(p_.a_type), code));
                else a_val_[idx] = static_cast<float>(spmma::decode(dt(p_.a_type), code));
            }
        }
    if (bad_row >= 0) fail(SPMMA_INVALID_ARGUMENT, "A has an invalid index byte in row " + std::to_string(bad_row));

    // B: column-major k x n in, row-major k x n decoded out (rows are what the inner loop walks).
    if (integer_) bi_.assign(static_cast<size_t>(k * n), 0);
    else b_.assign(static_cast<size_t>(k * n), 0.0f);
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < n; ++j)
        for (int64_t kk = 0; kk < k; ++kk) {
            const double v = spmma::decode(dt(p_.b_type), spmma::load_code(dt(p_.b_type), o.b, j * k + kk));
            if (integer_) bi_[kk * n + j] = static_cast<int32_t>(v);
            else b_[kk * n + j] = static_cast<float>(v);
        }
    c_.clear();
    if (p_.beta != 0.0) {
        c_.resize(static_cast<size_t>(m * n));
        for (int64_t e = 0; e < m * n; ++e) c_[e] = spmma::decode(dt(p_.c_type), spmma::load_code(dt(p_.c_type), o.c, e));
    }
    sa_.clear();
    sb_t_.clear();
    if (scaled) {
        const int64_t blocks = k / p_.scale_block;
        sa_.resize(static_cast<size_t>(m * blocks));
        sb_t_.resize(static_cast<size_t>(n * blocks));
        for (int64_t e = 0; e < m * blocks; ++e) sa_[e] = static_cast<float>(spmma::decode(dt(p_.scale_type), o.scale_a[e]));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t b = 0; b < blocks; ++b)
                sb_t_[b * n + j] = static_cast<float>(spmma::decode(dt(p_.scale_type), o.scale_b[j * blocks + b]));
    }
    epilogue_ = spmma_problem_has_epilogue(&p_) != 0;
    if (epilogue_) epi_ = spmma_plugin::HostEpilogue(p_, o);
    out_.assign(static_cast<size_t>(m * n), 0.0);
}

void CpuGemm::run(int warmup, int iterations, float* times_ms, uint32_t) {
    if (a_col_.empty()) fail(SPMMA_INVALID_ARGUMENT, "run before upload");
    for (int i = 0; i < warmup; ++i) compute();
    for (int i = 0; i < iterations; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        compute();
        times_ms[i] = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
}

void CpuGemm::compute() {
    if (integer_) compute_int();
    else compute_float();
}

// NOTES: D's row i is the sum over kept values a(i,p) of a(i,p) * B(col(i,p), :): an axpy over a
// contiguous slice of B's row per non-zero, so only non-zeros are multiplied and the inner loop
// vectorizes. Accumulation is f32 like the hardware's; f16 accumulation adds each 32-wide k
// chunk (summed in f32) into an f16-rounded accumulator; block scales multiply each k block's sum.
// The epilogue of ABI 1.2 runs in f32 on the finished accumulator (HostEpilogue), rounded once.
void CpuGemm::compute_float() {
    const int64_t m = p_.m, n = p_.n, k = p_.k, kh = k / 2;
    const bool f16acc = p_.acc_type == SPMMA_F16;
    const bool scaled = !sa_.empty();
    const int64_t chunk = scaled ? p_.scale_block : (f16acc ? kF16Chunk : k);  // k elements per partial sum
    const int64_t blocks = scaled ? k / p_.scale_block : 0;
#pragma omp parallel
    {
        std::vector<float> acc(kColBlock), part(kColBlock);
#pragma omp for schedule(dynamic, 4)
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j0 = 0; j0 < n; j0 += kColBlock) {
                const int64_t w = std::min(kColBlock, n - j0);
                std::fill(acc.begin(), acc.begin() + w, 0.0f);
                for (int64_t c0 = 0; c0 < k; c0 += chunk) {
                    std::fill(part.begin(), part.begin() + w, 0.0f);
                    for (int64_t q = c0 / 2; q < std::min(kh, (c0 + chunk) / 2); ++q) {
                        const float a = a_val_[i * kh + q];
                        const float* brow = &b_[a_col_[i * kh + q] * n + j0];
                        for (int64_t j = 0; j < w; ++j) part[j] += a * brow[j];
                    }
                    if (scaled) {
                        const float sa = sa_[i * blocks + c0 / p_.scale_block];
                        const float* sb = &sb_t_[(c0 / p_.scale_block) * n + j0];
                        for (int64_t j = 0; j < w; ++j) acc[j] += part[j] * (sa * sb[j]);
                    } else if (f16acc) {
                        for (int64_t j = 0; j < w; ++j) acc[j] = round_f16(acc[j] + part[j]);
                    } else {
                        for (int64_t j = 0; j < w; ++j) acc[j] += part[j];
                    }
                }
                double* o = &out_[i * n + j0];
                if (epilogue_) {
                    for (int64_t j = 0; j < w; ++j)
                        o[j] = epi_(i, j0 + j, acc[j], c_.empty() ? 0.0f : static_cast<float>(c_[i * n + j0 + j]));
                    continue;
                }
                for (int64_t j = 0; j < w; ++j)
                    o[j] = p_.alpha * acc[j] + (c_.empty() ? 0.0 : p_.beta * c_[i * n + j0 + j]);
            }
    }
}

void CpuGemm::compute_int() {
    const int64_t m = p_.m, n = p_.n, kh = p_.k / 2;
    const auto alpha = static_cast<int64_t>(p_.alpha), beta = static_cast<int64_t>(p_.beta);
#pragma omp parallel
    {
        std::vector<int64_t> acc(kColBlock);
#pragma omp for schedule(dynamic, 4)
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j0 = 0; j0 < n; j0 += kColBlock) {
                const int64_t w = std::min(kColBlock, n - j0);
                std::fill(acc.begin(), acc.begin() + w, 0);
                for (int64_t q = 0; q < kh; ++q) {
                    const int64_t a = ai_[i * kh + q];
                    const int32_t* brow = &bi_[a_col_[i * kh + q] * n + j0];
                    for (int64_t j = 0; j < w; ++j) acc[j] += a * brow[j];
                }
                for (int64_t j = 0; j < w; ++j) {
                    int64_t v = acc[j];
                    if (p_.saturate) v = std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
                    else v = static_cast<int32_t>(static_cast<uint32_t>(v));
                    int64_t d = alpha * v + (c_.empty() ? 0 : beta * static_cast<int64_t>(c_[i * n + j0 + j]));
                    if (p_.saturate) d = std::clamp<int64_t>(d, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
                    out_[i * n + j0 + j] = static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(d)));
                }
            }
    }
}

void CpuGemm::download(void* d, size_t bytes) {
    const DType t = dt(p_.d_type);
    const int64_t count = p_.m * p_.n;
    spmma_plugin::check_d_bytes(p_, bytes);
    for (int64_t e = 0; e < count; ++e) spmma::store_code(t, d, e, spmma::encode(t, out_[e]));
}

}  // namespace spmma_cpu

#include "sm80_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace spmma_sm80 {
namespace {

using spmma_plugin::fail;

size_t out_bytes(spmma_dtype t, int64_t count) { return static_cast<size_t>(count) * (spmma_dtype_storage_bits(t) / 8); }

void expect_bytes(const char* what, size_t got, int64_t want) {
    if (got != static_cast<size_t>(want))
        fail(SPMMA_INVALID_ARGUMENT, std::string(what) + " has " + std::to_string(got) + " bytes, expected " + std::to_string(want));
}

int host_threads() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 32u)); }

}  // namespace

Sm80Gemm::Sm80Gemm(int device, const spmma_problem& problem, const KernelDesc& kernel)
    : CudaGemm(device, problem), kernel_(kernel),
      shape_(packed_shape(kernel.op->family, kernel.tile, problem.m, problem.n, problem.k)) {
    fn_ = module(kernel_.image).function(kernel_.name);
    spmma_plugin::cuda::set_max_dynamic_smem(fn_, static_cast<unsigned>(kernel_.smem_bytes()));
}

void Sm80Gemm::upload(const spmma_operands& ops) {
    const Family& f = kernel_.op->family;
    const spmma_problem& p = problem_;
    if (!ops.a_values || !ops.a_indices || !ops.b) fail(SPMMA_INVALID_ARGUMENT, "null A values, A indices or B");
    expect_bytes("A values", ops.a_values_bytes, canonical_a_values_bytes(f, p.m, p.k));
    expect_bytes("A indices", ops.a_indices_bytes, canonical_a_indices_bytes(f, p.m, p.k));
    expect_bytes("B", ops.b_bytes, canonical_b_bytes(f, p.n, p.k));
    const bool beta_zero = p.beta == 0;
    if (!beta_zero) {
        if (!ops.c) fail(SPMMA_INVALID_ARGUMENT, "beta is not 0 but C is null");
        expect_bytes("C", ops.c_bytes, static_cast<int64_t>(out_bytes(p.c_type, p.m * p.n)));
    }
    const std::string bad = check_indices(f, p.m, p.k, ops.a_indices);
    if (!bad.empty()) fail(SPMMA_INVALID_ARGUMENT, "A's metadata would be undefined for mma.sp: " + bad);

    context_.make_current();
    const int threads = host_threads();
    {
        std::vector<uint8_t> a(static_cast<size_t>(shape_.a_bytes));
        std::vector<uint32_t> e(static_cast<size_t>(shape_.e_words));
        pack_a(f, shape_, kernel_.tile.bm, static_cast<const uint8_t*>(ops.a_values), ops.a_indices, a.data(), e.data(), threads);
        a_ = spmma_plugin::cuda::DeviceBuffer(a.size());
        a_.upload(a.data(), a.size());
        e_ = spmma_plugin::cuda::DeviceBuffer(e.size() * 4);
        e_.upload(e.data(), e.size() * 4);
    }
    {
        std::vector<uint8_t> b(static_cast<size_t>(shape_.b_bytes));
        pack_b(f, shape_, static_cast<const uint8_t*>(ops.b), b.data(), threads);
        b_ = spmma_plugin::cuda::DeviceBuffer(b.size());
        b_.upload(b.data(), b.size());
    }
    if (!beta_zero) {
        c_ = spmma_plugin::cuda::DeviceBuffer(ops.c_bytes);
        c_.upload(ops.c, ops.c_bytes);
    }
    d_ = spmma_plugin::cuda::DeviceBuffer(out_bytes(p.d_type, p.m * p.n));
    d_.fill(0xFF);  // NaN / -1 everywhere: a D element the kernel never writes cannot pass

    GemmParams& g = params_;
    g = GemmParams{};
    g.a = reinterpret_cast<const uint8_t*>(a_.get());
    g.e = reinterpret_cast<const uint32_t*>(e_.get());
    g.b = reinterpret_cast<const uint8_t*>(b_.get());
    g.c = beta_zero ? nullptr : reinterpret_cast<const void*>(c_.get());
    g.d = reinterpret_cast<void*>(d_.get());
    g.ldb = shape_.ldb;
    g.m = static_cast<int>(p.m);
    g.n = static_cast<int>(p.n);
    g.k_stages = static_cast<int>(shape_.k_stages);
    g.tiles_m = static_cast<int>(shape_.m_pad / kernel_.tile.bm);
    g.tiles_n = static_cast<int>(shape_.n_pad / kernel_.tile.bn);
    g.raster_group = 8;
    g.c_type = beta_zero ? p.d_type : p.c_type;
    g.d_type = p.d_type;
    g.beta_zero = beta_zero ? 1 : 0;
    g.alpha = static_cast<float>(p.alpha);
    g.beta = static_cast<float>(p.beta);
    g.alpha_i = static_cast<int64_t>(std::llround(p.alpha));
    g.beta_i = static_cast<int64_t>(std::llround(p.beta));
    g.saturate = p.saturate ? 1 : 0;
    uploaded_ = true;
}

void Sm80Gemm::launch(CUstream stream) {
    if (!uploaded_) fail(SPMMA_INVALID_ARGUMENT, "run before upload");
    spmma_plugin::cuda::LaunchShape s;
    s.grid[0] = static_cast<unsigned>(params_.tiles_m) * static_cast<unsigned>(params_.tiles_n);
    s.block[0] = static_cast<unsigned>(kernel_.threads());
    s.smem_bytes = static_cast<unsigned>(kernel_.smem_bytes());
    void* args[] = {&params_};
    spmma_plugin::cuda::launch(fn_, s, stream, args);
}

void Sm80Gemm::download(void* d, size_t bytes) {
    if (!uploaded_) fail(SPMMA_INVALID_ARGUMENT, "download before upload");
    expect_bytes("D", bytes, static_cast<int64_t>(d_.size()));
    context_.make_current();
    stream_.synchronize();
    d_.download(d, bytes);
}

}  // namespace spmma_sm80

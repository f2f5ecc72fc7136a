#include <spmma_plugin/cuda_gemm.hpp>

#include <spmma_plugin/host_pack.hpp>
#include <spmma_plugin/operands.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

SPMMA_DECLARE_FATBIN(gather)
SPMMA_DECLARE_FATBIN(expand)

namespace spmma_plugin::cuda {

void CudaBackend::probe(int device, spmma_device_info* out) const {
    probe_device(device, out, [&](const DeviceProperties& p) { return runs_on(p); });
}

DeviceProperties CudaBackend::require_device(int device) const {
    require_driver();
    const int n = cuda::device_count();
    if (device < 0 || device >= n)
        unsupported("no GPU: device " + std::to_string(device) + " does not exist (" + std::to_string(n) + " CUDA devices)");
    DeviceProperties p = device_properties(device);
    const std::string why = runs_on(p);
    if (!why.empty()) unsupported(why);
    return p;
}

CudaGemm::CudaGemm(int device, const spmma_problem& problem)
    : Gemm(problem), context_(device), stream_(), props_(device_properties(device)) {}

void CudaGemm::run(int warmup, int iterations, float* times_ms, uint32_t flags) {
    context_.make_current();
    if (!(flags & SPMMA_RUN_FLUSH_L2)) {
        timed_runs(stream_, warmup, iterations, times_ms, [] {}, [&] { launch(stream_.get()); });
        return;
    }
    if (!l2_flush_) l2_flush_ = std::make_unique<L2Flush>(props_, module(L2Flush::image()));
    timed_runs(stream_, warmup, iterations, times_ms, [&] { l2_flush_->enqueue(stream_.get()); },
               [&] { launch(stream_.get()); });
}

void CudaGemm::download_elements(const int64_t* indices, size_t count, void* values, size_t values_bytes) {
    const DeviceMatrix dm = d_matrix();
    if (!dm.base) {
        Gemm::download_elements(indices, count, values, values_bytes);
        return;
    }
    const spmma_problem& p = problem_;
    const int eb = spmma_dtype_storage_bits(p.d_type) / 8;
    if (eb != 2 && eb != 4) fail(SPMMA_INVALID_ARGUMENT, "D elements of 2 or 4 bytes only");
    if (values_bytes != count * static_cast<size_t>(eb))
        fail(SPMMA_INVALID_ARGUMENT, "value buffer has " + std::to_string(values_bytes) + " bytes, " +
                                         std::to_string(count * static_cast<size_t>(eb)) + " expected");
    const int64_t total = p.m * p.n;
    for (size_t x = 0; x < count; ++x)
        if (indices[x] < 0 || indices[x] >= total)
            fail(SPMMA_INVALID_ARGUMENT, "element index " + std::to_string(indices[x]) + " outside D (" + std::to_string(total) + " elements)");
    if (count == 0) return;
    context_.make_current();
    DeviceBuffer idx(count * sizeof(int64_t)), out(values_bytes);
    idx.upload(indices, count * sizeof(int64_t));
    stream_.synchronize();  // D is written
    CUdeviceptr base = dm.base, idx_ptr = idx.get(), out_ptr = out.get();
    unsigned long long pitch = dm.row_pitch_bytes, n = static_cast<unsigned long long>(p.n), cnt = count;
    int elem = eb;
    void* args[] = {&base, &pitch, &n, &idx_ptr, &cnt, &elem, &out_ptr};
    LaunchShape shape;
    shape.block[0] = 256;
    shape.grid[0] = static_cast<unsigned>(std::min<size_t>((count + 255) / 256, 4096));
    cuda::launch(module(SPMMA_FATBIN(gather)).function("spmma_gather_elements"), shape, stream_.get(), args);
    stream_.synchronize();
    out.download(values, values_bytes);
}

void CudaGemm::download(void* d, size_t bytes) {
    check_d_bytes(problem_, bytes);
    if (!d_.size()) fail(SPMMA_INVALID_ARGUMENT, "download before D exists");
    context_.make_current();
    stream_.synchronize();
    d_.download(d, bytes);
}

DeviceMatrix CudaGemm::d_matrix() const {
    return {d_.get(), storage_bytes(problem_.d_type, problem_.n)};
}

void CudaGemm::allocate_d(uint8_t fill) {
    context_.make_current();
    d_ = DeviceBuffer(storage_bytes(problem_.d_type, problem_.m * problem_.n));
    d_.fill(fill);
}

void CudaGemm::upload_c(const spmma_operands& ops, CForm form) {
    const spmma_problem& p = problem_;
    c_ = DeviceBuffer();
    if (!reads_c(p)) return;
    context_.make_current();
    if (form == CForm::as_given) {
        c_ = to_device(ops.c, ops.c_bytes);
        return;
    }
    std::vector<uint8_t> wide(static_cast<size_t>(p.m * p.n) * 4);
    try {
        host::widen_c(p.c_type, ops.c, p.m * p.n, wide.data());
    } catch (const std::invalid_argument& e) {
        unsupported(std::string("unsupported: ") + e.what());
    }
    c_ = to_device(wide);
}

void CudaGemm::upload_epilogue(const spmma_operands& ops) {
    const spmma_problem& p = problem_;
    context_.make_current();
    for (DeviceBuffer* b : {&rs_, &cs_, &row_bias_, &col_bias_}) *b = DeviceBuffer();
    if (!spmma_problem_has_epilogue(&p)) return;
    // NOTES: with an epilogue every vector exists on the device, a scale the problem lacks as
    // ones and a bias as -0.0 (x * 1 and x + -0.0 are x, -0.0 and NaN included), so the
    // unrolled epilogues load and multiply without a branch per element: those branches made
    // ptxas take several times longer over the sm90a kernels (plugins/sm90a/NOTES.md). The
    // column vectors have an even length (one unused value more where n is odd) for the
    // kernels' aligned 8-byte loads of a column pair.
    const size_t m = static_cast<size_t>(p.m), n_even = static_cast<size_t>(p.n + (p.n & 1));
    auto vector = [](size_t length, float fill, const float* given, size_t count) {
        std::vector<float> v(length, fill);
        if (given) std::copy(given, given + count, v.begin());
        return to_device(v);
    };
    rs_ = vector(m, 1.0f, p.row_scale ? ops.row_scale : nullptr, m);
    cs_ = vector(n_even, 1.0f, p.col_scale ? ops.col_scale : nullptr, static_cast<size_t>(p.n));
    std::vector<float> bias;
    if (p.bias != SPMMA_BIAS_NONE) {
        bias.resize(p.bias == SPMMA_BIAS_ROW ? m : static_cast<size_t>(p.n));
        try {
            host::widen_c(p.bias_type, ops.bias, static_cast<int64_t>(bias.size()), bias.data());
        } catch (const std::invalid_argument& e) {
            unsupported(std::string("unsupported: the bias: ") + e.what());
        }
    }
    row_bias_ = vector(m, -0.0f, p.bias == SPMMA_BIAS_ROW ? bias.data() : nullptr, bias.size());
    col_bias_ = vector(n_even, -0.0f, p.bias == SPMMA_BIAS_COL ? bias.data() : nullptr, bias.size());
}

FusedEpilogue CudaGemm::fused_epilogue() const {
    const spmma_problem& p = problem_;
    return {rs_.as<const float>(), cs_.as<const float>(), row_bias_.as<const float>(), col_bias_.as<const float>(),
            p.activation, spmma_problem_has_epilogue(&p) ? 1 : 0, p.bias == SPMMA_BIAS_COL ? 1 : 0};
}

CUfunction CudaGemm::kernel(const void* image, const char* name, unsigned smem_bytes) {
    const CUfunction f = module(image).function(name);
    set_max_dynamic_smem(f, smem_bytes);
    return f;
}

void CudaGemm::expand_a_on_device(const spmma_operands& ops, DeviceBuffer& dense, int64_t rows, int64_t cols) {
    const spmma_problem& p = problem_;
    const int group = spmma_pattern_group(p.pattern);
    const int eb = spmma_dtype_storage_bits(p.a_type) / 8;
    if ((group != 2 && group != 4) || (eb != 1 && eb != 2 && eb != 4))
        fail(SPMMA_INVALID_ARGUMENT, std::string("expanding A on the device takes 8/16/32-bit 2:4 or 1:2 A, not ") + spmma_dtype_name(p.a_type) +
                                         " " + spmma_pattern_name(p.pattern));
    const size_t values_bytes = static_cast<size_t>(p.m * (p.k / 2) * eb), index_bytes = static_cast<size_t>(p.m * (p.k / group));
    if (!ops.a_values || ops.a_values_bytes != values_bytes)
        fail(SPMMA_INVALID_ARGUMENT, "A values have " + std::to_string(ops.a_values_bytes) + " bytes, " + std::to_string(values_bytes) + " expected");
    if (!ops.a_indices || ops.a_indices_bytes != index_bytes)
        fail(SPMMA_INVALID_ARGUMENT, "A indices have " + std::to_string(ops.a_indices_bytes) + " bytes, " + std::to_string(index_bytes) + " expected");
    if (rows < p.m || cols < p.k) fail(SPMMA_INVALID_ARGUMENT, "the dense A is smaller than the problem");
    context_.make_current();
    DeviceBuffer values(values_bytes), indices(index_bytes), bad(sizeof(unsigned long long));
    values.upload(ops.a_values, values_bytes);
    indices.upload(ops.a_indices, index_bytes);
    bad.fill(0xff);
    dense = DeviceBuffer(static_cast<size_t>(rows * cols * eb));
    dense.fill(0);
    CUdeviceptr v = values.get(), x = indices.get(), d = dense.get(), b = bad.get();
    long long m = p.m, k = p.k;
    int g = group, e = eb;
    unsigned long long pitch = static_cast<unsigned long long>(cols * eb);
    void* args[] = {&v, &x, &m, &k, &g, &e, &d, &pitch, &b};
    const long long total = p.m * (p.k / group);
    LaunchShape shape;
    shape.block[0] = 256;
    shape.grid[0] = static_cast<unsigned>(std::min<long long>((total + 255) / 256, 1 << 16));
    cuda::launch(module(SPMMA_FATBIN(expand)).function("spmma_expand_a"), shape, stream_.get(), args);
    stream_.synchronize();
    unsigned long long first_bad = 0;
    bad.download(&first_bad, sizeof first_bad);
    if (first_bad != ~0ull) {
        const long long row = static_cast<long long>(first_bad) / (p.k / group), grp = static_cast<long long>(first_bad) % (p.k / group);
        uint8_t byte = 0;
        std::memcpy(&byte, ops.a_indices + first_bad, 1);
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", byte);
        fail(SPMMA_INVALID_ARGUMENT, std::string("invalid index byte ") + hex + " at row " + std::to_string(row) + ", group " + std::to_string(grp));
    }
}

const Module& CudaGemm::module(const void* image) {
    // NOTES: one module per image and device for the life of the process: loading a plugin's
    // fatbin is slow (plugins/kit/NOTES.md, "Modules kept for the process"), and a sweep would
    // otherwise pay for it at every problem. Leaked on purpose: unloading at exit could run after
    // the driver is gone.
    static std::mutex mutex;
    static auto* cache = new std::map<std::pair<CUdevice, const void*>, std::unique_ptr<Module>>();
    std::lock_guard lock(mutex);
    static auto* kept = new std::map<CUdevice, std::unique_ptr<Context>>();
    auto& ctx = (*kept)[context_.device()];
    if (!ctx) ctx = std::make_unique<Context>(context_.device());  // the cached modules live in this context: keep it
    auto& m = (*cache)[{context_.device(), image}];
    if (!m) {
        context_.make_current();
        m = std::make_unique<Module>(image);
    }
    return *m;
}

}  // namespace spmma_plugin::cuda

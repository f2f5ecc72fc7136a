#include <spmma_plugin/cuda_gemm.hpp>

#include <spmma_plugin/host_pack.hpp>
#include <spmma_plugin/operands.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

SPMMA_DECLARE_FATBIN(gather)

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
    const DeviceBuffer* flush = nullptr;
    if (flags & SPMMA_RUN_FLUSH_L2) {
        // NOTES: writing twice the L2's size evicts every line a launch could reuse.
        if (!l2_flush_.size()) l2_flush_ = DeviceBuffer(2 * static_cast<size_t>(std::max(props_.l2_bytes, 1 << 20)));
        flush = &l2_flush_;
    }
    timed_runs(stream_, warmup, iterations, times_ms, flush, [&] { launch(stream_.get()); });
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

CUfunction CudaGemm::kernel(const void* image, const char* name, unsigned smem_bytes) {
    const CUfunction f = module(image).function(name);
    set_max_dynamic_smem(f, smem_bytes);
    return f;
}

const Module& CudaGemm::module(const void* image) {
    auto& m = modules_[image];
    if (!m) {
        context_.make_current();
        m = std::make_unique<Module>(image);
    }
    return *m;
}

}  // namespace spmma_plugin::cuda

#include <spmma_plugin/cuda_gemm.hpp>

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
    : problem_(problem), context_(device), stream_(), props_(device_properties(device)) {}

void CudaGemm::run(int warmup, int iterations, float* times_ms) {
    context_.make_current();
    timed_runs(stream_, warmup, iterations, times_ms, [&] { launch(stream_.get()); });
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

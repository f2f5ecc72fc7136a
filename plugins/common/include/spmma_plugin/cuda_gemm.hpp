// What every CUDA plugin shares above the driver helpers: a Backend that answers device
// questions from the driver, and a Gemm that owns a context and stream and times launches.
#pragma once

#include <spmma_plugin/backend.hpp>
#include <spmma_plugin/cuda_driver.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>

// Declares the embedded fatbin of kernel file <stem>.cu (see cmake/SpmmaCuda.cmake).
#define SPMMA_DECLARE_FATBIN(stem) extern "C" const unsigned char spmma_fatbin_##stem[];
#define SPMMA_FATBIN(stem) (static_cast<const void*>(spmma_fatbin_##stem))

namespace spmma_plugin::cuda {

class CudaBackend : public Backend {
public:
    int device_count() const override { return cuda::device_count(); }
    void probe(int device, spmma_device_info* out) const override;
    // Empty when this plugin's code runs on a device with these properties, else why not
    // ("needs sm_90a, device is sm_80").
    virtual std::string runs_on(const DeviceProperties& p) const = 0;
    // Throws unsupported() with the reason when the device cannot run this plugin at all.
    DeviceProperties require_device(int device) const;
};

class CudaGemm : public Gemm {
public:
    CudaGemm(int device, const spmma_problem& problem);
    void run(int warmup, int iterations, float* times_ms) override;

protected:
    // One launch of the whole GEMM on `stream` (enqueued, not synchronized).
    virtual void launch(CUstream stream) = 0;

    // A module of this process, loaded once per image and context (plugins call this lazily).
    const Module& module(const void* image);

    spmma_problem problem_;
    Context context_;
    Stream stream_;
    DeviceProperties props_;

private:
    std::map<const void*, std::unique_ptr<Module>> modules_;
};

}  // namespace spmma_plugin::cuda

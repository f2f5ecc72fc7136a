// What every CUDA plugin shares above the driver helpers: a Backend that answers device
// questions from the driver, and a Gemm that owns a context and stream, times launches, and owns
// C and D on the device (D's download and gather included).
#pragma once

#include <spmma_plugin/backend.hpp>
#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_plugin/fused_epilogue.hpp>
#include <spmma_plugin/l2_flush.hpp>

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
    uint32_t capabilities() const override { return SPMMA_PLUGIN_FLUSHES_L2; }
    void probe(int device, spmma_device_info* out) const override;
    // Empty when this plugin's code runs on a device with these properties, else why not
    // ("needs sm_90a, device is sm_80").
    virtual std::string runs_on(const DeviceProperties& p) const = 0;
    // Throws unsupported() with the reason when the device cannot run this plugin at all.
    DeviceProperties require_device(int device) const;
};

// D as it lies on the device: row-major rows of `row_pitch_bytes` (m rows of n elements).
struct DeviceMatrix {
    CUdeviceptr base = 0;
    size_t row_pitch_bytes = 0;
};

class CudaGemm : public Gemm {
public:
    CudaGemm(int device, const spmma_problem& problem);
    void run(int warmup, int iterations, float* times_ms, uint32_t flags) override;
    // D (m x n of d_type, row-major) from d_ once the stream has finished.
    void download(void* d, size_t bytes) override;
    // Gathers the elements on the device (one small kernel) when d_matrix() says where D is.
    void download_elements(const int64_t* indices, size_t count, void* values, size_t values_bytes) override;

protected:
    // One launch of the whole GEMM on `stream` (enqueued, not synchronized).
    virtual void launch(CUstream stream) = 0;
    // Where D lies after a launch: d_ (base 0 before allocate_d: Gemm's download-and-pick).
    virtual DeviceMatrix d_matrix() const;

    // The canonical compressed A of `ops` expanded on the device into `dense`: rows x cols
    // row-major (rows >= m, cols >= k), zeros where A has none and in the padding. 8-, 16- and
    // 32-bit types, 2:4 and 1:2. Throws Error(SPMMA_INVALID_ARGUMENT) for wrong sizes or an
    // invalid index byte (naming its row and group).
    void expand_a_on_device(const spmma_operands& ops, DeviceBuffer& dense, int64_t rows, int64_t cols);

    // A module of this process, loaded once per image and device (plugins call this lazily).
    const Module& module(const void* image);
    // Kernel `name` of `image`, allowed `smem_bytes` of dynamic shared memory.
    CUfunction kernel(const void* image, const char* name, unsigned smem_bytes);

    // d_: m x n of d_type, row-major, every byte `fill` (0xFF: NaN / -1, so an element no
    // launch writes cannot pass verification).
    void allocate_d(uint8_t fill = 0xFF);
    // How C reaches the device: as the host gave it, or widened to 4 bytes an element (f32,
    // f16, bf16 -> f32; s32) for an epilogue that reads one type (host_pack.hpp widen_c).
    enum class CForm { as_given, widened };
    // c_: C in `form` when beta is not 0 (the operands already checked), else empty.
    void upload_c(const spmma_operands& ops, CForm form);
    // rs_, cs_, row_bias_ and col_bias_: the epilogue's vectors (ABI 1.2) in f32 (the scales as
    // given, the bias widened from its type, exactly; ones and -0.0 for those the problem lacks;
    // the column vectors of even length), all empty when the problem has no epilogue. For kernels
    // that fuse the epilogue (the operands already checked).
    void upload_epilogue(const spmma_operands& ops);
    // The epilogue as a kernel parameter: upload_epilogue's vectors and the problem's fields.
    FusedEpilogue fused_epilogue() const;

    Context context_;
    Stream stream_;
    DeviceProperties props_;
    DeviceBuffer c_, d_;
    DeviceBuffer rs_, cs_, row_bias_, col_bias_;  // upload_epilogue

private:
    std::unique_ptr<L2Flush> l2_flush_;  // made at the first run with SPMMA_RUN_FLUSH_L2
};

}  // namespace spmma_plugin::cuda

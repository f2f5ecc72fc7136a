// A created problem on one of the plugin's own kernels: what every GPU family's Gemm does apart
// from its packing and launch. The kernel is loaded and D allocated at creation; upload checks
// the canonical operands against the problem (operands.hpp) before the family packs them; run
// and downloads are refused before an upload. Entry is the plugin's kernel-table entry with
// `name` (the kernel's symbol) and `image` (its fatbin).
#pragma once

#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/operands.hpp>

#include <string>

namespace spmma_plugin::cuda {

template <class Entry>
class KernelGemm : public CudaGemm {
public:
    std::string kernel_name() const override { return std::string(kernel_.name); }

    void upload(const spmma_operands& ops) final {
        check_operands(problem_, ops);
        context_.make_current();
        pack(ops);
        uploaded_ = true;
    }
    void run(int warmup, int iterations, float* times_ms, uint32_t flags) final {
        if (!uploaded_) fail(SPMMA_INVALID_ARGUMENT, "run before upload");
        CudaGemm::run(warmup, iterations, times_ms, flags);
    }
    void download(void* d, size_t bytes) final {
        if (!uploaded_) fail(SPMMA_INVALID_ARGUMENT, "download before upload");
        CudaGemm::download(d, bytes);
    }
    void download_elements(const int64_t* indices, size_t count, void* values, size_t values_bytes) final {
        if (!uploaded_) fail(SPMMA_INVALID_ARGUMENT, "download before upload");
        CudaGemm::download_elements(indices, count, values, values_bytes);
    }

protected:
    // Loads the kernel (allowed `smem_bytes` of dynamic shared memory) and allocates D.
    KernelGemm(int device, const spmma_problem& problem, const Entry& entry, int smem_bytes)
        : CudaGemm(device, problem),
          kernel_(entry),
          fn_(kernel(entry.image, entry.function().c_str(), static_cast<unsigned>(smem_bytes))) {
        allocate_d();
    }

    // The family's packing: the checked canonical operands into its layouts on the device (the
    // context is current), C through upload_c, and the kernel's parameters.
    virtual void pack(const spmma_operands& ops) = 0;

    const Entry& kernel_;
    const CUfunction fn_;

private:
    bool uploaded_ = false;
};

}  // namespace spmma_plugin::cuda

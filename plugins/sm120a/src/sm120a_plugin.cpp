// The sm120a plugin: sparse GEMM with the sm_120a mma.sp::ordered_metadata .kind forms
// (kind::f8f6f4 QMMA.SP; block-scaled kind::mxf8f6f4 QMMA.SF.SP, kind::mxf4 / mxf4nvf4
// OMMA.SF.SP) on sm_120 / sm_121 devices only. Compiled and checked on the instruction model;
// not yet run on sm_120 hardware (README.md).
#include "sm120a_gemm.hpp"
#include "support.hpp"

#include <spmma_plugin/cuda_gemm.hpp>

namespace spmma_sm120a {
namespace {

using namespace spmma_plugin;

class Sm120aBackend : public cuda::CudaBackend {
public:
    spmma_plugin_info info() const override {
        spmma_plugin_info i{};
        i.struct_size = sizeof i;
        i.vendor = "spmma";
        i.version = "0.1.0";
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
        i.name = "sm120a-swmma";
        i.target = "sm_80";
        i.description =
            "CHECK BUILD of the sm120a kernels for sm_80 / sm_90: pipeline, fragments, scale words and epilogue on the GPU, "
            "the mma.sp in software; not a performance plugin";
#else
        i.name = "sm120a";
        i.target = "sm_120a";
        i.description =
            "mma.sp .kind forms of sm_120a: kind::f8f6f4 (e4m3/e5m2/e3m2/e2m3/e2m1), block-scaled kind::mxf8f6f4, "
            "kind::mxf4, kind::mxf4nvf4 (compiled and checked on the model; not yet run on sm_120 hardware)";
#endif
        return i;
    }

    std::span<const spmma_kernel_info> kernels() const override { return kernel_infos(); }

    std::string runs_on(const cuda::DeviceProperties& p) const override { return device_reason(p); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        const std::string why = problem_reason(p);
        if (!why.empty()) unsupported(why);
        const cuda::DeviceProperties dev = require_device(device);
        pick(p, dev, kernel);
    }

    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        const cuda::DeviceProperties dev = require_device(device);  // after check_supported (backend.cpp)
        return std::make_unique<Sm120aGemm>(device, p, pick(p, dev, kernel));
    }

private:
    static const KernelDesc& pick(const spmma_problem& p, const cuda::DeviceProperties& dev, const char* kernel) {
        if (kernel) {
            const KernelDesc* k = find_kernel(kernel);
            if (!k) fail(SPMMA_INVALID_ARGUMENT, std::string("no kernel named ") + kernel);
            const std::string why = kernel_reason(*k, p, dev);
            if (!why.empty()) unsupported(why);
            return *k;
        }
        std::string why;
        const KernelDesc* k = choose_kernel(p, dev, &why);
        if (!k) unsupported(why);
        return *k;
    }
};

Sm120aBackend& backend() {
    static Sm120aBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm120a

SPMMA_DEFINE_PLUGIN(spmma_sm120a::backend)

// The sm80 plugin: sparse GEMM with sm_80 mma.sp / mma.sp::ordered_metadata (HMMA.SP, IMMA.SP)
// for f16, bf16, tf32, s8/u8, s4/u4 and (sm_89+) e4m3/e5m2, on any device from sm_80 on.
#include "sm80_gemm.hpp"
#include "support.hpp"

#include <spmma_plugin/cuda_gemm.hpp>

namespace spmma_sm80 {
namespace {

using namespace spmma_plugin;

class Sm80Backend : public cuda::CudaBackend {
public:
    spmma_plugin_info info() const override {
        spmma_plugin_info i{};
        i.struct_size = sizeof i;
        i.name = "sm80";
        i.vendor = "spmma";
        i.version = "0.1.0";
        i.target = "sm_80";
        i.description = "mma.sp (sm_80 warp-level sparse MMA): f16, bf16, tf32, s8/u8, s4/u4, e4m3/e5m2 (sm_89+)";
        return i;
    }

    std::span<const spmma_kernel_info> kernels() const override { return kernel_infos(); }

    std::string runs_on(const cuda::DeviceProperties& p) const override { return device_reason(p); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        const std::string why = problem_reason(p);
        if (!why.empty()) unsupported(why);
        if (kernel)  // a kernel for other types is refused before the device is asked about
            if (const KernelDesc* k = find_kernel(kernel)) {
                const std::string types = kernel_types_reason(*k, p);
                if (!types.empty()) unsupported(types);
            }
        const cuda::DeviceProperties dev = require_device(device);
        pick(p, dev, kernel);
    }

    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        const cuda::DeviceProperties dev = require_device(device);
        return std::make_unique<Sm80Gemm>(device, p, pick(p, dev, kernel));
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

Sm80Backend& backend() {
    static Sm80Backend b;
    return b;
}

}  // namespace
}  // namespace spmma_sm80

SPMMA_DEFINE_PLUGIN(spmma_sm80::backend)

// The cpu plugin's backend: one device (the host), one kernel per accumulator kind.
#include "cpu_gemm.hpp"

#include <spmma/types.hpp>
#include <spmma_plugin/host_backend.hpp>
#include <spmma_plugin/host_epilogue.hpp>

#include <omp.h>
#include <sys/utsname.h>

#include <array>
#include <cstring>

namespace spmma_cpu {
namespace {

using namespace spmma_plugin;
using spmma::DType;

const std::array<spmma_kernel_info, 3> kKernels = {{
    {sizeof(spmma_kernel_info), 0, "cpu_omp_f32acc", "OpenMP, f32 accumulation (f16/bf16/tf32/8-6-4-bit floats, block scales, the f32 epilogue)"},
    {sizeof(spmma_kernel_info), 0, "cpu_omp_f16acc", "OpenMP, f16 accumulation modelled per 32-wide k chunk (f16, 8-6-4-bit floats)"},
    {sizeof(spmma_kernel_info), 0, "cpu_omp_s32acc", "OpenMP, s32 accumulation, wrap or satfinite (s8/u8/s4/u4)"},
}};

const char* kernel_for(const spmma_problem& p) {
    switch (p.acc_type) {
        case SPMMA_F32: return kKernels[0].name;
        case SPMMA_F16: return kKernels[1].name;
        case SPMMA_S32: return kKernels[2].name;
        default: return nullptr;
    }
}

class CpuBackend : public HostBackend {
public:
    spmma_plugin_info info() const override {
        return plugin_info("cpu", "cpu", "every type on the host CPU: OpenMP over the compressed form, float accumulation like the hardware",
                           SPMMA_VERSION);
    }
    std::span<const spmma_kernel_info> kernels() const override { return kKernels; }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        require_host(device);
        for (spmma_dtype t : {p.a_type, p.b_type, p.c_type, p.d_type, p.acc_type})
            if (spmma_dtype_storage_bits(t) == 0 || t > SPMMA_S32) unsupported("unknown element type " + std::to_string(t));
        if (p.c_type != p.d_type) unsupported("C must have D's type");
        if (p.scale_type != SPMMA_DTYPE_NONE && p.scale_type != SPMMA_UE8M0 && p.scale_type != SPMMA_UE4M3)
            unsupported("block scales are ue8m0 or ue4m3");
        if (p.scale_type != SPMMA_DTYPE_NONE && (p.scale_block <= 0 || p.k % p.scale_block != 0))
            unsupported("k must be a multiple of the scale block");
        if (p.scale_type != SPMMA_DTYPE_NONE && p.acc_type != SPMMA_F32) unsupported("block-scaled problems accumulate in f32");
        const bool int_ops = spmma::is_integer(static_cast<DType>(p.a_type));
        if (int_ops != (p.acc_type == SPMMA_S32)) unsupported("integer operands accumulate in s32, floating ones in f32 or f16");
        if (std::string why = host_epilogue_reason(p); !why.empty()) unsupported(why);
        const char* k = kernel_for(p);
        if (!k) unsupported(std::string("no accumulation in ") + spmma_dtype_name(p.acc_type));
        if (kernel && std::strcmp(kernel, k) != 0)
            unsupported(std::string(kernel) + " does not accumulate in " + spmma_dtype_name(p.acc_type) + "; " + k + " does");
    }

    std::unique_ptr<Gemm> create(int, const spmma_problem& p, const char*) override {
        return std::make_unique<CpuGemm>(p, kernel_for(p));
    }

protected:
    std::string host_name() const override { return "host CPU (" + std::to_string(omp_get_max_threads()) + " threads)"; }
    std::string host_arch() const override {
        utsname u{};
        return uname(&u) == 0 ? u.machine : "cpu";
    }
};

Backend& backend() {
    static CpuBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_cpu

SPMMA_DEFINE_PLUGIN(spmma_cpu::backend)

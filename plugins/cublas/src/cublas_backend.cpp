// The cublas plugin: dense GEMM through NVIDIA's cuBLASLt on A expanded to dense, the baseline
// that `--baseline cublas` measures every sparse plugin against. Entry point and Backend.
#include "cublas_gemm.hpp"
#include "cublaslt_api.hpp"
#include "lt_setup.hpp"

#include <spmma_baseline/family_backend.hpp>
#include <spmma_plugin/cuda_gemm.hpp>

#ifndef SPMMA_VERSION
#define SPMMA_VERSION "0.0.0"
#endif

namespace spmma_cublas {
namespace {

using namespace spmma_plugin;

class CublasBackend final : public spmma_baseline::FamilyBackend<LtSetup, CublasGemm, lt_setup, kernel_infos> {
public:
    spmma_plugin_info info() const override {
        static const std::string version = [] {
            const auto& lib = cublaslt_library();
            return std::string(SPMMA_VERSION) + (lib.fns ? "+cublasLt." + lib.version : "");
        }();
        static const std::string description = [] {
            const auto& lib = cublaslt_library();
            const std::string where = lib.fns ? "cuBLASLt " + lib.version + " from " + lib.path : "cuBLASLt (not found here)";
            return "dense GEMM through " + where + " on A expanded to dense; the fastest of cuBLASLt's first " +
                   std::to_string(kHeuristicCandidates) + " heuristic answers, timed (or from the plan cache); sizes zero-padded to multiples of 16";
        }();
        spmma_plugin_info i{};
        i.struct_size = sizeof i;
        i.flags = SPMMA_PLUGIN_DENSE;
        i.name = "cublas";
        i.vendor = "spmma (NVIDIA cuBLASLt)";
        i.version = version.c_str();
        i.target = "sm_75+";
        i.description = description.c_str();
        return i;
    }

    std::string runs_on(const cuda::DeviceProperties& p) const override {
        const auto& lib = cublaslt_library();
        if (!lib.fns) return lib.why_not;
        if (p.major * 10 + p.minor < 75) return "needs sm_75 or newer (cuBLASLt " + lib.version + "), device is " + p.arch();
        return {};
    }
};

CublasBackend& backend() {
    static CublasBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_cublas

SPMMA_DEFINE_PLUGIN(spmma_cublas::backend)

// The cublas plugin: dense GEMM through NVIDIA's cuBLASLt on A expanded to dense, the baseline
// that `--baseline cublas` measures every sparse plugin against. Entry point and Backend.
#include "cublas_gemm.hpp"
#include "cublaslt_api.hpp"
#include "lt_setup.hpp"

#include <spmma_baseline/family_backend.hpp>

namespace spmma_cublas {
namespace {

class CublasBackend final : public spmma_baseline::FamilyBackend<LtSetup, CublasGemm, lt_setup, kernel_infos> {
protected:
    spmma_baseline::BaselineIdentity identity() const override {
        const auto& lib = cublaslt_library();
        const std::string where = lib.fns ? "cuBLASLt " + lib.version + " from " + lib.path : "cuBLASLt (not found here)";
        return {"cublas", "spmma (NVIDIA cuBLASLt)", "sm_75+", SPMMA_PLUGIN_DENSE,
                lib.fns ? "+cublasLt." + lib.version : "",
                "dense GEMM through " + where + " on A expanded to dense; the fastest of cuBLASLt's first " +
                    std::to_string(kHeuristicCandidates) +
                    " heuristic answers, timed (or from the plan cache); sizes zero-padded to multiples of 16",
                lib.fns ? "" : lib.why_not, 75, "cuBLASLt " + lib.version};
    }
};

}  // namespace
}  // namespace spmma_cublas

SPMMA_DEFINE_PLUGIN_BACKEND(spmma_cublas::CublasBackend)

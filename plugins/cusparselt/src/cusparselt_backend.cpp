// The cusparselt plugin: NVIDIA's own 2:4 (1:2 for tf32) sparse GEMM library, cuSPARSELt, run
// and verified like any spmma plugin: the vendor's figure that every sparse plugin is measured
// against. Entry point and Backend.
#include "cusparselt_api.hpp"
#include "cusparselt_gemm.hpp"
#include "sp_setup.hpp"

#include <spmma_baseline/family_backend.hpp>

namespace spmma_cusparselt {
namespace {

class CusparseLtBackend final : public spmma_baseline::FamilyBackend<SpSetup, CusparseLtGemm, sp_setup, kernel_infos> {
protected:
    spmma_baseline::BaselineIdentity identity() const override {
        const auto& lib = cusparselt_library();
        const std::string where = lib.fns ? "cuSPARSELt " + lib.version + " from " + lib.path : "cuSPARSELt (not usable here)";
        return {"cusparselt", "spmma (NVIDIA cuSPARSELt)", "sm_80+", 0,
                lib.fns ? "+cusparseLt." + lib.version : "",
                "NVIDIA's 2:4 sparse GEMM, " + where +
                    ": prune check and compression by the library, the fastest algorithm id and split-k timed by this plugin (or "
                    "its plan cache); sizes zero-padded to multiples of 32",
                lib.fns ? "" : lib.why_not, 80, "sparse tensor cores"};
    }
};

}  // namespace
}  // namespace spmma_cusparselt

SPMMA_DEFINE_PLUGIN_BACKEND(spmma_cusparselt::CusparseLtBackend)

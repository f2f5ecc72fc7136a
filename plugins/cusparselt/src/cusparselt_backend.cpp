// The cusparselt plugin: NVIDIA's own 2:4 (1:2 for tf32) sparse GEMM library, cuSPARSELt, run
// and verified like any spmma plugin: the vendor's figure that every sparse plugin is measured
// against. Entry point and Backend.
#include "cusparselt_api.hpp"
#include "cusparselt_gemm.hpp"
#include "sp_setup.hpp"

#include <spmma_baseline/family_backend.hpp>
#include <spmma_plugin/cuda_gemm.hpp>

#ifndef SPMMA_VERSION
#define SPMMA_VERSION "0.0.0"
#endif

namespace spmma_cusparselt {
namespace {

using namespace spmma_plugin;

class CusparseLtBackend final : public spmma_baseline::FamilyBackend<SpSetup, CusparseLtGemm, sp_setup, kernel_infos> {
public:
    spmma_plugin_info info() const override {
        static const std::string version = [] {
            const auto& lib = cusparselt_library();
            return std::string(SPMMA_VERSION) + (lib.fns ? "+cusparseLt." + lib.version : "");
        }();
        static const std::string description = [] {
            const auto& lib = cusparselt_library();
            const std::string where = lib.fns ? "cuSPARSELt " + lib.version + " from " + lib.path : "cuSPARSELt (not usable here)";
            return "NVIDIA's 2:4 sparse GEMM, " + where +
                   ": prune check and compression by the library, the fastest algorithm id and split-k timed by this plugin (or "
                   "its plan cache); sizes zero-padded to multiples of 32";
        }();
        spmma_plugin_info i{};
        i.struct_size = sizeof i;
        i.flags = 0;
        i.name = "cusparselt";
        i.vendor = "spmma (NVIDIA cuSPARSELt)";
        i.version = version.c_str();
        i.target = "sm_80+";
        i.description = description.c_str();
        return i;
    }

    std::string runs_on(const cuda::DeviceProperties& p) const override {
        const auto& lib = cusparselt_library();
        if (!lib.fns) return lib.why_not;
        if (p.major * 10 + p.minor < 80) return "needs sm_80 or newer (sparse tensor cores), device is " + p.arch();
        return {};
    }
};

CusparseLtBackend& backend() {
    static CusparseLtBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_cusparselt

SPMMA_DEFINE_PLUGIN(spmma_cusparselt::backend)

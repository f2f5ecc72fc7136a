#include "cublas_gemm.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace spmma_cublas {
namespace {

using spmma_baseline::dptr;
using spmma_plugin::fail;
namespace cuda = spmma_plugin::cuda;

// The f16 bits of v, which exact_in_f16 has accepted (so no rounding happens here).
uint16_t f16_bits(double v) {
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    if (a == 0) return sign;
    int exp = 0;
    std::frexp(a, &exp);
    const int e = exp - 1;
    if (e < -14) return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::ldexp(a, 24)));  // subnormal
    const auto mantissa = static_cast<uint16_t>(std::ldexp(a, 10 - e) - 1024.0);
    return static_cast<uint16_t>(sign | ((e + 15) << 10) | mantissa);
}

// alpha or beta in the matmul's scale type.
void store_scale(cudaDataType scale, double v, unsigned char* out) {
    switch (scale) {
        case CUDA_R_16F: {
            const uint16_t h = f16_bits(v);
            std::memcpy(out, &h, sizeof h);
            break;
        }
        case CUDA_R_32I: {
            const auto i = static_cast<int32_t>(v);
            std::memcpy(out, &i, sizeof i);
            break;
        }
        default: {
            const auto f = static_cast<float>(v);
            std::memcpy(out, &f, sizeof f);
            break;
        }
    }
}

template <class T>
void set_desc(const CublasLt& lt, cublasLtMatmulDesc_t op, cublasLtMatmulDescAttributes_t attr, const T& value) {
    CUBLAS_CHECK(lt.cublasLtMatmulDescSetAttribute(op, attr, &value, sizeof value));
}

}  // namespace

CublasGemm::CublasGemm(int device, const spmma_problem& problem, const LtSetup& setup)
    : PaddedGemm(device, problem, kPadMultiple), lt_(require_cublaslt()), setup_(setup) {
    try {
        CUBLAS_CHECK(lt_.cublasLtCreate(&handle_));
        if (setup_.fp8) {
            const float one = 1.0f;
            one_ = cuda::DeviceBuffer(sizeof one);
            one_.upload(&one, sizeof one);
        }
        describe();
        choose_algo();
        workspace_ = cuda::DeviceBuffer(algo_workspace_);
        store_scale(setup_.scale, problem.alpha, alpha_);
        store_scale(setup_.scale, problem.beta, beta_);
    } catch (...) {
        release();  // the destructor does not run for a constructor that throws
        throw;
    }
}

CublasGemm::~CublasGemm() { release(); }

void CublasGemm::release() noexcept {
    if (lt_cd_) lt_.cublasLtMatrixLayoutDestroy(lt_cd_);
    if (lt_b_) lt_.cublasLtMatrixLayoutDestroy(lt_b_);
    if (lt_a_) lt_.cublasLtMatrixLayoutDestroy(lt_a_);
    if (op_) lt_.cublasLtMatmulDescDestroy(op_);
    if (handle_) lt_.cublasLtDestroy(handle_);
    lt_cd_ = lt_b_ = lt_a_ = nullptr;
    op_ = nullptr;
    handle_ = nullptr;
}

void CublasGemm::describe() {
    CUBLAS_CHECK(lt_.cublasLtMatmulDescCreate(&op_, setup_.compute, setup_.scale));
    // NOTES: cuBLASLt is column-major. D row-major m x n is D^T column-major n x m, and
    // D^T = B^T A^T: cuBLASLt's A is our B (column-major k x n, transposed), its B is our A
    // (row-major m x k = column-major k x m, not transposed). That is the "TN" form.
    set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_TRANSA, CUBLAS_OP_T);
    set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_TRANSB, CUBLAS_OP_N);
    if (setup_.fp8) {
        const void* one = dptr(one_);
        set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, one);
        set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, one);
    }
    const auto k = static_cast<uint64_t>(pad_.k), n = static_cast<uint64_t>(pad_.n), m = static_cast<uint64_t>(pad_.m);
    CUBLAS_CHECK(lt_.cublasLtMatrixLayoutCreate(&lt_a_, setup_.b, k, n, pad_.k));
    CUBLAS_CHECK(lt_.cublasLtMatrixLayoutCreate(&lt_b_, setup_.a, k, m, pad_.k));
    CUBLAS_CHECK(lt_.cublasLtMatrixLayoutCreate(&lt_cd_, setup_.cd, n, m, pad_.n));
}

void CublasGemm::choose_algo() {
    cublasLtMatmulPreference_t pref = nullptr;
    CUBLAS_CHECK(lt_.cublasLtMatmulPreferenceCreate(&pref));
    struct Guard {
        const CublasLt& lt;
        cublasLtMatmulPreference_t p;
        ~Guard() { lt.cublasLtMatmulPreferenceDestroy(p); }
    } guard{lt_, pref};
    const uint64_t max_ws = kWorkspaceBytes;
    CUBLAS_CHECK(lt_.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &max_ws, sizeof max_ws));
    // NOTES: a split-k algorithm may add its partial sums in the output type (the "in place"
    // and "output type" reduction schemes): in bf16/f16 that is not the f32 accumulation the
    // problem asks for, so with a 16-bit D and f32 compute only f32 partial sums are allowed.
    const bool f32_compute = setup_.compute == CUBLAS_COMPUTE_32F || setup_.compute == CUBLAS_COMPUTE_32F_FAST_TF32;
    if (f32_compute && (setup_.cd == CUDA_R_16F || setup_.cd == CUDA_R_16BF)) {
        const uint32_t mask = CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
        CUBLAS_CHECK(lt_.cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &mask, sizeof mask));
    }
    cublasLtMatmulHeuristicResult_t result{};
    int returned = 0;
    CUBLAS_CHECK(lt_.cublasLtMatmulAlgoGetHeuristic(handle_, op_, lt_a_, lt_b_, lt_cd_, lt_cd_, pref, 1, &result, &returned));
    if (returned == 0)
        spmma_plugin::unsupported(std::string("unsupported: cuBLASLt has no algorithm for ") + setup_.family->name + " at " +
                                  std::to_string(pad_.m) + "x" + std::to_string(pad_.n) + "x" + std::to_string(pad_.k));
    algo_ = result.algo;
    algo_workspace_ = result.workspaceSize;
    int id = -1;
    size_t written = 0;
    CUBLAS_CHECK(lt_.cublasLtMatmulAlgoConfigGetAttribute(&algo_, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written));
    algo_id_ = id;
}

std::string CublasGemm::kernel_name() const {
    return std::string(setup_.family->name) + "_algo" + std::to_string(algo_id_) + (pad_.padded(problem_) ? "_padded" : "");
}

void CublasGemm::upload(const spmma_operands& ops) {
    context_.make_current();
    std::vector<uint8_t> dense_a = expand_and_check(ops);
    a_ = cuda::DeviceBuffer(dense_a.size());
    a_.upload(dense_a.data(), dense_a.size());
    dense_a = {};
    upload_b_c_d(ops);
    // NOTES: cuMemcpyHtoD from pageable memory may return before its DMA lands, and cuMemset
    // is asynchronous; both run on the legacy stream, which the plugin's non-blocking stream
    // does not wait for. The whole context is synchronized before any launch reads them.
    CU_CHECK(cuda::require_driver().cuCtxSynchronize());
    uploaded_ = true;
}

void CublasGemm::launch(CUstream stream) {
    if (!uploaded_) fail(SPMMA_INVALID_ARGUMENT, "run before upload");
    CUBLAS_CHECK(lt_.cublasLtMatmul(handle_, op_, alpha_, dptr(b_), lt_a_, dptr(a_), lt_b_, beta_, c_or_d(), lt_cd_, dptr(d_), lt_cd_,
                                    &algo_, algo_workspace_ ? dptr(workspace_) : nullptr, algo_workspace_, stream));
}

}  // namespace spmma_cublas

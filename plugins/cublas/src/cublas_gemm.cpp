#include "cublas_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace spmma_cublas {
namespace {

using spmma_baseline::dptr;
using spmma_baseline::host_ms;
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

// The epilogue's part of the plan key: a plan timed without it is not this problem's plan.
std::string epilogue_key(const LtSetup& s) {
    std::string key;
    if (s.alpha_vector) key += " alpha-vector";
    if (s.bias) key += " bias=" + std::to_string(s.bias_type);
    if (s.activation == SPMMA_ACTIVATION_RELU) key += " relu";
    if (s.activation == SPMMA_ACTIVATION_GELU_TANH) key += " gelu";
    return key;
}

template <class T>
void set_desc(const CublasLt& lt, cublasLtMatmulDesc_t op, cublasLtMatmulDescAttributes_t attr, const T& value) {
    CUBLAS_CHECK(lt.cublasLtMatmulDescSetAttribute(op, attr, &value, sizeof value));
}

}  // namespace

CublasGemm::CublasGemm(int device, const spmma_problem& problem, const LtSetup& setup)
    : PaddedGemm(device, problem, kPadMultiple, kPlanFile), lt_(require_cublaslt()), setup_(setup) {
    try {
        CUBLAS_CHECK(lt_.cublasLtCreate(&handle_));
        if (setup_.fp8) {
            const float one = 1.0f;
            one_ = cuda::DeviceBuffer(sizeof one);
            one_.upload(&one, sizeof one);
        }
        // NOTES: an epilogue cuBLASLt declines (an attribute refused, no algorithm) is a refusal
        // with the library's words.
        try {
            create_layouts();
            ask_heuristic();
        } catch (const spmma_plugin::Error& e) {
            const bool epilogue = setup_.alpha_vector || setup_.bias || setup_.activation != SPMMA_ACTIVATION_NONE;
            if (!epilogue || e.status() == SPMMA_OUT_OF_MEMORY) throw;
            spmma_baseline::decline_epilogue("cuBLASLt", e);
        }
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

void CublasGemm::create_layouts() {
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
    set_epilogue();
    const auto k = static_cast<uint64_t>(pad_.k), n = static_cast<uint64_t>(pad_.n), m = static_cast<uint64_t>(pad_.m);
    CUBLAS_CHECK(lt_.cublasLtMatrixLayoutCreate(&lt_a_, setup_.b, k, n, pad_.k));
    CUBLAS_CHECK(lt_.cublasLtMatrixLayoutCreate(&lt_b_, setup_.a, k, m, pad_.k));
    CUBLAS_CHECK(lt_.cublasLtMatrixLayoutCreate(&lt_cd_, setup_.cd, n, m, pad_.n));
}

void CublasGemm::set_epilogue() {
    const bool relu = setup_.activation == SPMMA_ACTIVATION_RELU, gelu = setup_.activation == SPMMA_ACTIVATION_GELU_TANH;
    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    if (setup_.bias) epilogue = relu ? CUBLASLT_EPILOGUE_RELU_BIAS : gelu ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_BIAS;
    else if (relu || gelu) epilogue = relu ? CUBLASLT_EPILOGUE_RELU : CUBLASLT_EPILOGUE_GELU;
    if (epilogue != CUBLASLT_EPILOGUE_DEFAULT) set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue);
    if (setup_.bias) {
        set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, static_cast<int32_t>(setup_.bias_type));
        bias_ = cuda::DeviceBuffer(static_cast<size_t>(pad_.n) * (setup_.bias_type == CUDA_R_32F ? 4 : 2));
        set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<const void*>(dptr(bias_)));
    }
    if (setup_.alpha_vector) {
        // alpha becomes a device vector of one f32 per row of cuBLASLt's D (a column here).
        set_desc(lt_, op_, CUBLASLT_MATMUL_DESC_POINTER_MODE, CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO);
        alpha_vector_ = cuda::DeviceBuffer(static_cast<size_t>(pad_.n) * sizeof(float));
    }
}

void CublasGemm::upload_epilogue(const spmma_operands& ops) {
    const size_t n = static_cast<size_t>(problem_.n), bias_bytes = n * (setup_.bias_type == CUDA_R_32F ? 4 : 2);
    if (setup_.alpha_vector && (!ops.col_scale || ops.col_scale_bytes != n * sizeof(float)))
        fail(SPMMA_INVALID_ARGUMENT, "the column scale has " + std::to_string(ops.col_scale_bytes) + " bytes, " + std::to_string(n * sizeof(float)) + " expected");
    if (setup_.bias && (!ops.bias || ops.bias_bytes != bias_bytes))
        fail(SPMMA_INVALID_ARGUMENT, "the bias has " + std::to_string(ops.bias_bytes) + " bytes, " + std::to_string(bias_bytes) + " expected");
    if (setup_.alpha_vector) {
        std::vector<float> v(static_cast<size_t>(pad_.n), 0.0f);  // padded columns: 0
        for (size_t j = 0; j < n; ++j) v[j] = static_cast<float>(problem_.alpha) * ops.col_scale[j];
        alpha_vector_.upload(v.data(), v.size() * sizeof(float));
    }
    if (setup_.bias) {
        bias_.fill(0);
        bias_.upload(ops.bias, bias_bytes);
    }
}

void CublasGemm::ask_heuristic() {
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
    candidates_.assign(kHeuristicCandidates, cublasLtMatmulHeuristicResult_t{});
    int returned = 0;
    CUBLAS_CHECK(lt_.cublasLtMatmulAlgoGetHeuristic(handle_, op_, lt_a_, lt_b_, lt_cd_, lt_cd_, pref, kHeuristicCandidates,
                                                    candidates_.data(), &returned));
    candidates_.resize(static_cast<size_t>(std::max(returned, 0)));
    if (candidates_.empty())
        spmma_plugin::unsupported(std::string("unsupported: cuBLASLt has no algorithm for ") + setup_.family->name + " at " +
                                  std::to_string(pad_.m) + "x" + std::to_string(pad_.n) + "x" + std::to_string(pad_.k));
}

std::string CublasGemm::kernel_name() const {
    std::string name = setup_.family->name;
    if (picked_) name += "_algo" + std::to_string(config_.id);
    return name + (pad_.padded(problem_) ? "_padded" : "");
}

nlohmann::json CublasGemm::pick_json() const {
    nlohmann::json j = to_json(config_);
    j["name"] = algo_name(config_);
    j["heuristic_rank"] = heuristic_rank_;
    j["workspace_bytes"] = algo_workspace_;
    return j;
}

bool CublasGemm::use(const cublasLtMatmulAlgo_t& algo, std::string& why) {
    cublasLtMatmulHeuristicResult_t checked{};
    const cublasStatus_t st = lt_.cublasLtMatmulAlgoCheck(handle_, op_, lt_a_, lt_b_, lt_cd_, lt_cd_, &algo, &checked);
    if (st != CUBLAS_STATUS_SUCCESS) {
        const char* name = lt_.cublasLtGetStatusName(st);
        why = std::string("cublasLtMatmulAlgoCheck: ") + (name ? name : std::to_string(static_cast<int>(st)));
        return false;
    }
    if (checked.workspaceSize > kWorkspaceBytes) {
        why = "it needs " + std::to_string(checked.workspaceSize) + " bytes of workspace, more than the " + std::to_string(kWorkspaceBytes) +
              " offered";
        return false;
    }
    algo_ = algo;
    algo_workspace_ = checked.workspaceSize;
    config_ = algo_config(lt_, algo);
    heuristic_rank_ = -1;
    for (size_t i = 0; i < candidates_.size(); ++i)
        if (std::equal(std::begin(algo.data), std::end(algo.data), std::begin(candidates_[i].algo.data))) heuristic_rank_ = static_cast<int>(i);
    picked_ = true;
    return true;
}

void CublasGemm::matmul(const cublasLtMatmulAlgo_t& algo, size_t workspace_bytes, CUstream stream) {
    // With the alpha vector, alpha is its device address (beta is 0 in that pointer mode).
    const void* alpha = setup_.alpha_vector ? dptr(alpha_vector_) : static_cast<const void*>(alpha_);
    CUBLAS_CHECK(lt_.cublasLtMatmul(handle_, op_, alpha, dptr(b_), lt_a_, dptr(a_), lt_b_, beta_, c_or_d(), lt_cd_, dptr(d_), lt_cd_,
                                    &algo, workspace_bytes ? dptr(workspace_) : nullptr, workspace_bytes, stream));
}

spmma_baseline::PlanKey CublasGemm::plan_key() const {
    // NOTES: the types as cudaDataType / cublasComputeType_t numbers: the family name says
    // them in words, the numbers tell e4m3 x e5m2 from e5m2 x e4m3 and every output type apart.
    const std::string types = std::string(setup_.family->name) + " a=" + std::to_string(setup_.a) + " b=" + std::to_string(setup_.b) +
                              " cd=" + std::to_string(setup_.cd) + " compute=" + std::to_string(setup_.compute) +
                              " scale=" + std::to_string(setup_.scale) + " workspace<=" + std::to_string(kWorkspaceBytes) +
                              epilogue_key(setup_);
    return {props_.name, props_.arch(), "cuBLASLt " + cublaslt_library().version, pad_.m, pad_.n, pad_.k, types,
            "TN: cuBLASLt A = B^T (k x n, T), B = A^T (k x m, N), C/D column-major n x m"};
}

std::pair<nlohmann::json, nlohmann::json> CublasGemm::search() {
    const auto time = [&](size_t i, int warmup, int launches) {
        const cublasLtMatmulHeuristicResult_t& c = candidates_[i];
        return time_launches(warmup, launches, [&] { matmul(c.algo, c.workspaceSize, stream_.get()); });
    };
    const auto name = [&](size_t i) {
        std::string s = algo_name(algo_config(lt_, candidates_[i].algo));
        s += " (heuristic #";
        s += std::to_string(i);
        return s + ")";
    };
    spmma_baseline::CandidateSearch s(time, name);
    std::vector<size_t> all(candidates_.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    s.screen(all);
    const spmma_baseline::SearchOutcome o = s.finish();
    std::string why;
    if (!use(candidates_[o.best].algo, why)) fail(SPMMA_DEVICE_ERROR, "the fastest of cuBLASLt's answers does not check: " + why);
    nlohmann::json how = o.to_json(name);
    how["heuristic_answers"] = candidates_.size();
    return {algo_to_plan(algo_, config_), how};
}

bool CublasGemm::apply_plan(const nlohmann::json& plan, std::string& why) {
    const auto algo = algo_from_plan(plan, why);
    return algo && use(*algo, why);
}

void CublasGemm::prepare_a(const spmma_operands& ops) {
    expand_and_check(ops, a_);
    if (!workspace_.size()) workspace_ = cuda::DeviceBuffer(kWorkspaceBytes);
    upload_epilogue(ops);
}

void CublasGemm::launch_plan(CUstream stream) { matmul(algo_, algo_workspace_, stream); }

}  // namespace spmma_cublas

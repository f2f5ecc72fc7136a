// What a vendor-library baseline's Gemm does apart from the library itself: every size
// zero-padded up to a multiple, A expanded to dense on the host, B and C uploaded zero-padded,
// D allocated zeroed and cropped back to m x n on download; and the plan: chosen through the
// plan cache or a timed search (plan_choice.hpp, candidate_search.hpp), said in describe().
// Header-only: it needs the CUDA plugin helpers (spmma_plugin_cuda), and
// spmma_baseline_support is built without CUDA.
#pragma once

#include <spmma_baseline/candidate_search.hpp>
#include <spmma_baseline/dense_operands.hpp>
#include <spmma_baseline/host_clock.hpp>
#include <spmma_baseline/plan_choice.hpp>
#include <spmma_plugin/cuda_gemm.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace spmma_baseline {

// A device buffer's address as the pointer a vendor library takes.
inline void* dptr(const spmma_plugin::cuda::DeviceBuffer& b) { return reinterpret_cast<void*>(static_cast<uintptr_t>(b.get())); }

// An epilogue the plugin mapped that the library will not take (an attribute refused, no plan
// or algorithm for it): a refusal in the library's words, thrown from the GEMM's constructor.
[[noreturn]] inline void decline_epilogue(const char* library, const spmma_plugin::Error& e) {
    std::string what = e.what();
    if (what.rfind("unsupported: ", 0) == 0) what.erase(0, 13);
    spmma_plugin::unsupported(std::string("unsupported: ") + library + " declines this epilogue: " + what);
}

class PaddedGemm : public spmma_plugin::cuda::CudaGemm {
public:
    // D cropped from the padded one, after the stream has finished.
    void download(void* d, size_t bytes) override;
    // {"pick": pick_json(), the plan choice's fields (plan_choice.hpp), "prepare_ms"}.
    std::string describe() const override;
    // A in the library's form (prepare_a), B, C and D (upload_b_c_d), the context synchronized,
    // then the plan (choose, with the plugin's plan_key, apply_plan and search); prepare_ms_ counts the
    // plan's choice and what prepare_a adds.
    void upload(const spmma_operands& ops) final;

protected:
    // Every size padded up to a multiple of pad_multiple; plans cached in the file `plan_file`
    // of spmma's cache folder.
    PaddedGemm(int device, const spmma_problem& problem, int64_t pad_multiple, const char* plan_file);

    // A on the device as the library takes it: expand_and_check, then what the library does
    // with the dense A (its own compression, say).
    virtual void prepare_a(const spmma_operands& ops) = 0;
    // The plan cache's key of this problem.
    virtual PlanKey plan_key() const = 0;
    // The plugin's state built from a stored plan; false, with why, when that fails.
    virtual bool apply_plan(const nlohmann::json& plan, std::string& why) = 0;
    // The plugin's timed search, its state left on the pick: {the pick as stored, how it was found}.
    virtual std::pair<nlohmann::json, nlohmann::json> search() = 0;
    // One launch of the chosen plan on `stream`.
    virtual void launch_plan(CUstream stream) = 0;
    void launch(CUstream stream) final {
        if (!uploaded_) spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, "run before upload");
        launch_plan(stream);
    }

    // B's and C's sizes checked (read_c_ set), then A expanded to dense pad_.m x pad_.k on the
    // device (only the compressed form crosses the bus); throws Error(SPMMA_INVALID_ARGUMENT)
    // naming what is wrong.
    void expand_and_check(const spmma_operands& ops, spmma_plugin::cuda::DeviceBuffer& dense_a);
    // B zero-padded into b_, d_ zeroed, C zero-padded into c_ when it is read (c_ empty when not).
    // Pageable copies and memsets on the legacy stream: synchronize the context before a launch.
    void upload_b_c_d(const spmma_operands& ops);
    // beta == 0: C is not read; the libraries still want a pointer, D's (C and D share a layout).
    const void* c_or_d() const { return read_c_ ? dptr(c_) : dptr(d_); }
    // D padded to pad_.n columns on the device.
    spmma_plugin::cuda::DeviceMatrix d_matrix() const override { return {d_.get(), static_cast<size_t>(pad_.n * d_bytes_)}; }

    // The device times of `launches` launches of f on the plugin's stream after `warmup`
    // untimed ones (CUDA events around each): what CandidateSearch times a candidate with.
    template <class F>
    std::vector<float> time_launches(int warmup, int launches, F&& f) {
        std::vector<float> t(static_cast<size_t>(launches));
        spmma_plugin::cuda::timed_runs(stream_, warmup, launches, t.data(), [] {}, std::forward<F>(f));
        return t;
    }
    // The plan for key through the cache file `file_name` (SPMMA_PLAN_CACHE, SPMMA_CACHE_DIR),
    // kept in choice_. A bad setting fails as SPMMA_INVALID_ARGUMENT, a search in which no
    // candidate ran as SPMMA_DEVICE_ERROR with the candidates' errors.
    void choose(const PlanKey& key, const char* file_name, const PlanSource& source);
    // What describe() says the plan is (the plugin's readable form of its choice).
    virtual nlohmann::json pick_json() const = 0;

    PaddedSizes pad_;
    int b_bytes_, d_bytes_;  // element sizes (C has D's type)
    spmma_plugin::cuda::DeviceBuffer b_, c_, d_;
    bool read_c_ = false;
    bool uploaded_ = false;
    PlanChoice choice_;
    double prepare_ms_ = 0;  // expansion, packing and plan choice inside upload

private:
    const char* plan_file_;
};

inline PaddedGemm::PaddedGemm(int device, const spmma_problem& problem, int64_t pad_multiple, const char* plan_file)
    : CudaGemm(device, problem),
      pad_(pad_sizes(problem, pad_multiple, pad_multiple, pad_multiple)),
      b_bytes_(element_bytes(problem.b_type)),
      d_bytes_(element_bytes(problem.d_type)),
      plan_file_(plan_file) {}

inline void PaddedGemm::upload(const spmma_operands& ops) {
    context_.make_current();
    uploaded_ = false;
    prepare_ms_ = 0;
    prepare_a(ops);
    upload_b_c_d(ops);
    // NOTES: cuMemcpyHtoD from pageable memory may return before its DMA lands, and cuMemset
    // is asynchronous; both run on the legacy stream, which the plugin's non-blocking stream
    // does not wait for. The whole context is synchronized before any launch reads them.
    CU_CHECK(spmma_plugin::cuda::require_driver().cuCtxSynchronize());
    const double t1 = host_ms();
    const PlanSource source{[this](const nlohmann::json& plan, std::string& why) { return apply_plan(plan, why); },
                            [this] { return search(); }};
    choose(plan_key(), plan_file_, source);
    prepare_ms_ += host_ms() - t1;
    uploaded_ = true;
}

inline void PaddedGemm::expand_and_check(const spmma_operands& ops, spmma_plugin::cuda::DeviceBuffer& dense_a) {
    try {
        read_c_ = check_b_and_c(problem_, ops);
    } catch (const std::invalid_argument& e) {
        spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, e.what());
    }
    expand_a_on_device(ops, dense_a, pad_.m, pad_.k);
}

inline void PaddedGemm::upload_b_c_d(const spmma_operands& ops) {
    namespace cuda = spmma_plugin::cuda;
    const spmma_problem& p = problem_;
    // B column-major k x n is row-major n x k: pad its rows to k_p and add zero rows up to n_p.
    b_ = cuda::DeviceBuffer(static_cast<size_t>(pad_.n * pad_.k * b_bytes_));
    if (pad_.n == p.n && pad_.k == p.k) {
        b_.upload(ops.b, static_cast<size_t>(p.k * p.n * b_bytes_));
    } else {
        const auto padded = pad_matrix(ops.b, b_bytes_, p.n, p.k, pad_.n, pad_.k);
        b_.upload(padded.data(), padded.size());
    }
    const size_t d_padded = static_cast<size_t>(pad_.m * pad_.n * d_bytes_);
    d_ = cuda::DeviceBuffer(d_padded);
    d_.fill(0);
    c_ = cuda::DeviceBuffer();
    if (read_c_) {
        c_ = cuda::DeviceBuffer(d_padded);
        if (pad_.m == p.m && pad_.n == p.n) {
            c_.upload(ops.c, static_cast<size_t>(p.m * p.n * d_bytes_));
        } else {
            const auto padded = pad_matrix(ops.c, d_bytes_, p.m, p.n, pad_.m, pad_.n);
            c_.upload(padded.data(), padded.size());
        }
    }
}

inline void PaddedGemm::choose(const PlanKey& key, const char* file_name, const PlanSource& source) {
    CacheSettings settings;
    try {
        settings = cache_settings(file_name);
    } catch (const std::invalid_argument& e) {
        spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, e.what());
    }
    try {
        choice_ = choose_plan(key, settings, source);
    } catch (const spmma_plugin::Error&) {
        throw;
    } catch (const std::runtime_error& e) {
        spmma_plugin::fail(SPMMA_DEVICE_ERROR, std::string("the plan search found nothing that runs: ") + e.what());
    }
}

inline std::string PaddedGemm::describe() const {
    if (!uploaded_) return "{}";
    nlohmann::json j = choice_.notes();
    j["pick"] = pick_json();
    j["prepare_ms"] = prepare_ms_;
    return j.dump();
}

inline void PaddedGemm::download(void* d, size_t bytes) {
    const spmma_problem& p = problem_;
    if (!uploaded_) spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, "download before upload");
    const size_t expected = static_cast<size_t>(p.m * p.n * d_bytes_);
    if (bytes != expected)
        spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, "D buffer has " + std::to_string(bytes) + " bytes, expected " + std::to_string(expected));
    context_.make_current();
    stream_.synchronize();
    if (pad_.m == p.m && pad_.n == p.n) {
        d_.download(d, bytes);
        return;
    }
    std::vector<uint8_t> padded(d_.size());
    d_.download(padded.data(), padded.size());
    crop_matrix(padded.data(), d_bytes_, pad_.m, pad_.n, d, p.m, p.n);
}

}  // namespace spmma_baseline

#include <spmma_plugin/backend.hpp>

#include <cstring>
#include <vector>

struct spmma_handle {
    std::unique_ptr<spmma_plugin::Gemm> gemm;
};

namespace spmma_plugin {
namespace {

Backend* g_backend = nullptr;

Backend& backend() {
    if (!g_backend) fail(SPMMA_INTERNAL_ERROR, "plugin used before spmma_plugin_entry");
    return *g_backend;
}

spmma_handle& handle_ref(spmma_handle* h) {
    if (!h || !h->gemm) fail(SPMMA_INVALID_ARGUMENT, "null handle");
    return *h;
}

spmma_status get_info(spmma_plugin_info* out) {
    return guarded([&] {
        spmma_plugin_info info = backend().info();
        info.flags |= backend().capabilities();
        copy_out(out, info);
    });
}

int32_t device_count() {
    int32_t n = 0;
    guarded([&] { n = backend().device_count(); });
    return n;
}

spmma_status probe(int32_t device, spmma_device_info* out) {
    return guarded([&] { backend().probe(device, out); });
}

int32_t kernel_count() {
    int32_t n = 0;
    guarded([&] { n = static_cast<int32_t>(backend().kernels().size()); });
    return n;
}

spmma_status get_kernel(int32_t index, spmma_kernel_info* out) {
    return guarded([&] {
        const auto ks = backend().kernels();
        if (index < 0 || static_cast<size_t>(index) >= ks.size())
            fail(SPMMA_INVALID_ARGUMENT, "kernel index " + std::to_string(index) + " out of range");
        copy_out(out, ks[static_cast<size_t>(index)]);
    });
}

spmma_status supports(int32_t device, const spmma_problem* problem, const char* kernel, char* reason, size_t size) {
    const spmma_status st = guarded([&] {
        const spmma_problem p = copy_in(problem);
        check_problem_basics(p);
        if (kernel && !find_kernel(backend().kernels(), kernel)) unsupported(std::string("no kernel named ") + kernel);
        backend().check_supported(device, p, kernel);
    });
    write_string(reason, size, st == SPMMA_OK ? std::string() : last_error_message());
    return st;
}

spmma_status create(int32_t device, const spmma_problem* problem, const char* kernel, spmma_handle** out) {
    return guarded([&] {
        if (!out) fail(SPMMA_INVALID_ARGUMENT, "null handle pointer");
        *out = nullptr;
        const spmma_problem p = copy_in(problem);
        check_problem_basics(p);
        if (kernel && !find_kernel(backend().kernels(), kernel)) fail(SPMMA_INVALID_ARGUMENT, std::string("no kernel named ") + kernel);
        backend().check_supported(device, p, kernel);
        auto h = std::make_unique<spmma_handle>();
        h->gemm = backend().create(device, p, kernel);
        *out = h.release();
    });
}

spmma_status handle_kernel(const spmma_handle* h, char* name, size_t size) {
    return guarded([&] {
        if (!h || !h->gemm) fail(SPMMA_INVALID_ARGUMENT, "null handle");
        write_string(name, size, h->gemm->kernel_name());
    });
}

spmma_status upload(spmma_handle* h, const spmma_operands* operands) {
    return guarded([&] {
        const spmma_operands ops = copy_in(operands);
        handle_ref(h).gemm->upload(ops);
    });
}

spmma_status run(spmma_handle* h, const spmma_run_config* config) {
    return guarded([&] {
        const spmma_run_config c = copy_in(config);
        if (c.iterations < 0 || c.warmup < 0) fail(SPMMA_INVALID_ARGUMENT, "negative warm-up or iteration count");
        if (c.iterations > 0 && !c.times_ms) fail(SPMMA_INVALID_ARGUMENT, "null times_ms");
        handle_ref(h).gemm->run(c.warmup, c.iterations, c.times_ms, c.flags);
    });
}

spmma_status download(spmma_handle* h, void* d, size_t bytes) {
    return guarded([&] {
        if (!d) fail(SPMMA_INVALID_ARGUMENT, "null D buffer");
        handle_ref(h).gemm->download(d, bytes);
    });
}

spmma_status download_elements(spmma_handle* h, const int64_t* indices, size_t count, void* values, size_t bytes) {
    return guarded([&] {
        if (count > 0 && (!indices || !values)) fail(SPMMA_INVALID_ARGUMENT, "null index or value buffer");
        handle_ref(h).gemm->download_elements(indices, count, values, bytes);
    });
}

spmma_status describe_handle(const spmma_handle* h, char* json, size_t size) {
    return guarded([&] {
        if (!h || !h->gemm) fail(SPMMA_INVALID_ARGUMENT, "null handle");
        if (!json || size == 0) fail(SPMMA_INVALID_ARGUMENT, "null JSON buffer");
        write_string(json, size, h->gemm->describe());
    });
}

void destroy(spmma_handle* h) {
    guarded([&] { delete h; });
}

size_t last_error(char* buffer, size_t size) { return copy_last_error(buffer, size); }

}  // namespace

const spmma_plugin_api* make_api(Backend& b) {
    g_backend = &b;
    static const spmma_plugin_api api = {
        sizeof(spmma_plugin_api), SPMMA_ABI_MAJOR, SPMMA_ABI_MINOR, 0,
        get_info, device_count, probe, kernel_count, get_kernel, supports, create, handle_kernel,
        upload, run, download, destroy, last_error, download_elements, describe_handle,
    };
    return &api;
}

void check_problem_basics(const spmma_problem& p) {
    if (p.m <= 0 || p.n <= 0 || p.k <= 0)
        fail(SPMMA_INVALID_ARGUMENT, "m, n and k must be positive (got " + std::to_string(p.m) + "x" +
                                         std::to_string(p.n) + "x" + std::to_string(p.k) + ")");
    const int g = spmma_pattern_group(p.pattern);
    if (g == 0) fail(SPMMA_INVALID_ARGUMENT, "no sparsity pattern given");
    if (p.k % g != 0)
        unsupported("unsupported: k must be a multiple of " + std::to_string(g) + " for the " +
                    spmma_pattern_name(p.pattern) + " pattern (k = " + std::to_string(p.k) + ")");
}

void Gemm::download_elements(const int64_t* indices, size_t count, void* values, size_t values_bytes) {
    const spmma_problem& p = problem_;
    const size_t eb = static_cast<size_t>(spmma_dtype_storage_bits(p.d_type) / 8);
    if (eb == 0) fail(SPMMA_INVALID_ARGUMENT, "D has no element type");
    if (values_bytes != count * eb)
        fail(SPMMA_INVALID_ARGUMENT, "value buffer has " + std::to_string(values_bytes) + " bytes, " + std::to_string(count * eb) + " expected");
    const int64_t total = p.m * p.n;
    for (size_t x = 0; x < count; ++x)
        if (indices[x] < 0 || indices[x] >= total)
            fail(SPMMA_INVALID_ARGUMENT, "element index " + std::to_string(indices[x]) + " outside D (" + std::to_string(total) + " elements)");
    std::vector<uint8_t> d(static_cast<size_t>(total) * eb);
    download(d.data(), d.size());
    auto* out = static_cast<uint8_t*>(values);
    for (size_t x = 0; x < count; ++x) std::memcpy(out + x * eb, d.data() + static_cast<size_t>(indices[x]) * eb, eb);
}

const spmma_kernel_info* find_kernel(std::span<const spmma_kernel_info> kernels, const char* name) {
    for (const auto& k : kernels)
        if (std::strcmp(k.name, name) == 0) return &k;
    return nullptr;
}

}  // namespace spmma_plugin

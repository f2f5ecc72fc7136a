// A plugin written in C++ implements Backend (and Gemm for a created problem); make_api turns it
// into the C function table, with every call guarded at the boundary. One place for the glue.
#pragma once

#include <spmma_plugin/boundary.hpp>

#include <memory>
#include <span>
#include <string>

namespace spmma_plugin {

// One created problem on one device.
class Gemm {
public:
    virtual ~Gemm() = default;
    virtual std::string kernel_name() const = 0;
    // Reorders the canonical operands into the kernel's layout and keeps them (device side).
    virtual void upload(const spmma_operands& operands) = 0;
    // Warm-up launches, then one timed launch per iteration; flags are SPMMA_RUN_* (a plugin
    // that does not declare a capability ignores its flag).
    virtual void run(int warmup, int iterations, float* times_ms, uint32_t flags) = 0;
    // D in the canonical layout (d_type, row-major m x n).
    virtual void download(void* d, size_t bytes) = 0;
    // Elements of D at row-major indices, packed in D's type. The default downloads all of D
    // and picks; a device plugin gathers on the device (CudaGemm).
    virtual void download_elements(const int64_t* indices, size_t count, void* values, size_t values_bytes);
    // A JSON object for the record (ABI.md, describe_handle): how the plan was chosen, etc.
    virtual std::string describe() const { return "{}"; }

protected:
    explicit Gemm(const spmma_problem& problem) : problem_(problem) {}
    spmma_problem problem_;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual spmma_plugin_info info() const = 0;
    virtual int device_count() const = 0;
    virtual void probe(int device, spmma_device_info* out) const = 0;
    virtual std::span<const spmma_kernel_info> kernels() const = 0;
    // Throws unsupported(reason) when `kernel` (nullptr: any) cannot run `problem` on `device`.
    virtual void check_supported(int device, const spmma_problem& problem, const char* kernel) const = 0;
    virtual std::unique_ptr<Gemm> create(int device, const spmma_problem& problem, const char* kernel) = 0;
    // SPMMA_PLUGIN_* capability flags added to info().flags (FLUSHES_L2 for device plugins).
    virtual uint32_t capabilities() const { return 0; }
};

// The description of an in-tree plugin (vendor "spmma"); the strings must live as long as the
// plugin (literals).
constexpr spmma_plugin_info plugin_info(const char* name, const char* target, const char* description,
                                        const char* version = "0.1.0") {
    return spmma_plugin_info{sizeof(spmma_plugin_info), 0, name, "spmma", version, target, description};
}

// The C table for `backend` (which must outlive the plugin's use: a function-local static).
const spmma_plugin_api* make_api(Backend& backend);

// Checks for problems and kernel names that every backend shares (positive sizes, a known
// kernel name, struct_size); throws like check_supported.
void check_problem_basics(const spmma_problem& p);
const spmma_kernel_info* find_kernel(std::span<const spmma_kernel_info> kernels, const char* name);

}  // namespace spmma_plugin

// Defines the entry symbol for a plugin whose backend is returned by `get_backend()`.
#define SPMMA_DEFINE_PLUGIN(get_backend)                                         \
    extern "C" SPMMA_EXPORT const spmma_plugin_api* spmma_plugin_entry(void) {   \
        return ::spmma_plugin::make_api(get_backend());                          \
    }

// Defines the entry symbol for a plugin whose backend is one default-constructed BackendType,
// made on first use (at global scope).
#define SPMMA_DEFINE_PLUGIN_BACKEND(BackendType)                                 \
    extern "C" SPMMA_EXPORT const spmma_plugin_api* spmma_plugin_entry(void) {   \
        static BackendType backend;                                              \
        return ::spmma_plugin::make_api(backend);                                \
    }

// The CUDA driver API for plugins, loaded at run time from libcuda.so.1 so that a plugin loads
// (and says "no CUDA driver") on a machine without one. Every call goes through CU_CHECK, which
// throws an spmma_plugin::Error naming file, line, the call and the driver's error.
#pragma once

#include <spmma_plugin/boundary.hpp>

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spmma_plugin::cuda {

// The driver entry points spmma uses, resolved with cuGetProcAddress for this header's
// CUDA_VERSION (so each member has the ABI of the declaration it is typed after).
struct Driver {
#define SPMMA_CU_FN(name) decltype(&::name) name = nullptr;
#include <spmma_plugin/cuda_driver_functions.inc>
#undef SPMMA_CU_FN
};

// The loaded driver, or nullptr with the reason when there is none (no libcuda, cuInit failed).
const Driver* driver(std::string* why_not = nullptr);
// The loaded driver; throws Error(SPMMA_UNSUPPORTED, reason) when there is none.
const Driver& require_driver();

std::string error_text(CUresult r);
[[noreturn]] void throw_cu_error(CUresult r, const char* call, const char* file, int line);

#define CU_CHECK(call)                                                                   \
    do {                                                                                 \
        const CUresult spmma_cu_result_ = (call);                                        \
        if (spmma_cu_result_ != CUDA_SUCCESS)                                            \
            ::spmma_plugin::cuda::throw_cu_error(spmma_cu_result_, #call, __FILE__, __LINE__); \
    } while (0)

// ---- devices -------------------------------------------------------------------------------
struct DeviceProperties {
    std::string name;
    int major = 0, minor = 0;
    int sm_count = 0;
    int max_smem_per_block_optin = 0;
    int l2_bytes = 0;
    int sm_clock_khz = 0;       // the SMs' peak clock
    int mem_clock_khz = 0;      // the memory's peak clock (a transfer on each edge)
    int mem_bus_bits = 0;       // the memory bus width
    int driver_version = 0;
    std::string uuid;        // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as NVML prints it
    std::string pci_bus_id;  // "0000:18:00.0"
    std::string arch() const { return "sm_" + std::to_string(major * 10 + minor); }
    // DRAM bytes per second at the memory's peak clock: two transfers per clock, bus width / 8 each.
    double dram_bytes_per_s() const { return 2.0 * mem_clock_khz * 1e3 * mem_bus_bits / 8.0; }
};

int device_count();  // 0 when there is no driver
std::string uuid_text(const CUuuid& id);
DeviceProperties device_properties(int ordinal);

// Fills `info` for a plugin whose code runs on devices accepted by `runs_here` (which returns
// an empty string or the reason it cannot run).
template <class Pred>
void probe_device(int ordinal, spmma_device_info* info, Pred runs_here);

// ---- resources (RAII) ----------------------------------------------------------------------

// The device's primary context, retained for the object's life and made current.
class Context {
public:
    explicit Context(int ordinal);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    void make_current() const;
    CUdevice device() const { return dev_; }

private:
    CUdevice dev_{};
    CUcontext ctx_{};
};

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, 0)), bytes_(std::exchange(o.bytes_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    CUdeviceptr get() const { return ptr_; }
    size_t size() const { return bytes_; }
    void upload(const void* host, size_t bytes, size_t offset = 0);
    void download(void* host, size_t bytes, size_t offset = 0) const;
    void fill(uint8_t byte);
    // The buffer's address as a kernel parameter's pointer type.
    template <class T = void>
    T* as() const { return reinterpret_cast<T*>(static_cast<uintptr_t>(ptr_)); }

private:
    CUdeviceptr ptr_ = 0;
    size_t bytes_ = 0;
};

// A new device buffer holding a copy of host memory (a packed operand).
DeviceBuffer to_device(const void* host, size_t bytes);
template <class T>
DeviceBuffer to_device(const std::vector<T>& host) {
    return to_device(host.data(), host.size() * sizeof(T));
}

// A module loaded from an embedded fatbin image.
class Module {
public:
    explicit Module(const void* image);
    ~Module();
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    CUfunction function(const char* name) const;

private:
    CUmodule mod_{};
};

class Stream {
public:
    Stream();
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    CUstream get() const { return s_; }
    void synchronize() const;

private:
    CUstream s_{};
};

// An event without timing, to order one stream after work enqueued on another.
class Event {
public:
    Event();
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    // Marks what `on` has enqueued so far; `waiter` runs nothing enqueued after this call until
    // that has finished.
    void record(CUstream on) const;
    void make_wait(CUstream waiter) const;

private:
    CUevent e_{};
};

// Launches `launch` warmup + iterations times on `stream`, timing each timed launch with a
// pair of events; fills times_ms. `flush` runs before each timed launch, outside its events
// (the L2 flush, or nothing). Checks for errors after the warm-up and at the end.
template <class Flush, class Launch>
void timed_runs(const Stream& stream, int warmup, int iterations, float* times_ms, Flush&& flush, Launch&& launch);

void record_times(const Stream& stream, int iterations, float* times_ms, const std::vector<CUevent>& events);

// ---- launch --------------------------------------------------------------------------------
struct LaunchShape {
    unsigned grid[3] = {1, 1, 1};
    unsigned block[3] = {1, 1, 1};
    unsigned cluster[3] = {1, 1, 1};
    unsigned smem_bytes = 0;
};

// Launches f with the argument pointers `args` (cuLaunchKernelEx when a cluster is set).
void launch(CUfunction f, const LaunchShape& shape, CUstream stream, void** args);
// Launches f on a 1-D grid of `ctas` CTAs of `threads` with `smem_bytes` of dynamic shared
// memory, its one parameter `params` (a kernel that takes one struct by value).
template <class Params>
void launch_1d(CUfunction f, unsigned ctas, unsigned threads, unsigned smem_bytes, CUstream stream, Params& params) {
    LaunchShape s;
    s.grid[0] = ctas;
    s.block[0] = threads;
    s.smem_bytes = smem_bytes;
    void* args[] = {&params};
    launch(f, s, stream, args);
}

// Raises f's dynamic shared memory limit to `bytes` (needed above 48 KiB).
void set_max_dynamic_smem(CUfunction f, unsigned bytes);

// How many clusters of `shape` (its cluster, block and shared memory; grid[0] a multiple of the
// cluster) can be resident at once (cuOccupancyMaxActiveClusters): what a persistent grid may hold.
int max_active_clusters(CUfunction f, const LaunchShape& shape);

// ---- template definitions ------------------------------------------------------------------
template <class Pred>
void probe_device(int ordinal, spmma_device_info* out, Pred runs_here) {
    spmma_device_info info{};
    info.struct_size = sizeof info;
    std::string why;
    if (!driver(&why)) {
        write_string(info.name, sizeof info.name, "no GPU");
        write_string(info.reason, sizeof info.reason, "no GPU: " + why);
    } else if (ordinal < 0 || ordinal >= device_count()) {
        write_string(info.name, sizeof info.name, "no GPU");
        write_string(info.reason, sizeof info.reason,
                     "no GPU: device " + std::to_string(ordinal) + " does not exist (" +
                         std::to_string(device_count()) + " CUDA devices)");
    } else {
        const DeviceProperties p = device_properties(ordinal);
        write_string(info.name, sizeof info.name, p.name);
        write_string(info.arch, sizeof info.arch, p.arch());
        write_string(info.driver, sizeof info.driver,
                     std::to_string(p.driver_version / 1000) + "." + std::to_string(p.driver_version % 1000 / 10));
        write_string(info.uuid, sizeof info.uuid, p.uuid);
        write_string(info.pci_bus_id, sizeof info.pci_bus_id, p.pci_bus_id);
        info.sm_count = p.sm_count;
        info.sm_clock_khz = p.sm_clock_khz;
        info.mem_clock_khz = p.mem_clock_khz;
        info.mem_bus_bits = p.mem_bus_bits;
        const std::string reason = runs_here(p);
        info.runnable = reason.empty() ? 1 : 0;
        write_string(info.reason, sizeof info.reason, reason);
    }
    copy_out(out, info);
}

template <class Flush, class Launch>
void timed_runs(const Stream& stream, int warmup, int iterations, float* times_ms, Flush&& flush, Launch&& launch) {
    const Driver& d = require_driver();
    for (int i = 0; i < warmup; ++i) launch();
    stream.synchronize();
    std::vector<CUevent> events(2 * static_cast<size_t>(iterations));
    struct Guard {
        const Driver& d;
        std::vector<CUevent>& ev;
        ~Guard() {
            for (CUevent e : ev)
                if (e) d.cuEventDestroy(e);
        }
    } guard{d, events};
    for (auto& e : events) CU_CHECK(d.cuEventCreate(&e, CU_EVENT_DEFAULT));
    for (int i = 0; i < iterations; ++i) {
        flush();
        CU_CHECK(d.cuEventRecord(events[2 * i], stream.get()));
        launch();
        CU_CHECK(d.cuEventRecord(events[2 * i + 1], stream.get()));
    }
    record_times(stream, iterations, times_ms, events);
}

}  // namespace spmma_plugin::cuda

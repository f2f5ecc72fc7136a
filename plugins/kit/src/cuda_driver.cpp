#include <spmma_plugin/cuda_driver.hpp>

#include <dlfcn.h>

#include <mutex>

namespace spmma_plugin::cuda {
namespace {

struct Loaded {
    Driver fns;
    bool ok = false;
    std::string why_not;
};

// NOTES: each entry point is looked up by the exact symbol its declaration in cuda.h names
// (the header's macros map cuMemAlloc to cuMemAlloc_v2 and so on), so every member has the ABI
// of the declaration it is typed after. cuGetProcAddress with the header's CUDA_VERSION would
// hand back the newest variant instead, whose signature may differ (cuCtxSynchronize_v2 takes
// a context).
#define SPMMA_STR(x) #x
#define SPMMA_SYMBOL(x) SPMMA_STR(x)
Loaded load_driver() {
    Loaded l;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* e = dlerror();
        l.why_not = std::string("CUDA driver not found (") + (e ? e : "libcuda.so.1") + ")";
        return l;
    }
    std::string missing;
    auto load = [&](const char* symbol, auto* member) {
        void* p = dlsym(lib, symbol);
        if (!p) {
            missing += missing.empty() ? symbol : std::string(", ") + symbol;
            return;
        }
        *member = reinterpret_cast<std::remove_reference_t<decltype(*member)>>(p);
    };
#define SPMMA_CU_FN(name) load(SPMMA_SYMBOL(name), &l.fns.name);
#include <spmma_plugin/cuda_driver_functions.inc>
#undef SPMMA_CU_FN
    if (!missing.empty()) {
        l.why_not = "the CUDA driver lacks " + missing;
        return l;
    }
    const CUresult r = l.fns.cuInit(0);
    if (r != CUDA_SUCCESS) {
        const char* n = nullptr;
        l.fns.cuGetErrorName(r, &n);
        l.why_not = std::string("cuInit failed: ") + (n ? n : "unknown error");
        return l;
    }
    l.ok = true;
    return l;
}

const Loaded& loaded() {
    static const Loaded l = load_driver();
    return l;
}

}  // namespace

const Driver* driver(std::string* why_not) {
    const Loaded& l = loaded();
    if (!l.ok) {
        if (why_not) *why_not = l.why_not;
        return nullptr;
    }
    return &l.fns;
}

const Driver& require_driver() {
    std::string why;
    const Driver* d = driver(&why);
    if (!d) unsupported("no GPU: " + why);
    return *d;
}

std::string error_text(CUresult r) {
    const Driver* d = driver();
    const char* n = nullptr;
    const char* s = nullptr;
    if (d) {
        d->cuGetErrorName(r, &n);
        d->cuGetErrorString(r, &s);
    }
    return std::string(n ? n : "CUDA error " + std::to_string(static_cast<int>(r))) + (s ? std::string(" (") + s + ")" : "");
}

void throw_cu_error(CUresult r, const char* call, const char* file, int line) {
    const spmma_status st = r == CUDA_ERROR_OUT_OF_MEMORY ? SPMMA_OUT_OF_MEMORY : SPMMA_DEVICE_ERROR;
    fail(st, std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + error_text(r));
}

std::string uuid_text(const CUuuid& id) {
    // NOTES: NVML's form, so that records and nvmlDeviceGetHandleByUUID agree: GPU- and the
    // 16 bytes as 8-4-4-4-12 hex digits.
    std::string s = "GPU-";
    static const char* hex = "0123456789abcdef";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        const auto b = static_cast<unsigned char>(id.bytes[i]);
        s += hex[b >> 4];
        s += hex[b & 15];
    }
    return s;
}

int device_count() {
    const Driver* d = driver();
    if (!d) return 0;
    int n = 0;
    if (d->cuDeviceGetCount(&n) != CUDA_SUCCESS) return 0;
    return n;
}

DeviceProperties device_properties(int ordinal) {
    const Driver& d = require_driver();
    CUdevice dev{};
    CU_CHECK(d.cuDeviceGet(&dev, ordinal));
    DeviceProperties p;
    char name[256] = {};
    CU_CHECK(d.cuDeviceGetName(name, sizeof name, dev));
    p.name = name;
    CU_CHECK(d.cuDeviceGetAttribute(&p.major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU_CHECK(d.cuDeviceGetAttribute(&p.minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CU_CHECK(d.cuDeviceGetAttribute(&p.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CU_CHECK(d.cuDeviceGetAttribute(&p.max_smem_per_block_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
    CU_CHECK(d.cuDeviceGetAttribute(&p.l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
    CU_CHECK(d.cuDeviceGetAttribute(&p.sm_clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev));
    CU_CHECK(d.cuDeviceGetAttribute(&p.mem_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, dev));
    CU_CHECK(d.cuDeviceGetAttribute(&p.mem_bus_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev));
    CU_CHECK(d.cuDriverGetVersion(&p.driver_version));
    CUuuid id{};
    CU_CHECK(d.cuDeviceGetUuid(&id, dev));
    p.uuid = uuid_text(id);
    char bus[32] = {};
    CU_CHECK(d.cuDeviceGetPCIBusId(bus, sizeof bus, dev));
    p.pci_bus_id = bus;
    return p;
}

// ---- Context -------------------------------------------------------------------------------
Context::Context(int ordinal) {
    const Driver& d = require_driver();
    CU_CHECK(d.cuDeviceGet(&dev_, ordinal));
    CU_CHECK(d.cuDevicePrimaryCtxRetain(&ctx_, dev_));
    make_current();
}

Context::~Context() {
    if (ctx_) require_driver().cuDevicePrimaryCtxRelease(dev_);
}

void Context::make_current() const { CU_CHECK(require_driver().cuCtxSetCurrent(ctx_)); }

// ---- DeviceBuffer --------------------------------------------------------------------------
DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes) CU_CHECK(require_driver().cuMemAlloc(&ptr_, bytes));
}

DeviceBuffer::~DeviceBuffer() {
    if (ptr_) require_driver().cuMemFree(ptr_);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
        if (ptr_) require_driver().cuMemFree(ptr_);
        ptr_ = std::exchange(o.ptr_, 0);
        bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
}

void DeviceBuffer::upload(const void* host, size_t bytes, size_t offset) {
    if (offset + bytes > bytes_) fail(SPMMA_INVALID_ARGUMENT, "upload past the end of a device buffer");
    if (bytes) {
        // NOTES: a copy from pageable memory may return before it lands, and plugins launch on
        // non-blocking streams that do not wait for it: finish it here (uploads are not timed).
        CU_CHECK(require_driver().cuMemcpyHtoD(ptr_ + offset, host, bytes));
        CU_CHECK(require_driver().cuCtxSynchronize());
    }
}

void DeviceBuffer::download(void* host, size_t bytes, size_t offset) const {
    if (offset + bytes > bytes_) fail(SPMMA_INVALID_ARGUMENT, "download past the end of a device buffer");
    if (bytes) CU_CHECK(require_driver().cuMemcpyDtoH(host, ptr_ + offset, bytes));
}

void DeviceBuffer::fill(uint8_t byte) {
    if (bytes_) {
        CU_CHECK(require_driver().cuMemsetD8(ptr_, byte, bytes_));
        CU_CHECK(require_driver().cuCtxSynchronize());  // see upload
    }
}

DeviceBuffer to_device(const void* host, size_t bytes) {
    DeviceBuffer d(bytes);
    d.upload(host, bytes);
    return d;
}

// ---- Module --------------------------------------------------------------------------------
Module::Module(const void* image) { CU_CHECK(require_driver().cuModuleLoadData(&mod_, image)); }

Module::~Module() {
    if (mod_) require_driver().cuModuleUnload(mod_);
}

CUfunction Module::function(const char* name) const {
    CUfunction f{};
    CU_CHECK(require_driver().cuModuleGetFunction(&f, mod_, name));
    return f;
}

// ---- Stream --------------------------------------------------------------------------------
Stream::Stream() { CU_CHECK(require_driver().cuStreamCreate(&s_, CU_STREAM_NON_BLOCKING)); }

Stream::~Stream() {
    if (s_) require_driver().cuStreamDestroy(s_);
}

void Stream::synchronize() const { CU_CHECK(require_driver().cuStreamSynchronize(s_)); }

// ---- Event ---------------------------------------------------------------------------------
Event::Event() { CU_CHECK(require_driver().cuEventCreate(&e_, CU_EVENT_DISABLE_TIMING)); }

Event::~Event() {
    if (e_) require_driver().cuEventDestroy(e_);
}

void Event::record(CUstream on) const { CU_CHECK(require_driver().cuEventRecord(e_, on)); }

void Event::make_wait(CUstream waiter) const { CU_CHECK(require_driver().cuStreamWaitEvent(waiter, e_, 0)); }

void record_times(const Stream& stream, int iterations, float* times_ms, const std::vector<CUevent>& events) {
    const Driver& d = require_driver();
    stream.synchronize();
    for (int i = 0; i < iterations; ++i) CU_CHECK(d.cuEventElapsedTime(&times_ms[i], events[2 * i], events[2 * i + 1]));
}

// ---- launch --------------------------------------------------------------------------------
void launch(CUfunction f, const LaunchShape& s, CUstream stream, void** args) {
    const Driver& d = require_driver();
    const bool clustered = s.cluster[0] * s.cluster[1] * s.cluster[2] > 1;
    if (!clustered) {
        CU_CHECK(d.cuLaunchKernel(f, s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2],
                                  s.smem_bytes, stream, args, nullptr));
        return;
    }
    CUlaunchConfig cfg{};
    cfg.gridDimX = s.grid[0];
    cfg.gridDimY = s.grid[1];
    cfg.gridDimZ = s.grid[2];
    cfg.blockDimX = s.block[0];
    cfg.blockDimY = s.block[1];
    cfg.blockDimZ = s.block[2];
    cfg.sharedMemBytes = s.smem_bytes;
    cfg.hStream = stream;
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = s.cluster[0];
    attr.value.clusterDim.y = s.cluster[1];
    attr.value.clusterDim.z = s.cluster[2];
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CU_CHECK(d.cuLaunchKernelEx(&cfg, f, args, nullptr));
}

void set_max_dynamic_smem(CUfunction f, unsigned bytes) {
    CU_CHECK(require_driver().cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(bytes)));
}

int max_active_clusters(CUfunction f, const LaunchShape& s) {
    CUlaunchConfig lc{};
    lc.gridDimX = s.grid[0];
    lc.gridDimY = lc.gridDimZ = 1;
    lc.blockDimX = s.block[0];
    lc.blockDimY = lc.blockDimZ = 1;
    lc.sharedMemBytes = s.smem_bytes;
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = s.cluster[0];
    attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
    lc.attrs = &attr;
    lc.numAttrs = 1;
    int n = 0;
    CU_CHECK(require_driver().cuOccupancyMaxActiveClusters(&n, f, &lc));
    return n;
}

}  // namespace spmma_plugin::cuda

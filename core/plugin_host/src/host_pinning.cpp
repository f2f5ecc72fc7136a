#include <spmma/core/host_pinning.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>

namespace spmma {
namespace {

// The few driver entry points, with their C signatures (cuda.h is not needed here).
using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
struct CUuuid {
    unsigned char bytes[16];
};
constexpr unsigned kRegisterPortable = 0x01;

struct Driver {
    CUresult (*init)(unsigned) = nullptr;
    CUresult (*device_count)(int*) = nullptr;
    CUresult (*device_get)(CUdevice*, int) = nullptr;
    CUresult (*device_uuid)(CUuuid*, CUdevice) = nullptr;
    CUresult (*retain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*set_current)(CUcontext) = nullptr;
    CUresult (*register_)(void*, size_t, unsigned) = nullptr;
    CUresult (*unregister)(void*) = nullptr;
    bool ok = false;
    std::string why;
};

const Driver& driver() {
    static const Driver d = [] {
        Driver d;
        void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            d.why = "no CUDA driver";
            return d;
        }
        auto get = [&](const char* name, auto& f) { f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, name)); };
        get("cuInit", d.init);
        get("cuDeviceGetCount", d.device_count);
        get("cuDeviceGet", d.device_get);
        get("cuDeviceGetUuid_v2", d.device_uuid);
        get("cuDevicePrimaryCtxRetain", d.retain);
        get("cuCtxSetCurrent", d.set_current);
        get("cuMemHostRegister_v2", d.register_);
        get("cuMemHostUnregister", d.unregister);
        if (!d.init || !d.device_count || !d.device_get || !d.device_uuid || !d.retain || !d.set_current || !d.register_ || !d.unregister) {
            d.why = "the CUDA driver lacks an entry point spmma pins memory with";
            return d;
        }
        if (d.init(0) != 0) {
            d.why = "cuInit failed";
            return d;
        }
        d.ok = true;
        return d;
    }();
    return d;
}

std::string uuid_text(const CUuuid& id) {
    std::string s = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        s += fmt::format("{:02x}", id.bytes[i]);
    }
    return s;
}

std::mutex g_mutex;
std::set<void*> g_pinned;
std::map<std::string, CUcontext> g_contexts;  // by UUID, retained for the process's life

}  // namespace

bool use_device_for_pinning(const std::string& uuid, std::string* why) {
    const Driver& d = driver();
    auto no = [&](std::string reason) {
        if (why) *why = std::move(reason);
        return false;
    };
    if (!d.ok) return no(d.why);
    std::unique_lock lock(g_mutex);
    if (auto it = g_contexts.find(uuid); it != g_contexts.end()) {
        lock.unlock();
        return d.set_current(it->second) == 0 || no("cannot make the device's primary context current");
    }
    int n = 0;
    if (d.device_count(&n) != 0) return no("cuDeviceGetCount failed");
    for (int i = 0; i < n; ++i) {
        CUdevice dev{};
        CUuuid id{};
        if (d.device_get(&dev, i) != 0 || d.device_uuid(&id, dev) != 0 || uuid_text(id) != uuid) continue;
        // NOTES: registration needs a current context; the device's primary context is the one the
        // plugin retains too (it is retained here for the process's life), and PORTABLE makes
        // the pinning count for every context.
        CUcontext ctx = nullptr;
        if (d.retain(&ctx, dev) != 0 || d.set_current(ctx) != 0) return no("cannot make the device's primary context current");
        g_contexts[uuid] = ctx;
        return true;
    }
    return no("no CUDA device with UUID " + uuid);
}

bool pin_host_memory(void* data, size_t bytes, const std::string& uuid, std::string* why) {
    if (!use_device_for_pinning(uuid, why)) return false;
    std::lock_guard lock(g_mutex);
    if (g_pinned.count(data)) return true;
    if (const CUresult r = driver().register_(data, bytes, kRegisterPortable); r != 0) {
        if (why) *why = fmt::format("cuMemHostRegister failed ({})", r);
        return false;
    }
    g_pinned.insert(data);
    return true;
}

void unpin_host_memory(void* data) {
    std::lock_guard lock(g_mutex);
    if (!g_pinned.erase(data)) return;
    driver().unregister(data);
}

}  // namespace spmma

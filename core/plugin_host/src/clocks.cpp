#include <spmma/core/clocks.hpp>

#include <spmma/core/median.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>

namespace spmma {

namespace {

// The few NVML entry points spmma reads, with their C signatures (nvml.h is not needed).
using nvml_return = int;
using nvml_device = void*;
struct NvmlMemory {
    unsigned long long total, free, used;
};
constexpr int kNvmlSuccess = 0;
constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;

}  // namespace

class Nvml {
public:
    nvml_return (*init)() = nullptr;
    const char* (*error_string)(nvml_return) = nullptr;
    nvml_return (*by_uuid)(const char*, nvml_device*) = nullptr;
    nvml_return (*clock)(nvml_device, int, unsigned*) = nullptr;
    nvml_return (*power)(nvml_device, unsigned*) = nullptr;
    nvml_return (*temperature)(nvml_device, int, unsigned*) = nullptr;
    nvml_return (*throttle)(nvml_device, unsigned long long*) = nullptr;
    nvml_return (*memory)(nvml_device, NvmlMemory*) = nullptr;

    std::string error(nvml_return r) const { return error_string ? error_string(r) : fmt::format("NVML error {}", r); }
};

namespace {

struct Loaded {
    Nvml fns;
    bool ok = false;
    std::string why_not;
};

Loaded load() {
    Loaded l;
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        l.why_not = "NVML not found (libnvidia-ml.so.1)";
        return l;
    }
    std::string missing;
    auto get = [&](const char* name, auto& member) {
        void* p = dlsym(lib, name);
        if (!p) missing += missing.empty() ? name : std::string(", ") + name;
        member = reinterpret_cast<std::remove_reference_t<decltype(member)>>(p);
    };
    get("nvmlInit_v2", l.fns.init);
    get("nvmlErrorString", l.fns.error_string);
    get("nvmlDeviceGetHandleByUUID", l.fns.by_uuid);
    get("nvmlDeviceGetClockInfo", l.fns.clock);
    get("nvmlDeviceGetPowerUsage", l.fns.power);
    get("nvmlDeviceGetTemperature", l.fns.temperature);
    get("nvmlDeviceGetCurrentClocksThrottleReasons", l.fns.throttle);
    get("nvmlDeviceGetMemoryInfo", l.fns.memory);
    if (!missing.empty()) {
        l.why_not = "NVML lacks " + missing;
        return l;
    }
    const nvml_return r = l.fns.init();
    if (r != kNvmlSuccess) {
        l.why_not = "nvmlInit failed: " + l.fns.error(r);
        return l;
    }
    l.ok = true;
    return l;
}

nlohmann::json spread(const std::vector<double>& v) {
    return {{"min", *std::min_element(v.begin(), v.end())}, {"median", median(v)}, {"max", *std::max_element(v.begin(), v.end())}};
}

}  // namespace

const Nvml* nvml(std::string* why_not) {
    static const Loaded l = load();
    if (!l.ok) {
        if (why_not) *why_not = l.why_not;
        return nullptr;
    }
    return &l.fns;
}

std::vector<std::string> throttle_reason_names(uint64_t mask) {
    static const std::pair<uint64_t, const char*> names[] = {
        {0x1, "gpu_idle"}, {0x2, "applications_clocks_setting"}, {0x4, "sw_power_cap"}, {0x8, "hw_slowdown"},
        {0x10, "sync_boost"}, {0x20, "sw_thermal_slowdown"}, {0x40, "hw_thermal_slowdown"}, {0x80, "hw_power_brake_slowdown"},
        {0x100, "display_clock_setting"}};
    std::vector<std::string> out;
    for (const auto& [bit, n] : names)
        if (mask & bit) out.emplace_back(n);
    if (mask & ~uint64_t{0x1ff}) out.push_back(fmt::format("other(0x{:x})", mask & ~uint64_t{0x1ff}));
    return out;
}

nlohmann::json ClockSummary::to_json() const {
    if (samples.empty()) return {{"error", error.empty() ? "no samples" : error}};
    std::vector<double> sm, mem, power, temp;
    uint64_t any = 0;
    int capped = 0;
    for (const auto& s : samples) {
        sm.push_back(s.sm_mhz);
        mem.push_back(s.mem_mhz);
        power.push_back(s.power_w);
        temp.push_back(s.temperature_c);
        any |= s.throttle;
        capped += (s.throttle & 0x4) != 0;
    }
    return {{"samples", samples.size()},
            {"duration_ms", samples.back().t_ms},
            {"sm_mhz", spread(sm)},
            {"mem_mhz", spread(mem)},
            {"power_w", spread(power)},
            {"temperature_c", spread(temp)},
            {"throttle", {{"mask", fmt::format("0x{:x}", any)},
                          {"reasons", throttle_reason_names(any)},
                          {"power_cap_fraction", static_cast<double>(capped) / static_cast<double>(samples.size())}}}};
}

std::optional<uint64_t> device_memory_used(const std::string& uuid) {
    const Nvml* n = nvml();
    nvml_device dev = nullptr;
    if (!n || uuid.empty() || n->by_uuid(uuid.c_str(), &dev) != kNvmlSuccess) return std::nullopt;
    NvmlMemory m{};
    if (n->memory(dev, &m) != kNvmlSuccess) return std::nullopt;
    return m.used;
}

ClockSampler::ClockSampler(std::string uuid, double interval_ms) : uuid_(std::move(uuid)), interval_ms_(interval_ms) {}

ClockSampler::~ClockSampler() {
    if (thread_.joinable()) {
        running_ = false;
        thread_.join();
    }
}

void ClockSampler::start() {
    summary_ = {};
    std::string why;
    const Nvml* n = nvml(&why);
    if (!n) {
        summary_.error = why;
        return;
    }
    nvml_device dev = nullptr;
    if (uuid_.empty()) {
        summary_.error = "the plugin gave no device UUID (ABI 1.1)";
        return;
    }
    if (const nvml_return r = n->by_uuid(uuid_.c_str(), &dev); r != kNvmlSuccess) {
        summary_.error = fmt::format("NVML does not know {}: {}", uuid_, n->error(r));
        return;
    }
    running_ = true;
    thread_ = std::thread([this, n, dev] {
        const auto t0 = std::chrono::steady_clock::now();
        // NOTES: one sample at once and one after stop() is asked, so even a run shorter than
        // the interval has its clock.
        for (bool last = false; !last;) {
            last = !running_;
            ClockSample s;
            s.t_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            unsigned v = 0;
            if (n->clock(dev, kClockSm, &v) == kNvmlSuccess) s.sm_mhz = v;
            if (n->clock(dev, kClockMem, &v) == kNvmlSuccess) s.mem_mhz = v;
            if (n->power(dev, &v) == kNvmlSuccess) s.power_w = v / 1000.0;
            if (n->temperature(dev, kTemperatureGpu, &v) == kNvmlSuccess) s.temperature_c = v;
            unsigned long long reasons = 0;
            if (n->throttle(dev, &reasons) == kNvmlSuccess) s.throttle = reasons;
            summary_.samples.push_back(s);
            if (!last) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(interval_ms_));
        }
    });
}

ClockSummary ClockSampler::stop() {
    if (thread_.joinable()) {
        running_ = false;
        thread_.join();
    }
    return std::move(summary_);
}

}  // namespace spmma

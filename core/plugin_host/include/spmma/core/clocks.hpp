// The GPU's clocks, power and throttle reasons while a plugin's timed launches run, read through
// NVML (libnvidia-ml.so.1, opened at run time like the CUDA driver: spmma needs neither to
// build or start). A figure without its clock cannot be compared across runs: at the power cap
// the same kernel runs 20 % slower than on a cool GPU.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace spmma {

struct ClockSample {
    double t_ms = 0;           // since the sampler started
    uint32_t sm_mhz = 0, mem_mhz = 0;
    double power_w = 0;
    uint32_t temperature_c = 0;
    uint64_t throttle = 0;     // NVML clock event (throttle) reason bits
};

struct ClockSummary {
    std::string error;         // why there are no samples (no NVML, device not found, ...)
    std::vector<ClockSample> samples;
    nlohmann::json to_json() const;  // {samples, sm_mhz{min,median,max}, power_w{...}, throttle{...}} or {error}
};

// The names of the throttle bits set in `mask` ("sw_power_cap", "hw_thermal_slowdown", ...).
std::vector<std::string> throttle_reason_names(uint64_t mask);

// NVML, opened once per process; nullptr and the reason when it is missing or fails to start.
class Nvml;
const Nvml* nvml(std::string* why_not = nullptr);

// Device memory in use on the device with this UUID (bytes), for leak checks; nullopt without NVML.
std::optional<uint64_t> device_memory_used(const std::string& uuid);

// Samples the device with `uuid` every `interval_ms` on a thread from start() to stop().
class ClockSampler {
public:
    explicit ClockSampler(std::string uuid, double interval_ms = 10.0);
    ~ClockSampler();
    void start();
    ClockSummary stop();

private:
    std::string uuid_;
    double interval_ms_;
    std::atomic<bool> running_{false};
    std::thread thread_;
    ClockSummary summary_;
};

}  // namespace spmma

// A test plugin whose launches take a set time: each one spins on the steady clock until
// SPMMA_TEST_PACE_US microseconds (default 300) have passed, and reports the time it measured.
// It has SPMMA_TEST_PACE_DEVICES devices (default 1; the --devices tests use more), each with
// its own name and UUID. SPMMA_TEST_PACE_PEAKS="SMS,SM_KHZ,MEM_KHZ,BUS_BITS" makes each an
// sm_90 stating those peaks (ABI 1.2), for the speed-of-light tests.
// D comes back as zeros, so it runs with --verify none. The compare tests make real record files
// with it whose times are known, and slower ones by a known factor: on a loaded machine a
// launch is at least the set time, longer only when the spin was preempted.
#include <spmma_plugin/backend.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace spmma_pace {
namespace {

using namespace spmma_plugin;

const std::array<spmma_kernel_info, 1> kKernels = {{{sizeof(spmma_kernel_info), 0, "pace_spin", "spins SPMMA_TEST_PACE_US per launch"}}};

double pace_us() {
    const char* v = std::getenv("SPMMA_TEST_PACE_US");
    const double us = v ? std::atof(v) : 300.0;
    return us > 0 ? us : 300.0;
}

int pace_devices() {
    const char* v = std::getenv("SPMMA_TEST_PACE_DEVICES");
    const int n = v ? std::atoi(v) : 1;
    return n > 0 ? n : 1;
}

// The peaks of SPMMA_TEST_PACE_PEAKS, or none (all 0).
std::array<int32_t, 4> pace_peaks() {
    std::array<int32_t, 4> p{};
    const char* v = std::getenv("SPMMA_TEST_PACE_PEAKS");
    if (!v || std::sscanf(v, "%d,%d,%d,%d", &p[0], &p[1], &p[2], &p[3]) != 4) return {};
    return p;
}

class PaceGemm : public Gemm {
public:
    PaceGemm(const spmma_problem& p, size_t d_bytes) : Gemm(p), d_bytes_(d_bytes) {}
    std::string kernel_name() const override { return kKernels[0].name; }
    void upload(const spmma_operands&) override {}
    void run(int warmup, int iterations, float* times_ms, uint32_t) override {
        const auto pace = std::chrono::duration<double, std::micro>(pace_us());
        for (int i = 0; i < warmup + iterations; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            auto t = t0;
            while (t - t0 < pace) t = std::chrono::steady_clock::now();
            if (i >= warmup) times_ms[i - warmup] = static_cast<float>(std::chrono::duration<double, std::milli>(t - t0).count());
        }
    }
    void download(void* d, size_t bytes) override {
        if (bytes != d_bytes_) fail(SPMMA_INVALID_ARGUMENT, "D has the wrong size");
        std::memset(d, 0, bytes);
    }

private:
    size_t d_bytes_;
};

class PaceBackend : public Backend {
public:
    spmma_plugin_info info() const override {
        return {sizeof(spmma_plugin_info), 0, "pace", "spmma tests", "1", "cpu", "test plugin: every launch takes SPMMA_TEST_PACE_US"};
    }
    int device_count() const override { return pace_devices(); }
    void probe(int device, spmma_device_info* out) const override {
        spmma_device_info d{};
        d.struct_size = sizeof d;
        d.runnable = device >= 0 && device < pace_devices();
        write_string(d.name, sizeof d.name, ("pace device " + std::to_string(device)).c_str());
        write_string(d.uuid, sizeof d.uuid, ("pace-" + std::to_string(device)).c_str());
        const auto peaks = pace_peaks();
        write_string(d.arch, sizeof d.arch, peaks[0] > 0 ? "sm_90" : "cpu");
        d.sm_count = peaks[0];
        d.sm_clock_khz = peaks[1];
        d.mem_clock_khz = peaks[2];
        d.mem_bus_bits = peaks[3];
        copy_out(out, d);
    }
    std::span<const spmma_kernel_info> kernels() const override { return kKernels; }
    void check_supported(int device, const spmma_problem&, const char*) const override {
        if (device < 0 || device >= pace_devices()) unsupported("no such device (SPMMA_TEST_PACE_DEVICES)");
    }
    std::unique_ptr<Gemm> create(int, const spmma_problem& p, const char*) override {
        return std::make_unique<PaceGemm>(p, static_cast<size_t>(p.m * p.n) * static_cast<size_t>(spmma_dtype_storage_bits(p.d_type)) / 8);
    }
};

Backend& backend() {
    static PaceBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_pace

SPMMA_DEFINE_PLUGIN(spmma_pace::backend)

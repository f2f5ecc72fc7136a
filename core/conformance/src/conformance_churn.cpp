// Check "churn": handles made and destroyed many times (create, upload, run, download, destroy)
// must not leak: the worker's resident memory, and a GPU's used memory (NVML), may grow only by
// a stated bound between the end of the warm-up cycles and the end of the measured ones.
#include <spmma/core/conformance_checks.hpp>

#include <spmma/core/clocks.hpp>
#include <spmma/core/operands.hpp>
#include <spmma/core/resident_memory.hpp>

#include <fmt/format.h>

namespace spmma::conformance::detail {
namespace {

constexpr int kWarmupCycles = 20;
constexpr int kCycles = 200;
// NOTES: the problem (128x128x128 f16: A 16 KiB of values, B 32 KiB, D 32 KiB) makes a leak of
// any per-handle buffer at least 16 KiB a cycle, 3.2 MiB over the measured cycles; the bound
// leaves room for allocator arenas settling. A GPU's used memory moves in 2 MiB pages.
constexpr double kResidentBoundMiB = 2;
constexpr double kDeviceBoundMiB = 32;

double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

// One create-upload-run-download-destroy cycle; the failure, or empty.
std::string cycle(const CheckContext& c, const Supported& small, const spmma_operands& ops, std::vector<uint8_t>& d, int n) {
    const spmma_problem p = small.problem.to_abi();
    const spmma_plugin_api& a = c.api();
    const std::string where = fmt::format(" (handle churn, cycle {} of {})", n + 1, kWarmupCycles + kCycles);
    ScopedHandle h(c);
    c.enter("create" + where);
    spmma_status s = a.create(c.device(), &p, small.kernel_arg(), h.out());
    if (s != SPMMA_OK) return "create" + where + ": " + describe_status(c, s);
    c.enter("upload" + where);
    if ((s = a.upload(h.get(), &ops)) != SPMMA_OK) return "upload" + where + ": " + describe_status(c, s);
    float time = 0;
    spmma_run_config cfg{};
    cfg.struct_size = sizeof cfg;
    cfg.iterations = 1;
    cfg.times_ms = &time;
    c.enter("run" + where);
    if ((s = a.run(h.get(), &cfg)) != SPMMA_OK) return "run" + where + ": " + describe_status(c, s);
    c.enter("download" + where);
    if ((s = a.download(h.get(), d.data(), d.size())) != SPMMA_OK) return "download" + where + ": " + describe_status(c, s);
    return {};
}

}  // namespace

CheckResult check_churn(const CheckContext& c) {
    std::string why;
    const auto small = small_supported(c, 128, 128, 128, &why);
    if (!small) return skip("churn", why);
    Findings f;
    const Problem& problem = small->problem;
    const spmma_problem p = problem.to_abi();
    const Operands operands = generate_operands(problem);
    const spmma_operands ops = operands.view();
    std::vector<uint8_t> d(static_cast<size_t>(problem.m * problem.n) * static_cast<size_t>(spmma_dtype_storage_bits(p.d_type) / 8));

    c.enter("probe (for the device's UUID)");
    const DeviceInfo dev = c.plugin.probe(c.device());
    const bool gpu = dev.is_gpu() && !dev.uuid.empty();
    size_t rss0 = 0;
    std::optional<uint64_t> used0;
    for (int n = 0; n < kWarmupCycles + kCycles; ++n) {
        if (n == kWarmupCycles) {
            // NOTES: NVML first: its first use loads and initialises the library in this
            // process (14.4 MiB resident on an H100, 2026-11-27), which read after the first
            // resident size failed every GPU plugin as a leak.
            if (gpu) used0 = device_memory_used(dev.uuid);
            rss0 = spmma::detail::resident_bytes();
        }
        if (const std::string e = cycle(c, *small, ops, d, n); !e.empty()) {
            f.fail(e);
            return f.result("churn");
        }
    }
    const double grew = static_cast<double>(spmma::detail::resident_bytes()) - static_cast<double>(rss0);
    const std::string what = fmt::format("{} cycles on {} after {} warm-up cycles", kCycles, small->label(), kWarmupCycles);
    if (mib(grew) > kResidentBoundMiB)
        f.fail(fmt::format("resident memory grew by {:.1f} MiB over {} (bound {} MiB): a leak", mib(grew), what, kResidentBoundMiB));
    else
        f.note(fmt::format("resident memory {:+.2f} MiB over {} (bound {} MiB)", mib(grew), what, kResidentBoundMiB));
    if (gpu) {
        const auto used1 = device_memory_used(dev.uuid);
        if (!used0 || !used1) {
            f.note("device memory not read (NVML unavailable)");
        } else {
            const double dgrew = static_cast<double>(*used1) - static_cast<double>(*used0);
            if (mib(dgrew) > kDeviceBoundMiB)
                f.fail(fmt::format("device memory grew by {:.1f} MiB (bound {} MiB): a leak", mib(dgrew), kDeviceBoundMiB));
            else
                f.note(fmt::format("device memory {:+.1f} MiB (bound {} MiB)", mib(dgrew), kDeviceBoundMiB));
        }
    } else {
        f.note("no device memory to watch (not a GPU with a UUID)");
    }
    return f.result("churn");
}

}  // namespace spmma::conformance::detail

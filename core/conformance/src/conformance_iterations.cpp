// Check "iterations": run with iterations 0 (warm-up only, times_ms NULL) succeeds, and run with
// iterations 3 fills exactly three finite, positive times.
#include <spmma/core/conformance_checks.hpp>

#include <spmma/core/operands.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace spmma::conformance::detail {

CheckResult check_iterations(const CheckContext& c) {
    std::string why;
    const auto small = small_supported(c, 40, 24, 64, &why);
    if (!small) return skip("iterations", why);
    Findings f;
    const spmma_problem p = small->problem.to_abi();
    const Operands operands = generate_operands(small->problem);
    const spmma_operands ops = operands.view();
    const spmma_plugin_api& a = c.api();
    ScopedHandle h(c);
    c.enter("create");
    spmma_status s = a.create(c.device(), &p, small->kernel_arg(), h.out());
    if (s != SPMMA_OK) {
        f.fail(fmt::format("create of a supported problem ({}) failed: {}", small->label(), describe_status(c, s)));
        return f.result("iterations");
    }
    c.enter("upload");
    if ((s = a.upload(h.get(), &ops)) != SPMMA_OK) {
        f.fail("upload failed: " + describe_status(c, s));
        return f.result("iterations");
    }
    spmma_run_config cfg{};
    cfg.struct_size = sizeof cfg;
    cfg.warmup = 1;
    c.enter("run (warm-up 1, iterations 0, times_ms NULL)");
    if ((s = a.run(h.get(), &cfg)) != SPMMA_OK) f.fail("run with iterations 0 failed: " + describe_status(c, s));

    // The fourth float is a canary: a plugin writing a time past `iterations` overruns the host's array.
    float times[4];
    const float canary = -12345.0f;
    times[0] = times[1] = times[2] = std::numeric_limits<float>::quiet_NaN();
    times[3] = canary;
    cfg.warmup = 0;
    cfg.iterations = 3;
    cfg.times_ms = times;
    c.enter("run (iterations 3)");
    if ((s = a.run(h.get(), &cfg)) != SPMMA_OK) {
        f.fail("run with iterations 3 failed: " + describe_status(c, s));
        return f.result("iterations");
    }
    for (int i = 0; i < 3; ++i)
        if (!std::isfinite(times[i]) || !(times[i] > 0)) f.fail(fmt::format("run with iterations 3 left times_ms[{}] = {:g}", i, times[i]));
    if (std::memcmp(&times[3], &canary, sizeof canary) != 0) f.fail("run with iterations 3 wrote times_ms[3], past the array");
    if (!f.failed()) f.note(fmt::format("{} (warm-up only) ran; times {:.3g}, {:.3g}, {:.3g} ms", small->label(), times[0], times[1], times[2]));
    return f.result("iterations");
}

}  // namespace spmma::conformance::detail

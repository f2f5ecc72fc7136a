// Check "verification", one problem family per request: at m = n = 1 with the smallest k the
// plugin accepts, and at two odd sizes, every kernel choice the plugin supports (its own and each
// named kernel) runs through execute() and D is verified in full against the reference.
#include <spmma/core/conformance_checks.hpp>

#include <spmma/core/operands.hpp>
#include <spmma/reference/verify.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace spmma::conformance::detail {
namespace {

struct Size {
    int64_t m, n, k_from;
};

// The first k >= k_from (the family's steps, up to 64 of them) at which the plugin's choice or
// one of its kernels supports the problem, and the choices that do there ("" = the plugin's).
struct Choices {
    int64_t k = 0;
    std::vector<std::string> kernels;
    std::string reason;  // none supports it: the plugin's reason at the first k
};

Choices find_choices(const CheckContext& c, Problem p, int64_t step, int64_t k_from) {
    Choices out;
    const int64_t k0 = (k_from + step - 1) / step * step;
    c.enter(fmt::format("supports ({}x{}, k from {})", p.m, p.n, k0));
    for (int i = 0; i < 64 && out.kernels.empty(); ++i) {
        p.k = k0 + i * step;
        const spmma_problem abi = p.to_abi();
        const auto why = unsupported(c, abi, nullptr);
        if (!why) out.kernels.emplace_back();
        else if (i == 0) out.reason = *why;
        for (const auto& k : c.plugin.kernels)
            if (!unsupported(c, abi, k.name.c_str())) out.kernels.push_back(k.name);
        out.k = p.k;
    }
    return out;
}

std::string describe_mismatch(const reference::Verdict& v) {
    std::string s = fmt::format("{} of {} elements outside the tolerance", v.mismatches, v.checked);
    if (v.nan_count) s += fmt::format(" ({} NaN)", v.nan_count);
    if (!v.first.empty()) {
        const auto& m = v.first.front();
        s += fmt::format(", first D[{},{}] = {:g}, expected {:g} +- {:g}", m.i, m.j, m.got, m.expected, m.tolerance);
    }
    return s;
}

}  // namespace

CheckResult check_verification(const CheckContext& c) {
    const Family* family = find_family(c.request.family);
    if (!family) throw std::invalid_argument("no problem family '" + c.request.family + "'");
    const int64_t step = family->k_step();
    const Size sizes[] = {{1, 1, step}, {37, 29, 64}, {333, 77, 1028}};
    Findings f;
    int runs = 0, verified = 0;
    std::vector<std::string> ran, refused, kernels;
    for (const Size& size : sizes) {
        Problem p = family->problem;
        p.m = size.m;
        p.n = size.n;
        const Choices choices = find_choices(c, p, step, size.k_from);
        if (choices.kernels.empty()) {
            refused.push_back(fmt::format("{}x{}: {}", size.m, size.n, choices.reason));
            continue;
        }
        p.k = choices.k;
        c.enter("generating operands and the reference for " + p.label());
        const Operands operands = generate_operands(p);
        reference::GemmInput input;
        input.problem = p.to_abi();
        input.operands = operands.view();
        reference::VerifyOptions vo;
        vo.mode = reference::VerifyMode::Full;
        const reference::Expected expected = reference::compute_expected(input, vo);
        const size_t d_bytes = static_cast<size_t>(p.m * p.n) * static_cast<size_t>(spmma_dtype_storage_bits(input.problem.d_type) / 8);
        for (const std::string& kernel : choices.kernels) {
            const std::string who = kernel.empty() ? "its own choice" : kernel;
            ExecRequest req;
            req.device = c.device();
            req.problem = input.problem;
            req.kernel = kernel;
            req.warmup = 0;
            req.iterations = 1;
            req.result.d_bytes = d_bytes;
            std::vector<uint8_t> d(d_bytes, 0);
            ++runs;
            const ExecResult r = execute(c.plugin, req, input.operands, d.data(),
                                         [&](const std::string& stage) { c.enter(fmt::format("{} ({}, {})", stage, p.label(), who)); });
            const std::string name = kernel.empty() ? fmt::format("its own choice ({})", r.kernel) : kernel;
            if (std::find(kernels.begin(), kernels.end(), name) == kernels.end()) kernels.push_back(name);
            if (!r.ok) {
                f.fail(fmt::format("{}, {}: {}", p.label(), who, r.error));
                continue;
            }
            c.enter("verifying " + p.label());
            const reference::Verdict v = reference::check(input, expected, d.data());
            if (v.passed) ++verified;
            else f.fail(fmt::format("{}, {}: {}", p.label(), who, describe_mismatch(v)));
        }
        ran.push_back(fmt::format("{}x{}x{}", p.m, p.n, p.k));
    }
    if (runs == 0) return skip("verification", "not supported: " + (refused.empty() ? std::string("?") : refused.front()));
    CheckResult r = f.result("verification");
    r.runs = runs;
    r.verified = verified;
    const auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
        return s;
    };
    std::string summary = fmt::format("verified {} of {}", verified, runs);
    if (!f.failed()) {
        // NOTES: the first few kernels only: a GPU plugin may run dozens per family (--json too).
        std::vector<std::string> shown(kernels.begin(), kernels.begin() + static_cast<long>(std::min<size_t>(kernels.size(), 3)));
        if (kernels.size() > shown.size()) shown.push_back(fmt::format("... ({} more)", kernels.size() - shown.size()));
        summary += fmt::format(" at {}; kernels: {}", list(ran), list(shown));
        for (const auto& s : refused) summary += "; not supported at " + s;
    }
    r.detail = r.detail.empty() ? summary : summary + ": " + r.detail;
    return r;
}

}  // namespace spmma::conformance::detail

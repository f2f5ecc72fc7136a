// What the conformance checks share inside the worker: findings, a small supported problem, a
// handle that cleans up after itself, and the dispatch of a Check request (worker_protocol.hpp) to its check.
#include <spmma/core/conformance_checks.hpp>
#include <spmma/core/worker_protocol.hpp>

#include <fmt/format.h>

#include <stdexcept>

namespace spmma::conformance::detail {

CheckResult Findings::result(const std::string& name) const {
    CheckResult r;
    r.name = name;
    r.result = failures_.empty() ? Outcome::Pass : Outcome::Fail;
    const auto& lines = failures_.empty() ? notes_ : failures_;
    for (size_t i = 0; i < lines.size(); ++i) r.detail += (i ? "; " : "") + lines[i];
    return r;
}

CheckResult outcome(const std::string& name, Outcome result, const std::string& detail) {
    CheckResult r;
    r.name = name;
    r.result = result;
    r.detail = detail;
    return r;
}

std::optional<std::string> unsupported(const CheckContext& c, const spmma_problem& p, const char* kernel) {
    return c.plugin.unsupported_reason(c.device(), p, kernel);
}

std::string describe_status(const CheckContext& c, spmma_status s) {
    if (s == SPMMA_OK) return "ok";
    const std::string msg = c.last_error();
    return msg.empty() ? std::string(status_name(s)) : fmt::format("{}: {}", status_name(s), msg);
}

std::optional<Supported> small_supported(const CheckContext& c, int64_t m, int64_t n, int64_t k_from, std::string* why_not) {
    // NOTES: k is searched upward over 64 steps of the family, far enough for kernels that need
    // k in multiples of a tile (a 256-wide k tile of a 4:8 family is 32 steps). A plugin that
    // runs only kernels asked for by name (emu) is checked through its first kernel that fits.
    c.enter(fmt::format("supports (looking for a supported problem near {}x{}x{})", m, n, k_from));
    std::string first_reason;
    std::vector<std::string> choices = {""};
    for (const auto& k : c.plugin.kernels) choices.push_back(k.name);
    for (size_t pass = 0; pass < 2; ++pass)
        for (const Family& f : catalog()) {
            Problem p = f.problem;
            p.m = m;
            p.n = n;
            const int64_t step = f.k_step();
            const int64_t k0 = (k_from + step - 1) / step * step;
            for (int i = 0; i < 64; ++i) {
                p.k = k0 + i * step;
                const spmma_problem abi = p.to_abi();
                for (size_t x = pass == 0 ? 0 : 1; x < (pass == 0 ? 1 : choices.size()); ++x) {
                    const auto why = unsupported(c, abi, x == 0 ? nullptr : choices[x].c_str());
                    if (!why) return Supported{&f, p, choices[x]};
                    if (first_reason.empty()) first_reason = fmt::format("{}: {}", f.name, *why);
                }
            }
        }
    if (why_not)
        *why_not = fmt::format("the plugin supports none of the {} problem families near {}x{}x{} on device {} ({})", catalog().size(), m, n,
                               k_from, c.device(), first_reason);
    return std::nullopt;
}

void ScopedHandle::reset() {
    if (!h_) return;
    c_.enter("destroy");
    c_.api().destroy(h_);
    h_ = nullptr;
}

CheckResult run_check(const Plugin& plugin, const CheckRequest& request, const StageListener& stage) {
    const CheckContext c{plugin, request, stage};
    if (request.name == "load") return check_load(c);
    if (!plugin.usable()) return skip(request.name, "the plugin did not load: " + plugin.error);
    using Fn = CheckResult (*)(const CheckContext&);
    static const std::pair<const char*, Fn> checks[] = {
        {"info", check_info},
        {"kernels", check_kernels},
        {"devices", check_devices},
        {"bad-arguments", check_bad_arguments},
        {"unknown-kernel", check_unknown_kernel},
        {"unsupported-problem", check_unsupported_problem},
        {"verification", check_verification},
        {"churn", check_churn},
        {"last-error-threads", check_last_error_threads},
        {"iterations", check_iterations},
    };
    for (const auto& [name, fn] : checks)
        if (request.name == name) return fn(c);
    throw std::invalid_argument("unknown check '" + request.name + "'");
}

}  // namespace spmma::conformance::detail

namespace spmma::conformance {

void serve_checks(protocol::Handlers& handlers) {
    // The load check runs on a plugin that did not load too.
    handlers.on<protocol::Check>([](const protocol::Check::Request& q, protocol::WorkerContext& c) {
        return protocol::Check::Reply{detail::run_check(c.loaded(), q.request.get<CheckRequest>(), c.stage).to_json()};
    });
}

}  // namespace spmma::conformance

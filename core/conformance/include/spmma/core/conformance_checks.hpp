// Internal to the conformance suite: the checks as they run in the worker (serve_checks),
// one function per check, each in the file of its concept (conformance_describe.cpp,
// conformance_arguments.cpp, ...), and what they share: the plugin, the request, the stage
// reporter, findings, a small supported problem.
#pragma once

#include <spmma/core/conformance.hpp>
#include <spmma/core/execution.hpp>
#include <spmma/core/plugins.hpp>

#include <optional>
#include <string>
#include <vector>

namespace spmma::conformance::detail {

// What a check has at hand inside the worker.
struct CheckContext {
    const Plugin& plugin;
    const CheckRequest& request;
    StageListener stage;  // tells the parent which plugin call comes next (a crash or hang names it)

    const spmma_plugin_api& api() const { return plugin.api(); }
    int device() const { return request.device; }
    void enter(const std::string& s) const {
        if (stage) stage(s);
    }
    // The plugin's message for the last failed call on this thread.
    std::string last_error() const { return plugin.last_error(); }
};

// What a check found: any failure fails it; notes say what it saw.
class Findings {
public:
    void fail(std::string what) { failures_.push_back(std::move(what)); }
    void note(std::string what) { notes_.push_back(std::move(what)); }
    bool failed() const { return !failures_.empty(); }
    CheckResult result(const std::string& name) const;

private:
    std::vector<std::string> failures_, notes_;
};

// One check's row of the table.
CheckResult outcome(const std::string& name, Outcome result, const std::string& detail);
inline CheckResult skip(const std::string& name, const std::string& why) { return outcome(name, Outcome::Skip, why); }

// A problem of the catalog the plugin supports on the device, about m x n x k (k searched upward
// in the family's steps): the first family in catalog order that its own kernel choice supports,
// else the first that one of its named kernels supports. nullopt, with why_not, when none does.
struct Supported {
    const Family* family = nullptr;
    Problem problem;
    std::string kernel;  // empty: the plugin's own choice
    const char* kernel_arg() const { return kernel.empty() ? nullptr : kernel.c_str(); }
    std::string label() const { return problem.label() + (kernel.empty() ? "" : ", kernel " + kernel); }
};
std::optional<Supported> small_supported(const CheckContext& c, int64_t m, int64_t n, int64_t k_from, std::string* why_not = nullptr);

// Empty when `kernel` (nullptr: the plugin's choice) supports p on the device, else the reason.
std::optional<std::string> unsupported(const CheckContext& c, const spmma_problem& p, const char* kernel);

// "supports(problem)": a status and a status name with the plugin's message, for details.
std::string describe_status(const CheckContext& c, spmma_status s);

// A handle that is destroyed when it goes out of scope.
class ScopedHandle {
public:
    explicit ScopedHandle(const CheckContext& c) : c_(c) {}
    ~ScopedHandle() { reset(); }
    ScopedHandle(const ScopedHandle&) = delete;
    ScopedHandle& operator=(const ScopedHandle&) = delete;
    spmma_handle** out() { return &h_; }
    spmma_handle* get() const { return h_; }
    void reset();

private:
    const CheckContext& c_;
    spmma_handle* h_ = nullptr;
};

// The checks (names as check_names()).
CheckResult check_load(const CheckContext& c);
CheckResult check_info(const CheckContext& c);
CheckResult check_kernels(const CheckContext& c);
CheckResult check_devices(const CheckContext& c);
CheckResult check_bad_arguments(const CheckContext& c);
CheckResult check_unknown_kernel(const CheckContext& c);
CheckResult check_unsupported_problem(const CheckContext& c);
CheckResult check_verification(const CheckContext& c);  // one family: request.family
CheckResult check_churn(const CheckContext& c);
CheckResult check_last_error_threads(const CheckContext& c);
CheckResult check_iterations(const CheckContext& c);

// Runs the check the request names on the plugin loaded here (the worker's Check request, worker_protocol.hpp).
CheckResult run_check(const Plugin& plugin, const CheckRequest& request, const StageListener& stage);

}  // namespace spmma::conformance::detail

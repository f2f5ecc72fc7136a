// Checks "bad-arguments", "unknown-kernel" and "unsupported-problem": calls a plugin must refuse
// with a status (not a crash, not a handle): NULL pointers, wrong sizes, a kernel name it does not
// have, a problem it says it cannot run.
#include <spmma/core/conformance_checks.hpp>

#include <spmma/core/operands.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace spmma::conformance::detail {
namespace {

constexpr const char* kNoSuchKernel = "spmma-no-such-kernel";

// Each call is announced as its stage (a crash names it) and must not return OK.
class Refusals {
public:
    Refusals(const CheckContext& c, Findings& f) : c_(c), f_(f) {}
    template <class Call>
    void must_fail(const std::string& call, Call&& fn) {
        c_.enter(call);
        if (fn() == SPMMA_OK) f_.fail(call + " returned OK");
        ++calls_;
    }
    template <class Call>
    void must_not_crash(const std::string& call, Call&& fn) {
        c_.enter(call);
        fn();
        ++calls_;
    }
    int calls() const { return calls_; }

private:
    const CheckContext& c_;
    Findings& f_;
    int calls_ = 0;
};

// A failed create must leave the handle NULL (the host destroys a non-NULL one).
spmma_status create_expecting_failure(const CheckContext& c, Findings& f, const spmma_problem* p, const char* kernel, const std::string& call) {
    spmma_handle* h = nullptr;
    const spmma_status s = c.api().create(c.device(), p, kernel, &h);
    if (s == SPMMA_OK && h) {
        c.enter("destroy");
        c.api().destroy(h);
    } else if (s != SPMMA_OK && h) {
        f.fail(call + " failed but wrote a handle");
    }
    return s;
}

void null_handle_calls(const CheckContext& c, Refusals& r, const spmma_operands& ops) {
    const spmma_plugin_api& a = c.api();
    char text[256] = {};
    float time = 0;
    spmma_run_config cfg{};
    cfg.struct_size = sizeof cfg;
    cfg.iterations = 1;
    cfg.times_ms = &time;
    uint8_t d[64] = {};
    r.must_fail("handle_kernel(NULL handle)", [&] { return a.handle_kernel(nullptr, text, sizeof text); });
    r.must_fail("upload(NULL handle)", [&] { return a.upload(nullptr, &ops); });
    r.must_fail("run(NULL handle)", [&] { return a.run(nullptr, &cfg); });
    r.must_fail("download(NULL handle)", [&] { return a.download(nullptr, d, sizeof d); });
    if (const auto de = c.plugin.download_elements_fn()) {
        const int64_t index = 0;
        r.must_fail("download_elements(NULL handle)", [&] { return de(nullptr, &index, 1, d, sizeof d); });
    }
    if (const auto dh = c.plugin.describe_handle_fn()) r.must_fail("describe_handle(NULL handle)", [&] { return dh(nullptr, text, sizeof text); });
    r.must_not_crash("destroy(NULL)", [&] { a.destroy(nullptr); });
    r.must_not_crash("last_error(NULL, 0)", [&] { a.last_error(nullptr, 0); });
}

// Every operand pointer the problem has, one at a time made NULL (its byte count kept).
std::vector<std::pair<std::string, spmma_operands>> operands_with_a_null(const spmma_operands& ops) {
    std::vector<std::pair<std::string, spmma_operands>> out;
    const auto add = [&](const char* name, auto member) {
        spmma_operands o = ops;
        if (!(o.*member)) return;
        o.*member = nullptr;
        out.emplace_back(name, o);
    };
    add("a_values", &spmma_operands::a_values);
    add("a_indices", &spmma_operands::a_indices);
    add("b", &spmma_operands::b);
    add("c", &spmma_operands::c);
    add("scale_a", &spmma_operands::scale_a);
    add("scale_b", &spmma_operands::scale_b);
    return out;
}

// The calls on a valid handle, in the order a handle can take them: NULL operands, then a valid
// upload, NULL run config and times, a valid run, then downloads with a NULL buffer and wrong sizes.
void valid_handle_calls(const CheckContext& c, Findings& f, Refusals& r, const Supported& small, const Operands& operands) {
    const spmma_plugin_api& a = c.api();
    const Problem& problem = small.problem;
    const spmma_problem p = problem.to_abi();
    const spmma_operands ops = operands.view();
    r.must_fail("create(out pointer NULL)", [&] { return a.create(c.device(), &p, small.kernel_arg(), nullptr); });
    ScopedHandle h(c);
    c.enter("create");
    if (const spmma_status s = a.create(c.device(), &p, small.kernel_arg(), h.out()); s != SPMMA_OK || !h.get()) {
        f.fail(fmt::format("create of a supported problem ({}) failed: {}", small.label(), describe_status(c, s)));
        return;
    }
    r.must_not_crash("handle_kernel(handle, NULL, 0)", [&] { a.handle_kernel(h.get(), nullptr, 0); });
    r.must_fail("upload(handle, NULL operands)", [&] { return a.upload(h.get(), nullptr); });
    for (const auto& [name, o] : operands_with_a_null(ops))
        r.must_fail(fmt::format("upload(handle, operands with {} NULL)", name), [&, &o = o] { return a.upload(h.get(), &o); });
    c.enter("upload (valid operands)");
    if (const spmma_status s = a.upload(h.get(), &ops); s != SPMMA_OK) {
        f.fail("upload of valid operands after the refused ones failed: " + describe_status(c, s));
        return;
    }
    spmma_run_config cfg{};
    cfg.struct_size = sizeof cfg;
    cfg.iterations = 2;
    r.must_fail("run(handle, NULL config)", [&] { return a.run(h.get(), nullptr); });
    r.must_fail("run(handle, iterations 2 with times_ms NULL)", [&] { return a.run(h.get(), &cfg); });
    float time = 0;
    cfg.iterations = 1;
    cfg.times_ms = &time;
    c.enter("run (valid, before the download checks)");
    if (const spmma_status s = a.run(h.get(), &cfg); s != SPMMA_OK) {
        f.fail("a valid run failed: " + describe_status(c, s));
        return;
    }
    const size_t bytes = static_cast<size_t>(problem.m * problem.n) * static_cast<size_t>(spmma_dtype_storage_bits(p.d_type) / 8);
    std::vector<uint8_t> d(bytes + 64, 0xA5);
    r.must_fail("download(handle, NULL buffer)", [&] { return a.download(h.get(), nullptr, bytes); });
    r.must_fail(fmt::format("download(handle, {} bytes for D's {})", bytes - 1, bytes), [&] { return a.download(h.get(), d.data(), bytes - 1); });
    for (size_t i = bytes - 1; i < d.size(); ++i)
        if (d[i] != 0xA5) {
            f.fail(fmt::format("download given {} bytes wrote byte {}", bytes - 1, i));
            break;
        }
    r.must_fail(fmt::format("download(handle, {} bytes for D's {})", bytes + 1, bytes), [&] { return a.download(h.get(), d.data(), bytes + 1); });
    if (const auto de = c.plugin.download_elements_fn()) {
        const int64_t outside = problem.m * problem.n;
        r.must_fail("download_elements(handle, NULL indices)", [&] { return de(h.get(), nullptr, 1, d.data(), d.size()); });
        r.must_fail(fmt::format("download_elements(handle, index {} outside D)", outside), [&] {
            return de(h.get(), &outside, 1, d.data(), static_cast<size_t>(spmma_dtype_storage_bits(p.d_type) / 8));
        });
    }
}

}  // namespace

CheckResult check_bad_arguments(const CheckContext& c) {
    Findings f;
    Refusals r(c, f);
    const spmma_plugin_api& a = c.api();
    char reason[256] = {};
    r.must_fail("supports(problem NULL)", [&] { return a.supports(c.device(), nullptr, nullptr, reason, sizeof reason); });
    r.must_fail("create(problem NULL)", [&] { return create_expecting_failure(c, f, nullptr, nullptr, "create(problem NULL)"); });
    std::string why;
    const auto small = small_supported(c, 40, 24, 64, &why);
    Operands operands;
    if (small) operands = generate_operands(small->problem);
    spmma_operands none{};
    none.struct_size = sizeof none;
    null_handle_calls(c, r, small ? operands.view() : none);
    if (small) {
        const spmma_problem p = small->problem.to_abi();
        r.must_not_crash("supports(problem, reason NULL, 0)", [&] { a.supports(c.device(), &p, small->kernel_arg(), nullptr, 0); });
        valid_handle_calls(c, f, r, *small, operands);
    } else {
        f.note("calls on a valid handle not made: " + why);
    }
    f.note(fmt::format("{} bad calls made, none accepted or crashed{}", r.calls(), small ? fmt::format(" (on a handle of {})", small->label()) : ""));
    return f.result("bad-arguments");
}

CheckResult check_unknown_kernel(const CheckContext& c) {
    Findings f;
    std::string why;
    const auto small = small_supported(c, 40, 24, 64, &why);
    Problem problem = small ? small->problem : catalog().front().problem;
    if (!small) {
        problem.m = 40;
        problem.n = 24;
        problem.k = 64;
    }
    const spmma_problem p = problem.to_abi();
    char reason[512];
    std::memset(reason, 0, sizeof reason);
    const std::string call = fmt::format("supports(kernel \"{}\")", kNoSuchKernel);
    c.enter(call);
    const spmma_status s = c.api().supports(c.device(), &p, kNoSuchKernel, reason, sizeof reason);
    if (s == SPMMA_OK) f.fail(call + " returned OK");
    else if (!std::memchr(reason, '\0', sizeof reason)) f.fail(call + " left its reason without a NUL");
    else if (!*reason) f.fail(call + " refused but wrote no reason");
    else f.note(fmt::format("refused ({}): {}", status_name(s), reason));
    const std::string create_call = fmt::format("create(kernel \"{}\")", kNoSuchKernel);
    c.enter(create_call);
    if (create_expecting_failure(c, f, &p, kNoSuchKernel, create_call) == SPMMA_OK) f.fail(create_call + " returned OK");
    if (!small) f.note("on " + problem.label() + ", which the plugin does not support either");
    return f.result("unknown-kernel");
}

CheckResult check_unsupported_problem(const CheckContext& c) {
    Findings f;
    std::optional<Problem> refused;
    std::string reason;
    for (const Family& fam : catalog()) {
        Problem p = fam.problem;
        p.m = p.n = 64;
        p.k = (64 + fam.k_step() - 1) / fam.k_step() * fam.k_step();
        c.enter("supports (" + p.label() + ")");
        if (auto why = unsupported(c, p.to_abi(), nullptr)) {
            refused = p;
            reason = *why;
            break;
        }
    }
    if (!refused) {
        // NOTES: nothing in the catalog is refused: k off the pattern's group is a problem no
        // plugin can run (the compressed form cannot describe it), so it must be refused.
        Problem p = catalog().front().problem;
        p.m = p.n = 64;
        p.k = 64 + group_size(p.pattern) / 2;
        c.enter("supports (" + p.label() + ")");
        const auto why = unsupported(c, p.to_abi(), nullptr);
        if (!why) {
            f.fail(fmt::format("supports() accepted {}: k is not a multiple of the {} pattern's group", p.label(), name(p.pattern)));
            return f.result("unsupported-problem");
        }
        refused = p;
        reason = *why;
        f.note("every catalog family is supported");
    }
    const spmma_problem p = refused->to_abi();
    const std::string call = "create(" + refused->label() + ")";
    c.enter(call);
    const spmma_status s = create_expecting_failure(c, f, &p, nullptr, call);
    if (s == SPMMA_OK) f.fail(call + " returned OK though supports() refused it: " + reason);
    else f.note(fmt::format("{} refused: {}; create failed ({})", refused->label(), reason, status_name(s)));
    return f.result("unsupported-problem");
}

}  // namespace spmma::conformance::detail

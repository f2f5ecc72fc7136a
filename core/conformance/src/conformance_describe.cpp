// Checks "info", "kernels" and "devices": the calls a plugin describes itself with. Each answer
// must be complete, out-of-range questions must fail (or, for probe, say "not runnable" and why)
// without crashing, and out-structs must respect the host's struct_size (a canary past it).
#include <spmma/core/conformance_checks.hpp>
#include "conformance_out_struct.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <cstring>
#include <set>

namespace spmma::conformance::detail {
namespace {

std::string quoted_list(const std::vector<std::string>& v, size_t max_items) {
    std::string s;
    for (size_t i = 0; i < v.size() && i < max_items; ++i) s += (i ? ", " : "") + v[i];
    if (v.size() > max_items) s += fmt::format(", ... ({} more)", v.size() - max_items);
    return s;
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code ec1, ec2;
    return std::filesystem::weakly_canonical(a, ec1) == std::filesystem::weakly_canonical(b, ec2);
}

template <size_t N>
bool terminated(const char (&s)[N]) {
    return std::memchr(s, '\0', N) != nullptr;
}

}  // namespace

CheckResult check_info(const CheckContext& c) {
    Findings f;
    CanaryStruct<spmma_plugin_info> full;
    c.enter("get_info");
    const spmma_status s = c.api().get_info(full.get());
    if (s != SPMMA_OK) {
        f.fail("get_info failed: " + describe_status(c, s));
        return f.result("info");
    }
    if (auto v = full.violation("get_info"); !v.empty()) f.fail(v);
    const spmma_plugin_info info = full.value();
    for (const auto& [field, value] : {std::pair{"name", info.name}, {"vendor", info.vendor}, {"version", info.version}, {"target", info.target}})
        if (!value) f.fail(fmt::format("get_info gave a NULL {}", field));
    if (info.name && !*info.name) f.fail("get_info gave an empty name");
    if (!info.description) f.note("description is NULL");

    // NOTES: offsetof(vendor) is smaller than any spmma_plugin_info there has been: the plugin
    // may refuse it, but must not write past it.
    CanaryStruct<spmma_plugin_info> small(offsetof(spmma_plugin_info, vendor));
    c.enter("get_info (a smaller struct_size)");
    c.api().get_info(small.get());
    if (auto v = small.violation("get_info"); !v.empty()) f.fail(v);

    if (info.name && *info.name) {
        size_t others = 0;
        for (const auto& other : c.request.installed) {
            if (same_file(other.file, c.plugin.file)) continue;
            ++others;
            if (other.name == info.name)
                f.fail(fmt::format("the name '{}' is taken by the installed plugin {}; this file ({}) would be refused beside it", info.name,
                                   other.file.string(), c.plugin.file.string()));
        }
        f.note(fmt::format("'{}' {} by {} for {}; unique among {} other installed plugin{}", info.name, info.version ? info.version : "?",
                           info.vendor ? info.vendor : "?", info.target ? info.target : "?", others, others == 1 ? "" : "s"));
    }
    return f.result("info");
}

CheckResult check_kernels(const CheckContext& c) {
    Findings f;
    c.enter("kernel_count");
    const int32_t n = c.api().kernel_count();
    if (n < 0) f.fail(fmt::format("kernel_count returned {}", n));
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (int32_t i = 0; i < n; ++i) {
        CanaryStruct<spmma_kernel_info> k;
        c.enter(fmt::format("get_kernel({})", i));
        const spmma_status s = c.api().get_kernel(i, k.get());
        if (s != SPMMA_OK) {
            f.fail(fmt::format("get_kernel({}) failed: {}", i, describe_status(c, s)));
            continue;
        }
        if (auto v = k.violation(fmt::format("get_kernel({})", i)); !v.empty()) f.fail(v);
        const spmma_kernel_info info = k.value();
        if (!info.name || !*info.name) {
            f.fail(fmt::format("get_kernel({}) gave {} name", i, info.name ? "an empty" : "a NULL"));
            continue;
        }
        if (!seen.insert(info.name).second) f.fail(fmt::format("kernel name '{}' is given twice", info.name));
        names.emplace_back(info.name);
    }
    const auto must_fail = [&](int32_t index, bool null_out, const std::string& call) {
        spmma_kernel_info k{};
        k.struct_size = sizeof k;
        c.enter(call);
        if (c.api().get_kernel(index, null_out ? nullptr : &k) == SPMMA_OK) f.fail(call + " returned OK");
    };
    must_fail(-1, false, "get_kernel(-1)");
    must_fail(n < 0 ? 0 : n, false, fmt::format("get_kernel({}) (the count)", n));
    must_fail(0, true, "get_kernel(0, NULL)");
    f.note(fmt::format("{} kernel{}: {}", n, n == 1 ? "" : "s", quoted_list(names, 4)));
    return f.result("kernels");
}

CheckResult check_devices(const CheckContext& c) {
    Findings f;
    c.enter("device_count");
    const int32_t n = c.api().device_count();
    if (n < 0) f.fail(fmt::format("device_count returned {}", n));
    std::vector<std::string> seen;
    for (int32_t i = 0; i < n; ++i) {
        CanaryStruct<spmma_device_info> d;
        c.enter(fmt::format("probe({})", i));
        const spmma_status s = c.api().probe(i, d.get());
        if (s != SPMMA_OK) {
            f.fail(fmt::format("probe({}) failed: {}", i, describe_status(c, s)));
            continue;
        }
        if (auto v = d.violation(fmt::format("probe({})", i)); !v.empty()) f.fail(v);
        const spmma_device_info info = d.value();
        if (!terminated(info.name) || !terminated(info.arch) || !terminated(info.driver) || !terminated(info.reason) ||
            !terminated(info.uuid) || !terminated(info.pci_bus_id)) {
            f.fail(fmt::format("probe({}) left a string field without its NUL", i));
            continue;
        }
        if (!info.runnable && !*info.reason) f.fail(fmt::format("probe({}): not runnable, and no reason given", i));
        seen.push_back(fmt::format("{}: {} ({}){}", i, info.name, info.arch, info.runnable ? "" : fmt::format(", not runnable: {}", info.reason)));
    }
    for (int32_t bad : {-1, n < 0 ? 0 : n}) {
        spmma_device_info info{};
        info.struct_size = sizeof info;
        const std::string call = fmt::format("probe({}){}", bad, bad == n ? " (the count)" : "");
        c.enter(call);
        if (c.api().probe(bad, &info) != SPMMA_OK) continue;
        info.reason[sizeof info.reason - 1] = '\0';
        if (info.runnable) f.fail(call + " says runnable");
        else if (!*info.reason) f.fail(call + " returned OK, not runnable, but gave no reason");
    }
    c.enter("probe(0, NULL)");
    if (c.api().probe(0, nullptr) == SPMMA_OK) f.fail("probe(0, NULL) returned OK");

    // An ABI 1.0 host: the 1.1 fields (uuid, pci_bus_id) lie past its struct.
    const int32_t dev = c.device() < n ? c.device() : 0;
    CanaryStruct<spmma_device_info> old(offsetof(spmma_device_info, uuid));
    c.enter(fmt::format("probe({}) (an ABI 1.0 struct_size)", dev));
    const spmma_status s = c.api().probe(dev, old.get());
    if (dev < n && s != SPMMA_OK) f.fail(fmt::format("probe({}) with the ABI 1.0 struct_size failed: {}", dev, describe_status(c, s)));
    if (auto v = old.violation(fmt::format("probe({})", dev)); !v.empty()) f.fail(v);

    if (c.device() >= n) f.note(fmt::format("--device {} is not one of its devices", c.device()));
    f.note(fmt::format("{} device{}{}{}", n, n == 1 ? "" : "s", n > 0 ? ": " : "", quoted_list(seen, 4)));
    return f.result("devices");
}

}  // namespace spmma::conformance::detail

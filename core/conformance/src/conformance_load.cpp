// Check "load": the file, its entry symbol and its function table, strictly: everything
// Plugin::load refuses, named (which 1.0 entries are NULL), and which 1.1 entries it has.
#include <spmma/core/conformance_checks.hpp>

#include <boost/dll/shared_library.hpp>
#include <fmt/format.h>

#include <cstddef>
#include <cstring>

namespace spmma::conformance::detail {
namespace {

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

// The 1.0 entries that are NULL (the table reaches all of them: checked before).
std::vector<std::string> null_v10_entries(const spmma_plugin_api& a) {
    const std::pair<const char*, bool> entries[] = {
        {"get_info", a.get_info != nullptr},   {"device_count", a.device_count != nullptr}, {"probe", a.probe != nullptr},
        {"kernel_count", a.kernel_count != nullptr}, {"get_kernel", a.get_kernel != nullptr}, {"supports", a.supports != nullptr},
        {"create", a.create != nullptr},       {"handle_kernel", a.handle_kernel != nullptr}, {"upload", a.upload != nullptr},
        {"run", a.run != nullptr},             {"download", a.download != nullptr},        {"destroy", a.destroy != nullptr},
        {"last_error", a.last_error != nullptr},
    };
    std::vector<std::string> out;
    for (const auto& [name, present] : entries)
        if (!present) out.emplace_back(name);
    return out;
}

// "download_elements yes, describe_handle no (past the table's 128 bytes)"
std::string optional_entries(const spmma_plugin_api& a) {
    const auto reaches = [&](size_t offset) { return a.struct_size >= offset + sizeof(void*); };
    const std::pair<const char*, size_t> entries[] = {
        {"download_elements", offsetof(spmma_plugin_api, download_elements)},
        {"describe_handle", offsetof(spmma_plugin_api, describe_handle)},
    };
    std::vector<std::string> out;
    for (const auto& [name, offset] : entries) {
        if (!reaches(offset)) {
            out.push_back(fmt::format("{} absent (past the table's {} bytes)", name, a.struct_size));
            continue;
        }
        const void* fn = nullptr;
        std::memcpy(&fn, reinterpret_cast<const char*>(&a) + offset, sizeof fn);
        out.push_back(fmt::format("{} {}", name, fn ? "present" : "absent (NULL)"));
    }
    return join(out);
}

}  // namespace

CheckResult check_load(const CheckContext& c) {
    Findings f;
    const auto& file = c.plugin.file;
    boost::dll::shared_library lib;
    try {
        c.enter("loading the file");
        lib = boost::dll::shared_library(file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::exception& e) {
        f.fail(fmt::format("{} cannot be loaded: {}", file.string(), e.what()));
        return f.result("load");
    }
    if (!lib.has(SPMMA_ENTRY_SYMBOL)) {
        f.fail(fmt::format("no '{}' symbol exported", SPMMA_ENTRY_SYMBOL));
        return f.result("load");
    }
    c.enter(SPMMA_ENTRY_SYMBOL);
    const spmma_plugin_api* api = lib.get<const spmma_plugin_api*()>(SPMMA_ENTRY_SYMBOL)();
    if (!api) {
        f.fail(fmt::format("{}() returned NULL: no function table", SPMMA_ENTRY_SYMBOL));
        return f.result("load");
    }
    if (api->abi_major != SPMMA_ABI_MAJOR) {
        f.fail(fmt::format("speaks ABI {}.{}, this spmma speaks {}.{}", api->abi_major, api->abi_minor, SPMMA_ABI_MAJOR, SPMMA_ABI_MINOR));
        return f.result("load");
    }
    if (api->struct_size < kApiV10Size) {
        f.fail(fmt::format("the function table's struct_size is {} bytes; ABI {}.0 needs {}", api->struct_size, SPMMA_ABI_MAJOR, kApiV10Size));
        return f.result("load");
    }
    const auto nulls = null_v10_entries(*api);
    if (!nulls.empty()) f.fail("NULL entries in the function table (all of ABI 1.0 is required): " + join(nulls));
    // Anything else spmma refuses (get_info failing, no name) is said by Plugin::load.
    if (!f.failed() && !c.plugin.usable()) f.fail(fmt::format("spmma refuses it ({}): {}", to_string(c.plugin.state), c.plugin.error));
    f.note(fmt::format("ABI {}.{}, table of {} bytes; 1.1: {}", api->abi_major, api->abi_minor, api->struct_size, optional_entries(*api)));
    return f.result("load");
}

}  // namespace spmma::conformance::detail

#include <spmma/core/plugins.hpp>

#include <spmma/core/problem.hpp>
#include <spmma/core/sha256.hpp>

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>

namespace spmma {

namespace fs = std::filesystem;

const char* status_name(spmma_status s) {
    switch (s) {
        case SPMMA_OK: return "ok";
        case SPMMA_UNSUPPORTED: return "unsupported";
        case SPMMA_INVALID_ARGUMENT: return "invalid argument";
        case SPMMA_DEVICE_ERROR: return "device error";
        case SPMMA_OUT_OF_MEMORY: return "out of memory";
        case SPMMA_INTERNAL_ERROR: return "internal error";
        default: return "unknown status";
    }
}

const char* to_string(PluginState s) {
    switch (s) {
        case PluginState::Loaded: return "loaded";
        case PluginState::LoadFailed: return "load failed";
        case PluginState::NoEntry: return "no entry symbol";
        case PluginState::AbiMismatch: return "ABI mismatch";
        case PluginState::BadTable: return "bad function table";
        case PluginState::Duplicate: return "refused (duplicate name)";
        case PluginState::Crashed: return "crashed while loading";
    }
    return "?";
}

namespace {

std::string str(const char* s) { return s ? s : ""; }

}  // namespace

Plugin Plugin::load(const fs::path& file) {
    Plugin p;
    p.file = file;
    try {
        p.sha256 = sha256_file(file);
    } catch (const std::exception& e) {
        p.state = PluginState::LoadFailed;
        p.error = e.what();
        return p;
    }
    try {
        p.lib_ = std::make_shared<boost::dll::shared_library>(file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::exception& e) {
        p.state = PluginState::LoadFailed;
        p.error = fmt::format("cannot be loaded: {}", e.what());
        return p;
    }
    if (!p.lib_->has(SPMMA_ENTRY_SYMBOL)) {
        p.state = PluginState::NoEntry;
        p.error = fmt::format("not an spmma plugin: no '{}' symbol", SPMMA_ENTRY_SYMBOL);
        return p;
    }
    auto entry = p.lib_->get<const spmma_plugin_api*()>(SPMMA_ENTRY_SYMBOL);
    const spmma_plugin_api* api = entry();
    if (!api) {
        p.state = PluginState::BadTable;
        p.error = "the entry symbol returned no function table";
        return p;
    }
    p.abi_major = api->abi_major;
    p.abi_minor = api->abi_minor;
    if (api->abi_major != SPMMA_ABI_MAJOR) {
        p.state = PluginState::AbiMismatch;
        p.error = fmt::format("speaks ABI {}.{}, this spmma speaks {}.{}", api->abi_major, api->abi_minor, SPMMA_ABI_MAJOR, SPMMA_ABI_MINOR);
        return p;
    }
    if (api->struct_size < kApiV10Size) {
        p.state = PluginState::BadTable;
        p.error = fmt::format("function table of {} bytes, ABI {}.0 needs {}", api->struct_size, SPMMA_ABI_MAJOR, kApiV10Size);
        return p;
    }
    if (!api->get_info || !api->device_count || !api->probe || !api->kernel_count || !api->get_kernel || !api->supports ||
        !api->create || !api->handle_kernel || !api->upload || !api->run || !api->download || !api->destroy || !api->last_error) {
        p.state = PluginState::BadTable;
        p.error = "function table has null entries";
        return p;
    }
    p.api_ = api;
    // 1.1 entries count only where the plugin's table reaches them.
    auto reaches = [&](size_t offset) { return api->struct_size >= offset + sizeof(void*); };
    if (reaches(offsetof(spmma_plugin_api, download_elements))) p.download_elements_ = api->download_elements;
    if (reaches(offsetof(spmma_plugin_api, describe_handle))) p.describe_handle_ = api->describe_handle;
    spmma_plugin_info info{};
    info.struct_size = sizeof info;
    if (api->get_info(&info) != SPMMA_OK) {
        p.state = PluginState::BadTable;
        p.error = "get_info failed: " + p.last_error();
        return p;
    }
    p.name = str(info.name);
    p.vendor = str(info.vendor);
    p.version = str(info.version);
    p.target = str(info.target);
    p.description = str(info.description);
    p.flags = info.flags;
    if (p.name.empty()) {
        p.state = PluginState::BadTable;
        p.error = "get_info gave no name";
        return p;
    }
    const int32_t nk = api->kernel_count();
    for (int32_t i = 0; i < nk; ++i) {
        spmma_kernel_info k{};
        k.struct_size = sizeof k;
        if (api->get_kernel(i, &k) == SPMMA_OK && k.name) p.kernels.push_back({k.name, str(k.description)});
    }
    p.state = PluginState::Loaded;
    return p;
}

int Plugin::device_count() const { return usable() ? api_->device_count() : 0; }

DeviceInfo Plugin::probe(int device) const {
    DeviceInfo d;
    if (!usable()) {
        d.reason = error;
        return d;
    }
    spmma_device_info info{};
    info.struct_size = sizeof info;
    const spmma_status s = api_->probe(device, &info);
    if (s != SPMMA_OK) {
        d.reason = fmt::format("probe failed ({}): {}", status_name(s), last_error());
        return d;
    }
    info.name[sizeof info.name - 1] = info.arch[sizeof info.arch - 1] = info.driver[sizeof info.driver - 1] =
        info.reason[sizeof info.reason - 1] = '\0';
    d.runnable = info.runnable != 0;
    d.name = info.name;
    d.arch = info.arch;
    d.driver = info.driver;
    d.reason = info.reason;
    if (info.struct_size >= offsetof(spmma_device_info, pci_bus_id) + sizeof info.pci_bus_id) {
        info.uuid[sizeof info.uuid - 1] = info.pci_bus_id[sizeof info.pci_bus_id - 1] = '\0';
        d.uuid = info.uuid;
        d.pci_bus_id = info.pci_bus_id;
    }
    if (info.struct_size >= offsetof(spmma_device_info, mem_bus_bits) + sizeof info.mem_bus_bits) {
        // A negative figure is no figure.
        d.sm_count = std::max(info.sm_count, 0);
        d.sm_clock_khz = std::max(info.sm_clock_khz, 0);
        d.mem_clock_khz = std::max(info.mem_clock_khz, 0);
        d.mem_bus_bits = std::max(info.mem_bus_bits, 0);
    }
    if (!d.runnable && d.reason.empty()) d.reason = "the plugin cannot run on this device (it gave no reason)";
    return d;
}

std::optional<std::string> abi_refusal(const PluginIdentity& id, const spmma_problem& p) {
    // NOTES: the epilogue's fields were appended in 1.2; an older plugin copies the problem only
    // as far as its own sizeof and would run alpha*A*B + beta*C, a D that fails verification.
    if (!spmma_problem_has_epilogue(&p) || id.abi_major != 1 || id.abi_minor >= 2) return std::nullopt;
    return fmt::format("speaks ABI {}.{}; the epilogue ({}) needs ABI 1.2", id.abi_major, id.abi_minor, epilogue_label(p));
}

std::optional<std::string> Plugin::unsupported_reason(int device, const spmma_problem& p, const char* kernel) const {
    if (auto why = abi_refusal(*this, p)) return why;
    char reason[1024] = {};
    const spmma_status s = api_->supports(device, &p, kernel, reason, sizeof reason);
    if (s == SPMMA_OK) return std::nullopt;
    reason[sizeof reason - 1] = '\0';
    std::string r = reason;
    if (r.empty()) r = last_error();
    if (s != SPMMA_UNSUPPORTED) r = fmt::format("{} ({})", r, status_name(s));
    return r.empty() ? std::string("unsupported (the plugin gave no reason)") : r;
}

std::string Plugin::last_error() const {
    if (!api_) return error;
    char buf[2048] = {};
    api_->last_error(buf, sizeof buf);
    buf[sizeof buf - 1] = '\0';
    return buf;
}

void Plugin::check(spmma_status s, const char* call) const {
    if (s == SPMMA_OK) return;
    std::string msg = last_error();
    if (msg.empty()) msg = "(no message)";
    throw PluginCallError(s, fmt::format("{}: {}: {}", call, status_name(s), msg));
}

fs::path executable_dir() { return boost::dll::program_location().parent_path(); }

std::vector<fs::path> plugin_search_path(const std::vector<std::string>& cli_dirs, bool use_default) {
    std::vector<fs::path> dirs;
    if (use_default) dirs.push_back((executable_dir() / ".." / "lib" / "spmma" / "plugins").lexically_normal());
    if (const char* env = std::getenv("SPMMA_PLUGIN_PATH")) {
        std::string s = env;
        size_t pos = 0;
        while (pos <= s.size()) {
            const size_t colon = s.find(':', pos);
            const std::string part = s.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
            if (!part.empty()) dirs.emplace_back(part);
            if (colon == std::string::npos) break;
            pos = colon + 1;
        }
    }
    for (const auto& d : cli_dirs)
        if (!d.empty()) dirs.emplace_back(d);
    return dirs;
}

std::vector<fs::path> plugin_files(const std::vector<fs::path>& dirs) {
    std::vector<fs::path> out, seen;
    for (const auto& dir : dirs) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file(ec) && e.path().extension() == boost::dll::shared_library::suffix()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            const fs::path canon = fs::weakly_canonical(f, ec);
            if (std::find(seen.begin(), seen.end(), canon) != seen.end()) continue;
            seen.push_back(canon);
            out.push_back(f);
        }
    }
    return out;
}

void refuse_duplicate_names(std::vector<PluginIdentity*> plugins) {
    for (size_t i = 0; i < plugins.size(); ++i) {
        PluginIdentity& p = *plugins[i];
        if (!p.usable()) continue;
        for (size_t j = 0; j < i; ++j) {
            const PluginIdentity& first = *plugins[j];
            if (first.usable() && first.name == p.name) {
                p.state = PluginState::Duplicate;
                p.error = fmt::format("the name '{}' is taken by {} (found first); this file is not used: rename its plugin", p.name,
                                      first.file.string());
                break;
            }
        }
    }
}

std::vector<Plugin> load_plugins(const std::vector<fs::path>& dirs) {
    std::vector<Plugin> out;
    for (const auto& f : plugin_files(dirs)) out.push_back(Plugin::load(f));
    std::vector<PluginIdentity*> ids;
    for (auto& p : out) ids.push_back(&p);
    refuse_duplicate_names(ids);
    return out;
}

const Plugin* find_plugin(const std::vector<Plugin>& plugins, const std::string& name) {
    for (const auto& p : plugins)
        if (p.usable() && p.name == name) return &p;
    return nullptr;
}

}  // namespace spmma

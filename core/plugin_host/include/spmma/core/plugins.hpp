// Finding and loading plugins (Boost.DLL): the folders searched, the checks on the entry
// symbol and ABI version, and a C++ face on a loaded plugin's C function table.
#pragma once

#include <spmma/plugin.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace boost::dll { class shared_library; }

namespace spmma {

// A failed call into a plugin, with the plugin's own message.
class PluginCallError : public std::runtime_error {
public:
    PluginCallError(spmma_status s, const std::string& message) : std::runtime_error(message), status(s) {}
    spmma_status status;
};

const char* status_name(spmma_status s);

// The bytes of an ABI 1.0 function table (through last_error): a plugin's table must reach this far.
inline constexpr size_t kApiV10Size = offsetof(spmma_plugin_api, last_error) + sizeof(void*);

struct KernelInfo {
    std::string name, description;
};

struct DeviceInfo {
    bool runnable = false;
    std::string name, arch, driver, reason;
    std::string uuid, pci_bus_id;  // ABI 1.1; empty from older plugins and host devices
    // ABI 1.2, the device's peaks (a record's speed of light); 0 from older plugins and where unknown
    int sm_count = 0, sm_clock_khz = 0, mem_clock_khz = 0, mem_bus_bits = 0;
    bool is_gpu() const { return arch.rfind("sm_", 0) == 0; }
};

// Duplicate: a plugin of that name was found first (error names both files); Crashed: the
// worker loading it died or hung (error says how).
enum class PluginState { Loaded, LoadFailed, NoEntry, AbiMismatch, BadTable, Duplicate, Crashed };
const char* to_string(PluginState s);

// What a plugin file said of itself, wherever it was loaded (here or in a worker process).
struct PluginIdentity {
    std::filesystem::path file;
    std::string sha256;  // of the file
    PluginState state = PluginState::LoadFailed;
    std::string error;   // why it is not usable (state != Loaded)

    // Loaded plugins only:
    uint32_t abi_major = 0, abi_minor = 0;
    std::string name, vendor, version, target, description;
    uint32_t flags = 0;
    std::vector<KernelInfo> kernels;

    bool usable() const { return state == PluginState::Loaded; }
    bool dense() const { return flags & SPMMA_PLUGIN_DENSE; }
};

// A plugin loaded into this process.
class Plugin : public PluginIdentity {
public:
    const spmma_plugin_api& api() const { return *api_; }

    int device_count() const;
    DeviceInfo probe(int device) const;
    // Empty when supported, else the plugin's reason.
    std::optional<std::string> unsupported_reason(int device, const spmma_problem& p, const char* kernel) const;
    // The plugin's last error on this thread, for a failed call.
    std::string last_error() const;
    // Throws PluginCallError with last_error() when s is not OK.
    void check(spmma_status s, const char* call) const;
    // The optional 1.1 entries (null when the plugin's table lacks them).
    decltype(spmma_plugin_api::download_elements) download_elements_fn() const { return download_elements_; }
    decltype(spmma_plugin_api::describe_handle) describe_handle_fn() const { return describe_handle_; }

    // Loads and checks one file; never throws (the state and error say what went wrong).
    static Plugin load(const std::filesystem::path& file);

private:
    std::shared_ptr<boost::dll::shared_library> lib_;
    const spmma_plugin_api* api_ = nullptr;
    decltype(spmma_plugin_api::download_elements) download_elements_ = nullptr;
    decltype(spmma_plugin_api::describe_handle) describe_handle_ = nullptr;
};

// Why the host does not send `p` to a plugin of `id`'s ABI version, or nullopt: a plugin of ABI
// 1.0 or 1.1 reads a problem only as far as its own struct and could not see an epilogue
// ("speaks ABI 1.1; the epilogue (rs bias:col/f32 relu) needs ABI 1.2").
std::optional<std::string> abi_refusal(const PluginIdentity& id, const spmma_problem& p);

// The folders searched, in order: lib/spmma/plugins beside the binary's bin/ (the installed
// plugins, build and install trees alike), SPMMA_PLUGIN_PATH (':'-separated, empty entries
// ignored), then --plugin-dir arguments. A name is taken by the first plugin that has it, so a
// drop-in folder never replaces an installed plugin. Never the current directory unless named.
std::vector<std::filesystem::path> plugin_search_path(const std::vector<std::string>& cli_dirs, bool use_default = true);

// Every shared library in the folders, in search-path order (sorted by name within a folder),
// each file once.
std::vector<std::filesystem::path> plugin_files(const std::vector<std::filesystem::path>& dirs);

// Names are identities: a usable plugin whose name an earlier one took becomes Duplicate, its
// error naming both files.
void refuse_duplicate_names(std::vector<PluginIdentity*> plugins);

// Every plugin file in the folders loaded into this process, duplicates refused.
std::vector<Plugin> load_plugins(const std::vector<std::filesystem::path>& dirs);

const Plugin* find_plugin(const std::vector<Plugin>& plugins, const std::string& name);

// The folder of the running executable.
std::filesystem::path executable_dir();

}  // namespace spmma

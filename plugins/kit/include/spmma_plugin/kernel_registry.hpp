// A plugin's kernel table as the host needs it: the plugin's own entries (built once, in the
// order the plugin lists them), the same kernels as the ABI's spmma_kernel_info array, and
// lookup by name. Entry is the plugin's struct; it needs `name` and `description`
// (std::string or const char*), which the info array points into.
//
// NOTES: the registry owns both arrays and is neither copied nor moved, so the info strings stay
// valid for as long as it lives; kernel_registry<Entry, build>() keeps one for the life of the
// plugin, built on first use (not at dlopen).
#pragma once

#include <spmma/plugin.h>

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spmma_plugin {

// What a GPU plugin's kernel entry starts with (it derives from it and adds its own fields):
// the kernel's name (also its extern "C" symbol, unless `symbol` names another: an entry that runs
// a kernel in a way of its own), one line of description, and the embedded device image (fatbin)
// holding it.
struct KernelCode {
    std::string name;
    std::string description;
    const void* image = nullptr;
    std::string symbol;  // the extern "C" function where it differs from the name (empty: the name)

    const std::string& function() const { return symbol.empty() ? name : symbol; }
};

template <class Entry>
class KernelRegistry {
public:
    explicit KernelRegistry(std::vector<Entry> entries) : entries_(std::move(entries)) {
        infos_.reserve(entries_.size());
        for (const Entry& e : entries_) {
            spmma_kernel_info k{};
            k.struct_size = sizeof k;
            k.name = c_str(e.name);
            k.description = c_str(e.description);
            infos_.push_back(k);
        }
    }
    KernelRegistry(const KernelRegistry&) = delete;
    KernelRegistry& operator=(const KernelRegistry&) = delete;

    std::span<const Entry> entries() const { return entries_; }
    // The entries as the ABI lists kernels: same order, strings owned by the entries.
    std::span<const spmma_kernel_info> infos() const { return infos_; }
    // The entry named `name` (exactly), or nullptr (also for a null name).
    const Entry* find(const char* name) const {
        if (!name) return nullptr;
        for (const Entry& e : entries_)
            if (std::string_view(e.name) == name) return &e;
        return nullptr;
    }

private:
    static const char* c_str(const std::string& s) { return s.c_str(); }
    static const char* c_str(const char* s) { return s; }

    std::vector<Entry> entries_;
    std::vector<spmma_kernel_info> infos_;
};

// The plugin's one registry of the entries `Build` returns, built on the first call.
template <class Entry, std::vector<Entry> (*Build)()>
const KernelRegistry<Entry>& kernel_registry() {
    static const KernelRegistry<Entry> registry(Build());
    return registry;
}

}  // namespace spmma_plugin

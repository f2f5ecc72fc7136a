// A plugin .so loaded the way the host loads it (dlopen + the C entry point), for tests that look
// at a plugin without the core's loader. Header-only: include it as "../common/plugin.hpp".
// Each helper fails the running test (REQUIRE) when the plugin cannot be loaded or listed.
#pragma once

#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include <dlfcn.h>

#include <string>
#include <vector>

namespace spmma_test {

// The API table of plugin `so`; the plugin stays loaded for the rest of the process.
inline const spmma_plugin_api* load_plugin(const std::string& so) {
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    INFO("dlopen " << so << ": " << (h ? "ok" : dlerror()));
    REQUIRE(h != nullptr);
    auto entry = reinterpret_cast<spmma_plugin_entry_fn>(dlsym(h, SPMMA_ENTRY_SYMBOL));
    REQUIRE(entry != nullptr);
    const spmma_plugin_api* api = entry();
    REQUIRE(api != nullptr);
    return api;
}

// The kernels plugin `so` lists, in its order (names copied out of the plugin).
inline std::vector<std::string> plugin_kernel_names(const std::string& so) {
    const spmma_plugin_api* api = load_plugin(so);
    std::vector<std::string> names;
    for (int32_t i = 0; i < api->kernel_count(); ++i) {
        spmma_kernel_info k{};
        k.struct_size = sizeof k;
        REQUIRE(api->get_kernel(i, &k) == SPMMA_OK);
        names.emplace_back(k.name);
    }
    return names;
}

}  // namespace spmma_test

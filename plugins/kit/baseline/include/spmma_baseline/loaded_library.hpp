// A vendor library as a baseline loads it, once, at run time (vendor_library.hpp finds the
// file): its function table or why there is none; and the error a failed call of it raises.
// Header-only: it needs the plugin boundary (spmma_plugin::Error).
#pragma once

#include <spmma_plugin/boundary.hpp>

#include <string>

namespace spmma_baseline {

template <class Fns>
struct LoadedLibrary {
    const Fns* fns = nullptr;  // null when not usable
    std::string path;          // the file loaded
    std::string version;       // "13.1.0"
    std::string why_not;       // "cuBLASLt not found: tried ..."

    // The functions; throws Error(SPMMA_UNSUPPORTED, why_not) when the library is not usable.
    const Fns& require() const {
        if (!fns) spmma_plugin::unsupported(why_not);
        return *fns;
    }
};

// Throws Error(status, "file:line: call failed: NAME (text)") for a library call that failed;
// `name` and `text` are the library's words for its status (null when it has none: `fallback`).
[[noreturn]] inline void fail_library_call(spmma_status status, const char* file, int line, const char* call,
                                           const char* name, const char* text, const std::string& fallback) {
    spmma_plugin::fail(status, std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                                   (name ? std::string(name) : fallback) + (text ? std::string(" (") + text + ")" : ""));
}

}  // namespace spmma_baseline

// A plugin's tuning switch in an environment variable: one of a few words, or unset. A word
// outside the list is the caller's error (SPMMA_INVALID_ARGUMENT, naming the variable and the
// words it takes), never silently the default.
#pragma once

#include <spmma_plugin/boundary.hpp>

#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>

namespace spmma_plugin {

// The index in `words` of the value of environment variable `name`; nullopt when it is unset or
// empty.
inline std::optional<int> env_choice(const char* name, std::initializer_list<const char*> words) {
    const char* v = std::getenv(name);
    if (!v || !v[0]) return std::nullopt;
    int i = 0;
    std::string expected;
    for (const char* w : words) {
        if (std::string(v) == w) return i;
        expected += (i++ ? " or " : "") + std::string(w);
    }
    fail(SPMMA_INVALID_ARGUMENT, std::string(name) + "='" + v + "': expected " + expected);
}

}  // namespace spmma_plugin

// A plugin's tuning switch in an environment variable: one of a few words, a count, or unset. A
// value outside what the switch takes is the caller's error (SPMMA_INVALID_ARGUMENT, naming the
// variable and what it takes), never silently the default.
#pragma once

#include <spmma_plugin/boundary.hpp>

#include <cerrno>
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

// A count from 1 to `most`, or one of `words`, in environment variable `name`: the word's index
// (count 0) or the count (word -1); nullopt when it is unset or empty.
struct EnvCount {
    int word = -1;
    long count = 0;
};
inline std::optional<EnvCount> env_count(const char* name, long most, std::initializer_list<const char*> words = {}) {
    const char* v = std::getenv(name);
    if (!v || !v[0]) return std::nullopt;
    std::string expected;
    int i = 0;
    for (const char* w : words) {
        if (std::string(v) == w) return EnvCount{i, 0};
        expected += std::string(w) + (++i < static_cast<int>(words.size()) ? ", " : " or ");
    }
    char* end = nullptr;
    errno = 0;
    const long c = std::strtol(v, &end, 10);
    if (*end || errno || c < 1 || c > most)
        fail(SPMMA_INVALID_ARGUMENT,
             std::string(name) + "='" + v + "': expected " + expected + "a count from 1 to " + std::to_string(most));
    return EnvCount{-1, c};
}

}  // namespace spmma_plugin

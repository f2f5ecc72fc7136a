// Where a baseline keeps the plans its searches found, so that a later process skips the search:
// one JSON file per library (cusparselt-plans.json, cublas-plans.json) in spmma's cache folder,
// keyed by what decides the plan: the kind of device (name and compute capability, not its UUID:
// a plan found on one H200 holds on every H200), the library's version, and the problem's padded
// shape, types and layouts. Pure C++ (tests/baselines checks it on the host).
//
// File format (version 1):
//   {"version": 1, "plans": {"<key text>": {"key": {...}, "plan": {...}, "search": {...},
//                                          "stored": "2026-11-24T12:00:00Z"}}}
// "plan" is the plugin's own (what it needs to rebuild the choice); "search" how it was found.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spmma_baseline {

struct PlanKey {
    std::string device;    // "NVIDIA H200"
    std::string arch;      // "sm_90"
    std::string library;   // "cuSPARSELt 0.8.1"
    int64_t m = 0, n = 0, k = 0;  // the sizes the library is called with (after padding)
    std::string types;     // "ab=f16 cd=f16 compute=32F"
    std::string layout;    // "A row N, B row T, C/D row"
    // One line naming every field; the entry's name in the file.
    std::string text() const;
    nlohmann::json to_json() const;
};

enum class CacheMode { On, Off, Refresh };

struct CacheSettings {
    CacheMode mode = CacheMode::On;
    std::filesystem::path file;  // empty when no folder can be named (no $HOME)
};

// The settings for `file_name` from the environment (`env` returns "" for an unset variable):
// SPMMA_PLAN_CACHE on (default) | off (no file; each process still searches a problem once) |
// refresh (search again and overwrite); the folder is $SPMMA_CACHE_DIR, else
// $XDG_CACHE_HOME/spmma, else $HOME/.cache/spmma. Throws std::invalid_argument for another
// SPMMA_PLAN_CACHE value.
CacheSettings cache_settings(const std::string& file_name, const std::function<std::string(const char*)>& env);
CacheSettings cache_settings(const std::string& file_name);  // from the process environment

// The file itself. Never throws: a file that cannot be read, parsed or written is left out of
// the answer and note() says what happened (each distinct message once, joined by "; ").
class PlanFile {
public:
    explicit PlanFile(std::filesystem::path file) : file_(std::move(file)) {}

    // The entry stored under key ({"key", "plan", "search", "stored"}), or nullopt.
    std::optional<nlohmann::json> find(const PlanKey& key);
    // Adds or replaces key's entry. Safe against other processes doing the same: under an
    // exclusive lock on <file>.lock it reads the file again, merges, writes a temporary file
    // in the same folder and renames it over the file (a reader sees the old or the new file,
    // never half of one). A file that is not a plan file is moved aside to <file>.corrupt.
    bool store(const PlanKey& key, const nlohmann::json& plan, const nlohmann::json& search);

    const std::filesystem::path& path() const { return file_; }
    std::string note() const;

private:
    // The parsed file (an empty plan file when absent); nullopt when unusable, with a note.
    std::optional<nlohmann::json> read();
    void say(const std::string& message);

    std::filesystem::path file_;
    std::vector<std::string> notes_;
};

// Now in UTC, "2026-11-24T12:00:00Z".
std::string utc_now_text();

}  // namespace spmma_baseline

// How a baseline gets its plan for one problem: the plan this process already found for the same
// key, else the cache file's, else a search. A plan from memory or the file is used only after it
// is built again without error (a library or driver update can retire an algorithm); one that
// fails is searched for again. A search's result is kept for the rest of the process (even with
// SPMMA_PLAN_CACHE=off) and written to the file (unless off). Pure C++: the plugin hands in how
// to build a stored plan and how to search (tests/baselines drives it with fakes).
#pragma once

#include <spmma_baseline/plan_cache.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace spmma_baseline {

struct PlanChoice {
    nlohmann::json plan;    // the plugin's own description of the choice
    nlohmann::json search;  // how it was found (SearchOutcome::to_json + "when"), here or earlier
    std::string how;        // "searched" or "cache"
    std::string source;     // for "cache": the file, or "this process"
    std::string stored_in;  // for "searched": the file it was written to ("" when not written)
    double search_ms = 0;   // time this choice spent searching (0 on a cache hit)
    std::string note;       // what the cache had to say ("...: not valid JSON (...): ignored")
    // For describe(): {"plan": how, "search": ..., "search_ms": ..., "cache": source or
    // "cache_file": stored_in, "cache_note": note (when there is one)}.
    nlohmann::json notes() const;
};

struct PlanSource {
    // Builds the plugin's state from a stored plan; false, with why, when that fails.
    std::function<bool(const nlohmann::json& plan, std::string& why)> apply;
    // Searches and leaves the plugin's state on the pick: {plan, how it was found}.
    std::function<std::pair<nlohmann::json, nlohmann::json>()> search;
};

// Plans found or loaded in this process, by key text (thread-safe).
class PlanMemory {
public:
    struct Entry {
        nlohmann::json plan, search;
        std::string source;  // "this process" or the file it came from
    };
    std::optional<Entry> find(const std::string& key) const;
    void store(const std::string& key, Entry e);

private:
    mutable std::mutex mutex_;
    std::map<std::string, Entry> entries_;
};

// The process's own (one per plugin library loaded).
PlanMemory& process_plans();

// Throws what source.search throws.
PlanChoice choose_plan(const PlanKey& key, const CacheSettings& settings, const PlanSource& source,
                       PlanMemory& memory = process_plans());

}  // namespace spmma_baseline

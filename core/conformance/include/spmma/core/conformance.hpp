// The conformance suite a plugin vendor runs before shipping (`spmma check-plugin FILE.so`):
// eleven checks of one plugin file against the ABI (plugin.h, ABI.md), each run inside a worker
// process, so a plugin that crashes or hangs in one check fails that check and the suite goes on
// in a fresh worker. ABI.md, "Checking a plugin before shipping", says what each check proves.
#pragma once

#include <spmma/core/problem.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace spmma::protocol {
class Handlers;
}

namespace spmma::conformance {

enum class Outcome { Pass, Fail, Skip };
const char* to_string(Outcome o);

struct CheckResult {
    std::string name;
    Outcome result = Outcome::Fail;
    std::string detail;               // why it failed or skipped; what it saw when it passed
    std::vector<CheckResult> parts;   // verification: one per problem family
    int runs = 0, verified = 0;       // verification: runs made, and those whose D verified
    double seconds = 0;               // wall time of the check, the worker's start included
    nlohmann::json to_json() const;
    static CheckResult from_json(const nlohmann::json& j);
};

// The checks in the order they run (check_plugin and the worker's Check request use these names).
const std::vector<std::string>& check_names();

// ---- the problem catalog (verification, and the small problems other checks need) ----------

// One family of problems: every operand type spmma knows, accumulators, epilogues, block scales.
struct Family {
    std::string name;  // "f16", "e4m3xe5m2", "s8-satfinite", "e2m1/ue4m3"
    Problem problem;   // types, pattern, scales, alpha and beta; m, n, k set per run
    // k must be a multiple of this (the pattern's group and the scale block).
    int64_t k_step() const;
};
// Built with apply_default_types and validate; the order is the order of the report.
const std::vector<Family>& catalog();
const Family* find_family(const std::string& name);

// ---- one check, run where the plugin is loaded (the worker) --------------------------------

// A plugin in the default plugin folder, as loaded by spmma (for the name-uniqueness check).
struct InstalledPlugin {
    std::filesystem::path file;
    std::string name;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(InstalledPlugin, file, name)

// The worker protocol's Check request (worker_protocol.hpp) carries it.
struct CheckRequest {
    std::string name;                      // one of check_names()
    int device = 0;
    std::string family;                    // verification: the family to run
    std::vector<InstalledPlugin> installed;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CheckRequest, name, device, family, installed)

// Registers the worker's Check request in its table: the check the request names, run on the
// plugin loaded there (spmma's worker command registers it; the worker knows no checks).
void serve_checks(protocol::Handlers& handlers);

// ---- the whole suite, from the parent -------------------------------------------------------

struct SuiteOptions {
    std::filesystem::path file;           // the plugin
    int device = 0;
    double timeout_s = 60;                // each plugin call (stage) of a check
    std::filesystem::path worker_exe;     // the spmma binary (its `worker` command)
    std::filesystem::path installed_dir;  // the default plugin folder
};

struct SuiteReport {
    std::filesystem::path file;
    int device = 0;
    nlohmann::json plugin;            // what the plugin said of itself when a worker loaded it (null: it did not)
    std::vector<CheckResult> checks;
    bool passed() const;  // nothing failed (skips do not fail)
    nlohmann::json to_json() const;
};

// Runs every check; `on_check` is told of each result as it comes.
SuiteReport check_plugin(const SuiteOptions& options, const std::function<void(const CheckResult&)>& on_check = {});

// The printed table: name, result, detail (verification's families indented under it).
std::string format_header();
std::string format_row(const CheckResult& r);

}  // namespace spmma::conformance

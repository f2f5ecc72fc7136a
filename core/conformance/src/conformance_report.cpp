// The conformance suite's results as data: check names, JSON forms (the worker protocol and
// --json), and the printed table.
#include <spmma/core/conformance.hpp>

#include <spmma/plugin.h>

#include <fmt/format.h>

#include <stdexcept>

namespace spmma::conformance {

const char* to_string(Outcome o) {
    switch (o) {
        case Outcome::Pass: return "pass";
        case Outcome::Fail: return "fail";
        case Outcome::Skip: return "skip";
    }
    return "?";
}

namespace {

Outcome parse_outcome(const std::string& s) {
    for (Outcome o : {Outcome::Pass, Outcome::Fail, Outcome::Skip})
        if (s == to_string(o)) return o;
    throw std::invalid_argument("unknown check result '" + s + "'");
}

}  // namespace

const std::vector<std::string>& check_names() {
    static const std::vector<std::string> names = {"load",           "info",           "kernels",      "devices",
                                                   "bad-arguments",  "unknown-kernel", "unsupported-problem",
                                                   "verification",   "churn",          "last-error-threads",
                                                   "iterations"};
    return names;
}

nlohmann::json CheckResult::to_json() const {
    nlohmann::json j = {{"name", name}, {"result", to_string(result)}, {"detail", detail}, {"seconds", seconds}};
    if (runs > 0 || !parts.empty()) {
        j["runs"] = runs;
        j["verified"] = verified;
    }
    if (!parts.empty()) {
        j["parts"] = nlohmann::json::array();
        for (const auto& p : parts) j["parts"].push_back(p.to_json());
    }
    return j;
}

CheckResult CheckResult::from_json(const nlohmann::json& j) {
    CheckResult r;
    r.name = j.at("name");
    r.result = parse_outcome(j.at("result"));
    r.detail = j.at("detail");
    r.seconds = j.value("seconds", 0.0);
    r.runs = j.value("runs", 0);
    r.verified = j.value("verified", 0);
    if (j.contains("parts"))
        for (const auto& p : j.at("parts")) r.parts.push_back(from_json(p));
    return r;
}

bool SuiteReport::passed() const {
    for (const auto& c : checks)
        if (c.result == Outcome::Fail) return false;
    return true;
}

nlohmann::json SuiteReport::to_json() const {
    int counts[3] = {0, 0, 0};
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : checks) {
        ++counts[static_cast<int>(c.result)];
        list.push_back(c.to_json());
    }
    return {{"spmma_version", SPMMA_VERSION},
            {"abi", fmt::format("{}.{}", SPMMA_ABI_MAJOR, SPMMA_ABI_MINOR)},
            {"file", file.string()},
            {"device", device},
            {"plugin", plugin},
            {"passed", passed()},
            {"counts", {{"pass", counts[0]}, {"fail", counts[1]}, {"skip", counts[2]}}},
            {"checks", list}};
}

std::string format_header() { return fmt::format("{:<22} {:<6} {}\n", "check", "result", "detail"); }

std::string format_row(const CheckResult& r) {
    std::string s = fmt::format("{:<22} {:<6} {}\n", r.name, to_string(r.result), r.detail);
    // Skipped parts (families the plugin does not support) on one line; --json has their reasons.
    std::string skipped;
    for (const auto& p : r.parts) {
        if (p.result == Outcome::Skip) skipped += (skipped.empty() ? "" : " ") + p.name;
        else s += fmt::format("  {:<20} {:<6} {}\n", p.name, to_string(p.result), p.detail);
    }
    if (!skipped.empty()) s += fmt::format("  {:<20} {:<6} {}\n", "not supported", "skip", skipped);
    return s;
}

}  // namespace spmma::conformance

#include <spmma/core/compare.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <stdexcept>

namespace spmma {
namespace {

struct Entry {
    std::string status;
    double median_ms = 0;
};

// key -> entry, in file order of first appearance
std::vector<std::pair<std::string, Entry>> read_records(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot open", file.string()));
    std::vector<std::pair<std::string, Entry>> out;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty()) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
            const std::string key = fmt::format("{} | {} | {}", j.at("problem").at("label").get<std::string>(),
                                                j.at("plugin").at("name").get<std::string>(), j.at("kernel").get<std::string>());
            Entry e;
            e.status = j.at("status").get<std::string>();
            if (j.contains("timing") && j["timing"]["median_ms"].is_number()) e.median_ms = j["timing"]["median_ms"].get<double>();
            out.emplace_back(key, e);
        } catch (const std::exception& ex) {
            throw std::runtime_error(fmt::format("{}:{}: not an spmma record: {}", file.string(), n, ex.what()));
        }
    }
    return out;
}

}  // namespace

CompareResult compare_records(const std::filesystem::path& old_file, const std::filesystem::path& new_file, double max_slowdown) {
    const auto olds = read_records(old_file);
    const auto news = read_records(new_file);
    std::map<std::string, Entry> old_map(olds.begin(), olds.end());
    std::map<std::string, bool> seen;
    CompareResult r;
    for (const auto& [key, e] : news) {
        seen[key] = true;
        const auto it = old_map.find(key);
        if (it == old_map.end()) {
            r.only_new.push_back(key);
            continue;
        }
        CompareRow row;
        row.key = key;
        row.old_status = it->second.status;
        row.new_status = e.status;
        row.old_ms = it->second.median_ms;
        row.new_ms = e.median_ms;
        if (row.old_ms > 0 && row.new_ms > 0) row.change = row.new_ms / row.old_ms - 1.0;
        const bool ran_ok = e.status == "verified" || e.status == "unverified";
        const bool was_ok = row.old_status == "verified" || row.old_status == "unverified";
        if (was_ok && !ran_ok) {
            row.regression = true;
            row.why = fmt::format("was {}, now {}", row.old_status, row.new_status);
        } else if (!ran_ok && (e.status == "failed" || e.status == "error")) {
            row.regression = true;
            row.why = "still " + e.status;
        } else if (row.change > max_slowdown) {
            row.regression = true;
            row.why = fmt::format("{:.1f}% slower (allowed {:.1f}%)", 100 * row.change, 100 * max_slowdown);
        }
        r.regressions += row.regression;
        r.rows.push_back(row);
    }
    for (const auto& [key, e] : olds)
        if (!seen.count(key)) r.only_old.push_back(key);
    return r;
}

std::string format_compare(const CompareResult& r, double max_slowdown) {
    std::string out = fmt::format("{:<80} {:>10} {:>10} {:>8}  {}\n", "problem | plugin | kernel", "old ms", "new ms", "change", "");
    for (const auto& row : r.rows)
        out += fmt::format("{:<80} {:>10.4f} {:>10.4f} {:>+7.1f}%  {}\n", row.key, row.old_ms, row.new_ms, 100 * row.change,
                           row.regression ? "REGRESSION: " + row.why : (row.new_status == "verified" ? "ok" : row.new_status));
    for (const auto& k : r.only_old) out += fmt::format("only in the old file: {}\n", k);
    for (const auto& k : r.only_new) out += fmt::format("only in the new file: {}\n", k);
    out += fmt::format("\n{} compared, {} regressions (slowdown allowed: {:.1f}%)\n", r.rows.size(), r.regressions, 100 * max_slowdown);
    return out;
}

}  // namespace spmma

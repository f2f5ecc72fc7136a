#include <spmma/core/merge.hpp>

#include <spmma/core/record.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

namespace spmma {
namespace {

struct Found {
    nlohmann::json record;
    std::string where;  // file:line
    int64_t job = 0;
};

std::vector<Found> read_all(const std::vector<std::filesystem::path>& files) {
    std::vector<Found> out;
    for (const auto& f : files) {
        std::ifstream in(f);
        if (!in) throw std::runtime_error(fmt::format("{}: cannot open", f.string()));
        std::string line;
        int n = 0;
        while (std::getline(in, line)) {
            ++n;
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            Found x;
            x.where = fmt::format("{}:{}", f.string(), n);
            try {
                x.record = nlohmann::json::parse(line);
                const nlohmann::json& sweep = x.record.at("sweep");
                x.job = sweep.at("job").get<int64_t>();
                // NOTES: "jobs" sizes the completeness check: a number that is not a whole count
                // of jobs (1e9 written as 1e+09 is a float) is refused here, not looped over.
                if (sweep.contains("jobs") && !sweep["jobs"].is_number_integer())
                    throw std::invalid_argument(fmt::format("sweep.jobs: expected a whole number, found {}", sweep["jobs"].dump()));
                if (sweep.value("jobs", int64_t{1}) < 1) throw std::invalid_argument("sweep.jobs: must be 1 or more");
                x.record.at("problem").at("label").get<std::string>();
                x.record.at("plugin").at("name").get<std::string>();
            } catch (const std::exception& e) {
                throw std::runtime_error(fmt::format("{}: not a record of a sweep ({})", x.where, e.what()));
            }
            out.push_back(std::move(x));
        }
    }
    return out;
}

std::string label_of(const nlohmann::json& r) { return r["problem"]["label"].get<std::string>(); }

}  // namespace

MergeResult merge_records(const std::vector<std::filesystem::path>& files, const std::optional<std::vector<Job>>& workload) {
    std::vector<Found> found = read_all(files);
    MergeResult m;
    std::set<int64_t> counts;
    for (const auto& x : found) counts.insert(x.record["sweep"].value("jobs", int64_t{0}));
    if (workload) m.jobs = static_cast<int64_t>(workload->size());
    else if (!counts.empty()) m.jobs = *counts.rbegin();
    if (counts.size() > 1) m.mismatched.push_back(fmt::format("the records disagree on the workload's size ({} jobs and {})", *counts.begin(), *counts.rbegin()));

    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.job < b.job; });
    std::map<std::string, std::string> seen;                            // resume key -> where
    std::map<int64_t, std::pair<std::string, std::set<std::string>>> by_job;  // label, plugins found
    std::map<int64_t, std::set<std::string>> expected;                  // plugins each job's records say it runs on
    for (auto& x : found) {
        const nlohmann::json& r = x.record;
        const std::string plugin = r["plugin"]["name"].get<std::string>();
        const std::string kernel = r.value("kernel_request", "");
        if (x.job < 0 || x.job >= m.jobs) {
            m.mismatched.push_back(fmt::format("{}: job {} is outside the workload's {} jobs", x.where, x.job, m.jobs));
            continue;
        }
        if (workload && label_of(r) != (*workload)[static_cast<size_t>(x.job)].problem.label())
            m.mismatched.push_back(fmt::format("{}: job {} is {} in the records but {} in the workload", x.where, x.job, label_of(r),
                                               (*workload)[static_cast<size_t>(x.job)].problem.label()));
        const std::string key = resume_key(r["problem"], r.value("run", nlohmann::json::object()), plugin, kernel);
        if (auto it = seen.find(key); it != seen.end()) {
            m.duplicates.push_back(fmt::format("job {} ({}) on {}{}: in {} and {}", x.job, label_of(r), plugin,
                                               kernel.empty() ? "" : " (kernel " + kernel + ")", it->second, x.where));
            continue;
        }
        seen[key] = x.where;
        by_job[x.job].first = label_of(r);
        by_job[x.job].second.insert(plugin);
        if (r["sweep"].contains("plugins"))
            for (const auto& p : r["sweep"]["plugins"]) expected[x.job].insert(p.get<std::string>());
        m.records.push_back(std::move(x.record));
    }
    // NOTES: jobs without records are listed one by one up to kListed, then as runs of job
    // numbers: a record claiming a billion jobs costs a line, not a billion strings.
    constexpr int64_t kListed = 1000;
    int64_t listed = 0;
    auto job_missing = [&](int64_t from, int64_t to) {  // [from, to) have no records
        for (; from < to && listed < kListed; ++from, ++listed) {
            const std::string label = workload ? (*workload)[static_cast<size_t>(from)].problem.label() : std::string("?");
            m.missing.push_back(fmt::format("job {} ({}): no records", from, label));
        }
        if (from < to) m.missing.push_back(fmt::format("jobs {} to {} ({} jobs): no records", from, to - 1, to - from));
    };
    int64_t next = 0;  // the first job not yet looked at
    for (const auto& [j, found_job] : by_job) {
        job_missing(next, j);
        next = j + 1;
        for (const auto& p : expected[j])
            if (!found_job.second.count(p)) m.missing.push_back(fmt::format("job {} ({}): no record of plugin {}", j, found_job.first, p));
    }
    job_missing(next, m.jobs);
    return m;
}

}  // namespace spmma

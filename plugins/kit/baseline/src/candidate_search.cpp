#include <spmma_baseline/candidate_search.hpp>

#include <spmma_baseline/host_clock.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>

namespace spmma_baseline {
namespace {

// How many failures a search keeps word for word (the count is always complete).
constexpr size_t kFailuresKept = 5;

int launches_for(double budget_ms, double estimate_ms, int lo, int hi) {
    if (!(estimate_ms > 0)) return hi;
    const double n = std::ceil(budget_ms / estimate_ms);
    return static_cast<int>(std::clamp(n, static_cast<double>(lo), static_cast<double>(hi)));
}

}  // namespace

// NOTES: a plugin sees only the C header and the kit, never spmma's core, so the kit keeps this
// median of its own (core/stats/median.hpp is spmma's); both take the mean of the middle two.
double median_ms(std::vector<float> times) {
    if (times.empty()) return 0;
    std::sort(times.begin(), times.end());
    const size_t n = times.size();
    return n % 2 ? times[n / 2] : (static_cast<double>(times[n / 2 - 1]) + times[n / 2]) / 2;
}

nlohmann::json SearchOutcome::to_json(const NameCandidate& name) const {
    nlohmann::json j = {{"pick", name(best)}, {"best_ms", best_ms}, {"tried", tried}, {"failed", failed},
                        {"launches", launches}, {"ms", ms}};
    if (runner_up) {
        j["runner_up"] = name(*runner_up);
        j["runner_up_ms"] = runner_up_ms;
    }
    if (!failures.empty()) j["failures"] = failures;
    return j;
}

CandidateSearch::CandidateSearch(TimeCandidate time, NameCandidate name, SearchBudget budget)
    : time_(std::move(time)), name_(std::move(name)), budget_(budget) {}

int CandidateSearch::screen_launches(const SearchBudget& b, double estimate_ms) {
    return launches_for(b.screen_ms, estimate_ms, b.screen_min, b.screen_max);
}

int CandidateSearch::final_launches(const SearchBudget& b, double estimate_ms) {
    return launches_for(b.final_ms, estimate_ms, b.final_min, b.final_max);
}

void CandidateSearch::record_failure(size_t index, const std::string& what) {
    ++outcome_.failed;
    last_failure_ = name_(index) + ": " + what;
    if (outcome_.failures.size() < kFailuresKept) outcome_.failures.push_back(last_failure_);
}

std::optional<double> CandidateSearch::time_one(size_t index, int warmup, int launches, std::vector<float>& out) {
    try {
        std::vector<float> t = time_(index, warmup, launches);
        outcome_.launches += warmup + launches;
        if (t.empty()) throw std::runtime_error("no times came back");
        for (const float x : t)
            if (!(x > 0) || !std::isfinite(x)) throw std::runtime_error("a launch time of " + std::to_string(x) + " ms");
        out.insert(out.end(), t.begin(), t.end());
        return median_ms(std::move(t));
    } catch (const std::exception& e) {
        record_failure(index, e.what());
        return std::nullopt;
    }
}

void CandidateSearch::screen(const std::vector<size_t>& candidates) {
    if (started_ < 0) started_ = host_ms();
    for (const size_t index : candidates) {
        ++outcome_.tried;
        // NOTES: the first candidate that runs is the probe: 3 launches, whose median sizes
        // every later one's count (a 0.07 ms GEMM gets 20 launches, an 8 ms one 3).
        const int launches = estimate_ms_ ? screen_launches(budget_, *estimate_ms_) : budget_.screen_min;
        std::vector<float> times;
        const auto median = time_one(index, 1, launches, times);
        if (!median) continue;
        if (!estimate_ms_) estimate_ms_ = *median;
        screened_.push_back({index, *median});
    }
}

std::vector<size_t> CandidateSearch::ranked() const {
    std::vector<Screened> s = screened_;
    std::stable_sort(s.begin(), s.end(), [](const Screened& a, const Screened& b) { return a.median_ms < b.median_ms; });
    std::vector<size_t> out;
    for (const auto& x : s) out.push_back(x.index);
    return out;
}

SearchOutcome CandidateSearch::finish() {
    if (started_ < 0) started_ = host_ms();
    std::vector<Screened> s = screened_;
    std::stable_sort(s.begin(), s.end(), [](const Screened& a, const Screened& b) { return a.median_ms < b.median_ms; });
    if (s.empty()) {
        std::string why = std::to_string(outcome_.tried) + " candidate" + (outcome_.tried == 1 ? "" : "s") + " tried, none ran";
        for (size_t i = 0; i < outcome_.failures.size(); ++i) why += (i ? "; " : ": ") + outcome_.failures[i];
        throw std::runtime_error(why);
    }
    std::vector<size_t> finalists;
    for (size_t i = 0; i < s.size() && finalists.size() < budget_.max_finalists; ++i)
        if (i < budget_.finalists || s[i].median_ms <= s[0].median_ms * (1 + budget_.close)) finalists.push_back(s[i].index);

    const int total = final_launches(budget_, estimate_ms_.value_or(0));
    const int per_pass = (total + 1) / 2;
    std::vector<std::vector<float>> times(finalists.size());
    std::vector<bool> alive(finalists.size(), true);
    for (int pass = 0; pass < 2; ++pass)
        for (size_t f = 0; f < finalists.size(); ++f)
            if (alive[f] && !time_one(finalists[f], 1, per_pass, times[f])) alive[f] = false;

    std::vector<Screened> results;
    for (size_t f = 0; f < finalists.size(); ++f)
        if (alive[f]) results.push_back({finalists[f], median_ms(times[f])});
    if (results.empty()) throw std::runtime_error("every finalist failed when re-timed; the last: " + last_failure_);
    std::stable_sort(results.begin(), results.end(), [](const Screened& a, const Screened& b) { return a.median_ms < b.median_ms; });
    SearchOutcome out = outcome_;
    out.best = results[0].index;
    out.best_ms = results[0].median_ms;
    if (results.size() > 1) {
        out.runner_up = results[1].index;
        out.runner_up_ms = results[1].median_ms;
    }
    out.ms = host_ms() - started_;
    return out;
}

}  // namespace spmma_baseline

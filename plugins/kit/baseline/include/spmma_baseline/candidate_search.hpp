// Picking the fastest of a vendor library's configurations for one problem by timing them: the
// loop both baselines share (cusparselt: algorithm ids and split-k settings; cublas: cuBLASLt's
// heuristic answers). Pure C++: the plugin hands in how to time one candidate (CUDA events on
// its stream) and how to name it, so the choice itself is tested on the host (tests/baselines).
//
// Two rounds. screen() times each candidate briefly (one warm-up launch, then a few timed ones:
// about kScreenMs of GPU time, at least 3 and at most 20 launches); finish() re-times the best few
// longer (about kFinalMs each, at least 10 and at most 60 launches) in two interleaved passes, so
// a clock that drifts while the GPU heats affects them alike, and keeps the best median.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spmma_baseline {

// The device times (ms) of `launches` timed launches of candidate `index` after `warmup`
// untimed ones. Throws (any std::exception) when the candidate cannot be set up or run.
using TimeCandidate = std::function<std::vector<float>(size_t index, int warmup, int launches)>;
// A short readable name of a candidate ("alg 20", "alg 3 split-k 4 two-kernels").
using NameCandidate = std::function<std::string(size_t index)>;

struct SearchBudget {
    double screen_ms = 10;  // GPU time per candidate in screen()
    int screen_min = 3, screen_max = 20;
    double final_ms = 100;  // GPU time per finalist in finish()
    int final_min = 10, final_max = 60;
    size_t finalists = 3;      // the best this many go to finish()...
    double close = 0.03;       // ...and any other within 3 % of the best screened median,
    size_t max_finalists = 5;  // up to this many
};

// What a search found, and how sure it is.
struct SearchOutcome {
    size_t best = 0;                   // candidate index
    double best_ms = 0;                // its median in finish()
    std::optional<size_t> runner_up;   // the second finalist, when there was one
    double runner_up_ms = 0;
    int tried = 0, failed = 0;         // candidates screened, of which failed
    std::vector<std::string> failures; // the first few, "name: what"
    int launches = 0;                  // every launch the search made (warm-up included)
    double ms = 0;                     // host time of the whole search
    // {"best_ms", "runner_up", "runner_up_ms", "tried", "failed", "failures", "launches", "ms"};
    // names come from `name`.
    nlohmann::json to_json(const NameCandidate& name) const;
};

class CandidateSearch {
public:
    CandidateSearch(TimeCandidate time, NameCandidate name, SearchBudget budget = {});

    // Times each candidate briefly; one that throws is counted as failed and skipped.
    void screen(const std::vector<size_t>& candidates);
    // The screened candidates that ran, fastest screened median first.
    std::vector<size_t> ranked() const;
    // Re-times the finalists and returns the pick. Throws std::runtime_error naming the first
    // failures when no candidate ran at all.
    SearchOutcome finish();

    // Timed launches per candidate in screen() and per finalist in finish() for a GEMM of
    // `estimate_ms` (the first screened candidate's median).
    static int screen_launches(const SearchBudget& b, double estimate_ms);
    static int final_launches(const SearchBudget& b, double estimate_ms);

private:
    struct Screened {
        size_t index;
        double median_ms;
    };
    std::optional<double> time_one(size_t index, int warmup, int launches, std::vector<float>& out);
    void record_failure(size_t index, const std::string& what);

    TimeCandidate time_;
    NameCandidate name_;
    SearchBudget budget_;
    std::vector<Screened> screened_;
    std::optional<double> estimate_ms_;
    SearchOutcome outcome_;
    std::string last_failure_;
    double started_ = -1;  // host clock (ms) at the first screen()
};

// The median of a list of times (the mean of the middle two for an even count); 0 when empty.
double median_ms(std::vector<float> times);

}  // namespace spmma_baseline

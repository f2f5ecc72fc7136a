// The configurations the cusparselt plugin times for one problem, and how a chosen one is written
// to the plan cache. cuSPARSELt names a configuration by an algorithm id (0 up to, not including,
// CUSPARSELT_MATMUL_ALG_CONFIG_MAX_ID) and a split-k setting: the number of slices k is cut
// into (CUSPARSELT_MATMUL_SPLIT_K) and whether the slices are reduced inside the GEMM kernel or
// by a second one (CUSPARSELT_MATMUL_SPLIT_K_MODE; the second kernel's partial-sum buffers,
// CUSPARSELT_MATMUL_SPLIT_K_BUFFERS, are left at the library's default and read back).
//
// NOTES: the search is staged to stay short (plugins/kit/baseline/NOTES.md has the budget):
// every algorithm id at the library's default split-k first, then every split-k setting below
// for the three fastest ids. The split-k values are powers of two up to 16: cuSPARSELt accepts
// any count up to k, and a larger one only pays where m x n has far fewer tiles than the GPU
// has SMs, which the problems spmma runs rarely have.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace spmma_cusparselt {

struct SpCandidate {
    int alg = 0;
    int split_k = 0;  // 0: left at the library's default (no split)
    int mode = 0;     // cusparseLtSplitKMode_t when split_k > 0 (1: one kernel, 2: two kernels)
    bool operator==(const SpCandidate&) const = default;
};

// "alg 20", "alg 7 split-k 4 one-kernel", "alg 7 split-k 8 two-kernels".
std::string candidate_name(const SpCandidate& c);

// Every algorithm id at the default split-k: ids 0 .. max_id - 1.
std::vector<SpCandidate> algorithm_candidates(int max_id);
// Every split-k setting this plugin tries, for one algorithm id.
std::vector<SpCandidate> split_k_candidates(int alg);
// How many algorithm ids get split-k candidates.
inline constexpr size_t kSplitKAlgorithms = 3;

// {"alg": 20, "split_k": 0, "split_k_mode": 0}, as stored in the plan cache.
nlohmann::json to_json(const SpCandidate& c);
// The candidate a stored plan names; nullopt with why when a field is missing or out of range.
std::optional<SpCandidate> candidate_from_json(const nlohmann::json& j, std::string& why);

}  // namespace spmma_cusparselt

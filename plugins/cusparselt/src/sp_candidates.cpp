#include "sp_candidates.hpp"

#include <cusparseLt.h>

namespace spmma_cusparselt {
namespace {

constexpr int kSplitKValues[] = {2, 4, 8, 16};
constexpr int kModes[] = {CUSPARSELT_SPLIT_K_MODE_ONE_KERNEL, CUSPARSELT_SPLIT_K_MODE_TWO_KERNELS};

const char* mode_name(int mode) {
    switch (mode) {
        case CUSPARSELT_SPLIT_K_MODE_ONE_KERNEL: return "one-kernel";
        case CUSPARSELT_SPLIT_K_MODE_TWO_KERNELS: return "two-kernels";
        default: return "mode-?";
    }
}

}  // namespace

std::string candidate_name(const SpCandidate& c) {
    std::string s = "alg " + std::to_string(c.alg);
    if (c.split_k > 0) s += " split-k " + std::to_string(c.split_k) + " " + mode_name(c.mode);
    return s;
}

std::vector<SpCandidate> algorithm_candidates(int max_id) {
    std::vector<SpCandidate> v;
    for (int id = 0; id < max_id; ++id) v.push_back({id, 0, 0});
    return v;
}

std::vector<SpCandidate> split_k_candidates(int alg) {
    std::vector<SpCandidate> v;
    for (const int k : kSplitKValues)
        for (const int m : kModes) v.push_back({alg, k, m});
    return v;
}

nlohmann::json to_json(const SpCandidate& c) { return {{"alg", c.alg}, {"split_k", c.split_k}, {"split_k_mode", c.mode}}; }

std::optional<SpCandidate> candidate_from_json(const nlohmann::json& j, std::string& why) {
    for (const char* f : {"alg", "split_k", "split_k_mode"})
        if (!j.contains(f) || !j[f].is_number_integer()) {
            why = std::string("the stored plan has no integer \"") + f + "\"";
            return std::nullopt;
        }
    SpCandidate c{j["alg"].get<int>(), j["split_k"].get<int>(), j["split_k_mode"].get<int>()};
    if (c.alg < 0 || c.split_k < 0 || (c.split_k > 0 && c.mode != CUSPARSELT_SPLIT_K_MODE_ONE_KERNEL &&
                                       c.mode != CUSPARSELT_SPLIT_K_MODE_TWO_KERNELS)) {
        why = "the stored plan " + j.dump() + " is out of range";
        return std::nullopt;
    }
    return c;
}

}  // namespace spmma_cusparselt

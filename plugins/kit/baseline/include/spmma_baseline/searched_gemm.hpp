// A kernel plugin's Gemm that picks its kernel by timing, where the plugin's own heuristic would
// otherwise pick one (kernel_backend.hpp, SPMMA_<PLUGIN>_SEARCH=on): each candidate kernel is
// built, given the operands and timed with the L2 flushed before every launch (a layer's
// weights streamed from DRAM, as the decode workload times them); the fastest is kept and every
// later call goes to it. The pick is stored in the plan cache (plan_choice.hpp) under the
// problem's key, so a later process, or another device of the same kind, takes it without
// timing. Pure C++ over spmma_plugin::Gemm (tests/baselines drives it with fake kernels).
#pragma once

#include <spmma_baseline/candidate_search.hpp>
#include <spmma_baseline/plan_choice.hpp>
#include <spmma_plugin/backend.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace spmma_baseline {

// One kernel the search may pick: its name and how to build its Gemm for the problem.
struct KernelCandidate {
    std::string name;
    std::function<std::unique_ptr<spmma_plugin::Gemm>()> make;
};

// What decides a kernel plugin's pick besides the device and the plugin: the sizes, every type,
// the pattern, saturation, the block scales, whether C is read and ABI 1.2's epilogue; for
// PlanKey's `types` (its m, n and k are the problem's own).
std::string kernel_search_types(const spmma_problem& p);

// The PlanKey of `p` for plugin `plugin` (name and version) whose kernels are `kernels` (their
// names: a build with other kernels keys its picks apart) on a device `device` of `arch`.
PlanKey kernel_search_key(const spmma_problem& p, const std::string& plugin, const std::vector<std::string>& kernels,
                          const std::string& device, const std::string& arch);

class SearchedGemm final : public spmma_plugin::Gemm {
public:
    // `candidates`: the heuristic's pick first (the kernel named until a pick is made); `key`
    // and `settings`: where the pick is kept; `memory`: the picks of this process (the
    // process's own by default). `budget`: the search's launches.
    SearchedGemm(const spmma_problem& problem, std::vector<KernelCandidate> candidates, PlanKey key, CacheSettings settings,
                 PlanMemory& memory = process_plans(), SearchBudget budget = {});

    std::string kernel_name() const override;
    // The pick (from this process, the cache file, or a search), then the operands to it.
    void upload(const spmma_operands& operands) override;
    void run(int warmup, int iterations, float* times_ms, uint32_t flags) override;
    void download(void* d, size_t bytes) override;
    void download_elements(const int64_t* indices, size_t count, void* values, size_t values_bytes) override;
    // The pick's own notes, with "kernel_search": {the plan choice (plan_choice.hpp),
    // "heuristic": the plugin's own pick, "candidates": their names} and "prepare_ms" (the
    // choice's host time, the search's launches included).
    std::string describe() const override;

    // The plan a pick is stored as: {"kernel": name}.
    static nlohmann::json plan_of(const std::string& kernel);

private:
    // Builds candidate i and gives it the operands (throws what they throw).
    std::unique_ptr<spmma_plugin::Gemm> built(size_t i, const spmma_operands& ops) const;
    std::pair<nlohmann::json, nlohmann::json> search(const spmma_operands& ops);

    std::vector<KernelCandidate> candidates_;
    PlanKey key_;
    CacheSettings settings_;
    PlanMemory& memory_;
    SearchBudget budget_;
    std::unique_ptr<spmma_plugin::Gemm> pick_;
    size_t pick_index_ = 0;
    PlanChoice choice_;
    double prepare_ms_ = 0;
};

}  // namespace spmma_baseline

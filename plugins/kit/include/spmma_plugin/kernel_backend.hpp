// The Backend of a plugin whose kernels are its own (the GPU families): kernels listed from the
// plugin's registry, and one order of checks for every problem, so that each refusal comes at
// the same step in every plugin:
//   1. the problem: some kernel of the plugin computes it (types, pattern, epilogue, sizes; the
//      epilogue of ABI 1.2 -- scales, bias, activation -- only where the plugin says its kernels
//      fuse it, epilogue_reason);
//   2. a kernel the host names: it computes this problem's types;
//   3. the device: the driver, the device's existence, the plugin's architecture (runs_on);
//   4. the kernel on this device: the named one fits it, or the heuristic picks one.
// Steps 1 and 2 ask no device, so their reasons are the same with or without a GPU. create()
// runs the same steps and builds the plugin's Gemm for the kernel they end with, through
// make_gemm(device, problem, entry): a function the plugin defines in Entry's namespace (found
// by argument-dependent lookup), usually beside its Gemm class.
#pragma once

#include <spmma_baseline/searched_gemm.hpp>
#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/env_choice.hpp>
#include <spmma_plugin/kernel_registry.hpp>
#include <spmma_plugin/refusals.hpp>

#include <memory>
#include <string>
#include <vector>

namespace spmma_plugin::cuda {

// Step 4's reasons for a kernel that runs one CTA of `smem_bytes` shared memory per bm x bn tile
// of D: the device's per-block limit, then the grid's size ("" when both fit).
inline std::string cta_tile_reason(const std::string& kernel, int smem_bytes, int bm, int bn, const spmma_problem& p,
                                   const DeviceProperties& dev) {
    if (std::string why = shared_memory_reason(kernel, smem_bytes, dev.max_smem_per_block_optin, dev.arch()); !why.empty())
        return why;
    return tile_count_reason(p.m, p.n, bm, bn);
}

template <class Entry>
class KernelBackend : public CudaBackend {
public:
    std::span<const spmma_kernel_info> kernels() const final { return registry().infos(); }

    void check_supported(int device, const spmma_problem& p, const char* kernel) const final { select(device, p, kernel); }

    // With no kernel named and the plugin's search switched on (search_env), a Gemm that times
    // search_candidates and keeps the fastest (searched_gemm.hpp); else the kernel select ends with.
    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) final {
        const Entry& k = select(device, p, kernel);
        if (!kernel && search_env() && env_choice(search_env(), {"off", "on"}).value_or(0) == 1) {
            const DeviceProperties dev = require_device(device);
            const std::vector<const Entry*> candidates = search_candidates(p, dev, k);
            if (candidates.size() > 1) return searched_gemm(device, p, dev, candidates);
        }
        return make_gemm(device, p, k);
    }

protected:
    virtual const KernelRegistry<Entry>& registry() const = 0;
    // Step 1: "" when some kernel of the plugin computes p, else why none does.
    virtual std::string problem_reason(const spmma_problem& p) const = 0;
    // Step 1's epilogue of ABI 1.2: "" when the plugin's kernels fuse p's epilogue (or p has
    // none), else why not. By default none does.
    virtual std::string epilogue_reason(const spmma_problem& p) const { return unfused_epilogue_reason(p, info().name); }
    // Step 2: "" when kernel k computes p's types, else why not.
    virtual std::string kernel_reason(const Entry& k, const spmma_problem& p) const = 0;
    // Step 4 for a named kernel: "" when k runs p on dev (shared memory, grid size), else why not.
    virtual std::string kernel_device_reason(const Entry&, const spmma_problem&, const DeviceProperties&) const { return {}; }
    // Step 4 with no kernel named: the heuristic's choice for p on dev, or nullptr with *why.
    virtual const Entry* choose(const spmma_problem& p, const DeviceProperties& dev, std::string* why) const = 0;
    // The environment variable that switches the timed search on (off | on, default off), or
    // nullptr for a plugin without one.
    virtual const char* search_env() const { return nullptr; }
    // The kernels the search times for p on dev, the heuristic's `pick` first; each computes p and
    // fits dev. By default the pick alone (no search).
    virtual std::vector<const Entry*> search_candidates(const spmma_problem&, const DeviceProperties&, const Entry& pick) const {
        return {&pick};
    }

    // A heuristic's usual shape: among the kernels of p's types that `candidate` accepts and that
    // fit the device (kernel_device_reason), the one of the highest score(k) (the first of equal
    // ones); else nullptr and, in *why, the last device reason such a kernel gave (or the
    // problem's reason when none did).
    template <class Candidate, class Score>
    const Entry* best_fit(const spmma_problem& p, const DeviceProperties& dev, std::string* why, Candidate candidate,
                          Score score) const {
        const Entry* best = nullptr;
        double best_score = 0;
        std::string last;
        for (const Entry& k : registry().entries()) {
            if (!kernel_reason(k, p).empty() || !candidate(k)) continue;
            if (std::string r = kernel_device_reason(k, p, dev); !r.empty()) {
                last = r;
                continue;
            }
            const double s = score(k);
            if (!best || s > best_score) {
                best_score = s;
                best = &k;
            }
        }
        if (!best && why) *why = last.empty() ? problem_reason(p) : last;
        return best;
    }

private:
    std::unique_ptr<Gemm> searched_gemm(int device, const spmma_problem& p, const DeviceProperties& dev,
                                        const std::vector<const Entry*>& candidates) {
        std::vector<spmma_baseline::KernelCandidate> cs;
        for (const Entry* e : candidates)
            cs.push_back({e->name, [this, device, p, e] { return std::unique_ptr<Gemm>(make_gemm(device, p, *e)); }});
        std::vector<std::string> names;
        for (const Entry& e : registry().entries()) names.push_back(e.name);
        const spmma_plugin_info pi = info();
        const std::string plugin = std::string(pi.name) + " " + pi.version;
        return std::make_unique<spmma_baseline::SearchedGemm>(
            p, std::move(cs), spmma_baseline::kernel_search_key(p, plugin, names, dev.name, dev.arch()),
            spmma_baseline::cache_settings(std::string(pi.name) + "-plans.json"));
    }

    const Entry& select(int device, const spmma_problem& p, const char* kernel) const {
        if (std::string why = problem_reason(p); !why.empty()) unsupported(why);
        if (std::string why = epilogue_reason(p); !why.empty()) unsupported(why);
        const Entry* named = registry().find(kernel);
        if (kernel && !named) unsupported(std::string("no kernel named ") + kernel);
        if (named)
            if (std::string why = kernel_reason(*named, p); !why.empty()) unsupported(why);
        const DeviceProperties dev = require_device(device);
        if (named) {
            if (std::string why = kernel_device_reason(*named, p, dev); !why.empty()) unsupported(why);
            return *named;
        }
        std::string why;
        const Entry* chosen = choose(p, dev, &why);
        if (!chosen) unsupported(why.empty() ? "unsupported: no kernel of this plugin runs this problem" : why);
        return *chosen;
    }
};

}  // namespace spmma_plugin::cuda

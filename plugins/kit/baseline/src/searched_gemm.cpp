#include <spmma_baseline/searched_gemm.hpp>

#include <spmma_baseline/host_clock.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace spmma_baseline {
std::string kernel_search_types(const spmma_problem& p) {
    std::string s = std::string("a=") + spmma_dtype_name(p.a_type) + " b=" + spmma_dtype_name(p.b_type) + " acc=" +
                    spmma_dtype_name(p.acc_type) + " d=" + spmma_dtype_name(p.d_type) + " pattern=" + spmma_pattern_name(p.pattern);
    if (p.saturate) s += " satfinite";
    if (p.scale_type != SPMMA_DTYPE_NONE) s += std::string(" scales=") + spmma_dtype_name(p.scale_type) + "/" + std::to_string(p.scale_block);
    if (p.beta != 0) s += std::string(" c=") + spmma_dtype_name(p.c_type);
    if (spmma_problem_has_epilogue(&p)) {
        char buf[160] = {};
        s += std::string(" epilogue=") + spmma_epilogue_label(&p, buf, sizeof buf);
    }
    return s;
}

PlanKey kernel_search_key(const spmma_problem& p, const std::string& plugin, const std::vector<std::string>& kernels,
                          const std::string& device, const std::string& arch) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the kernels' names
    for (const std::string& k : kernels) {
        for (unsigned char c : k) h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xffu) * 1099511628211ull;
    }
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(h));
    return {device, arch, plugin + " (" + std::to_string(kernels.size()) + " kernels " + hash + ")", p.m, p.n, p.k,
            kernel_search_types(p), "canonical operands"};
}

SearchedGemm::SearchedGemm(const spmma_problem& problem, std::vector<KernelCandidate> candidates, PlanKey key,
                           CacheSettings settings, PlanMemory& memory, SearchBudget budget)
    : Gemm(problem),
      candidates_(std::move(candidates)),
      key_(std::move(key)),
      settings_(std::move(settings)),
      memory_(memory),
      budget_(budget) {
    if (candidates_.empty()) throw std::invalid_argument("SearchedGemm: no candidate kernel");
}

nlohmann::json SearchedGemm::plan_of(const std::string& kernel) { return {{"kernel", kernel}}; }

std::string SearchedGemm::kernel_name() const { return pick_ ? pick_->kernel_name() : candidates_.front().name; }

std::unique_ptr<spmma_plugin::Gemm> SearchedGemm::built(size_t i, const spmma_operands& ops) const {
    std::unique_ptr<spmma_plugin::Gemm> g = candidates_.at(i).make();
    g->upload(ops);
    return g;
}

// Every candidate built and screened, the finalists kept and timed again (CandidateSearch); the
// others are released after the screen so that at most the finalists' operands are on the device
// together with the one being screened. Every candidate is released at the end.
std::pair<nlohmann::json, nlohmann::json> SearchedGemm::search(const spmma_operands& ops) {
    std::map<size_t, std::unique_ptr<spmma_plugin::Gemm>> live;
    const auto time = [&](size_t i, int warmup, int launches) {
        auto it = live.find(i);
        if (it == live.end()) it = live.emplace(i, built(i, ops)).first;
        std::vector<float> t(static_cast<size_t>(launches));
        it->second->run(warmup, launches, t.data(), SPMMA_RUN_FLUSH_L2);
        return t;
    };
    const auto name = [&](size_t i) { return candidates_.at(i).name; };
    CandidateSearch s(time, name, budget_);
    for (size_t i = 0; i < candidates_.size(); ++i) {
        s.screen({i});
        // Keep the best max_finalists screened so far (a candidate that failed is not ranked).
        const std::vector<size_t> ranked = s.ranked();
        const auto kept_end = ranked.begin() + static_cast<std::ptrdiff_t>(std::min(ranked.size(), budget_.max_finalists));
        for (auto it = live.begin(); it != live.end();)
            it = std::find(ranked.begin(), kept_end, it->first) == kept_end ? live.erase(it) : std::next(it);
    }
    const SearchOutcome o = s.finish();
    pick_index_ = o.best;
    // NOTES: the pick is built again once every candidate is released (upload), as it is when it
    // comes from the cache: kept from the search, its decode launches took 0.7-1.0 µs longer than
    // the same kernel's built alone (bench/NOTES.md, 2026-11-29, sm90a's timed search).
    live.clear();
    return {plan_of(candidates_[o.best].name), o.to_json(name)};
}

void SearchedGemm::upload(const spmma_operands& operands) {
    const double t0 = host_ms();
    pick_.reset();
    PlanSource source;
    source.apply = [&](const nlohmann::json& plan, std::string& why) {
        const std::string kernel = plan.value("kernel", "");
        for (size_t i = 0; i < candidates_.size(); ++i)
            if (candidates_[i].name == kernel) {
                pick_index_ = i;
                return true;
            }
        why = "kernel '" + kernel + "' is not among this problem's candidates";
        return false;
    };
    source.search = [&] { return search(operands); };
    choice_ = choose_plan(key_, settings_, source, memory_);
    prepare_ms_ = host_ms() - t0;
    pick_ = built(pick_index_, operands);
}

void SearchedGemm::run(int warmup, int iterations, float* times_ms, uint32_t flags) {
    if (!pick_) throw std::logic_error("SearchedGemm: run before upload");
    pick_->run(warmup, iterations, times_ms, flags);
}

void SearchedGemm::download(void* d, size_t bytes) {
    if (!pick_) throw std::logic_error("SearchedGemm: download before upload");
    pick_->download(d, bytes);
}

void SearchedGemm::download_elements(const int64_t* indices, size_t count, void* values, size_t values_bytes) {
    if (!pick_) throw std::logic_error("SearchedGemm: download before upload");
    pick_->download_elements(indices, count, values, values_bytes);
}

std::string SearchedGemm::describe() const {
    nlohmann::json j = nlohmann::json::object();
    if (pick_) {
        try {
            j = nlohmann::json::parse(pick_->describe());
        } catch (const std::exception&) {
            j = nlohmann::json::object();
        }
        if (!j.is_object()) j = nlohmann::json::object();
    }
    nlohmann::json search = choice_.notes();
    search["heuristic"] = candidates_.front().name;
    nlohmann::json names = nlohmann::json::array();
    for (const KernelCandidate& c : candidates_) names.push_back(c.name);
    search["candidates"] = names;
    j["kernel_search"] = search;
    j["prepare_ms"] = prepare_ms_;
    return j.dump();
}

}  // namespace spmma_baseline

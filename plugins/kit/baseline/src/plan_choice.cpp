#include <spmma_baseline/plan_choice.hpp>

#include <spmma_baseline/host_clock.hpp>

namespace spmma_baseline {
namespace {

constexpr const char* kThisProcess = "this process";

void add_note(std::string& notes, const std::string& n) {
    if (!n.empty()) notes += (notes.empty() ? "" : "; ") + n;
}

}  // namespace

nlohmann::json PlanChoice::notes() const {
    nlohmann::json j = {{"plan", how}, {"search", search}, {"search_ms", search_ms}};
    if (how == "cache") j["cache"] = source;
    if (!stored_in.empty()) j["cache_file"] = stored_in;
    if (!note.empty()) j["cache_note"] = note;
    return j;
}

std::optional<PlanMemory::Entry> PlanMemory::find(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
}

void PlanMemory::store(const std::string& key, Entry e) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_[key] = std::move(e);
}

PlanMemory& process_plans() {
    static PlanMemory m;
    return m;
}

PlanChoice choose_plan(const PlanKey& key, const CacheSettings& settings, const PlanSource& source, PlanMemory& memory) {
    PlanChoice c;
    const std::string text = key.text();
    if (const auto hit = memory.find(text)) {
        std::string why;
        if (source.apply(hit->plan, why)) {
            c.plan = hit->plan;
            c.search = hit->search;
            c.how = "cache";
            c.source = hit->source;
            return c;
        }
        add_note(c.note, "the plan kept from " + hit->source + " did not initialise (" + why + "): searched again");
    }
    const bool use_file = !settings.file.empty() && settings.mode != CacheMode::Off;
    std::optional<PlanFile> file;
    if (use_file) file.emplace(settings.file);
    if (file && settings.mode == CacheMode::On) {
        if (const auto entry = file->find(key)) {
            std::string why;
            const nlohmann::json& plan = (*entry)["plan"];
            const nlohmann::json search = entry->value("search", nlohmann::json::object());
            if (source.apply(plan, why)) {
                c.plan = plan;
                c.search = search;
                c.how = "cache";
                c.source = settings.file.string();
                memory.store(text, {plan, search, c.source});
                return c;
            }
            add_note(c.note, "the plan cached in " + settings.file.string() + " did not initialise (" + why + "): searched again");
        }
    }

    const double t0 = host_ms();
    auto [plan, search] = source.search();
    c.search_ms = host_ms() - t0;
    search["when"] = utc_now_text();
    c.plan = plan;
    c.search = search;
    c.how = "searched";
    memory.store(text, {plan, search, kThisProcess});
    if (settings.mode == CacheMode::Off) return c;
    if (!file) {
        add_note(c.note, "no cache folder (neither SPMMA_CACHE_DIR, XDG_CACHE_HOME nor HOME is set): the plan is kept for this process only");
        return c;
    }
    if (file->store(key, plan, search)) c.stored_in = settings.file.string();
    add_note(c.note, file->note());
    return c;
}

}  // namespace spmma_baseline

#include <spmma/core/execution.hpp>

#include <spmma/core/median.hpp>
#include <spmma/core/problem_keys.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace spmma {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string handle_kernel(const Plugin& p, const spmma_handle* h) {
    char name[256] = {};
    p.check(p.api().handle_kernel(h, name, sizeof name), "handle_kernel");
    name[sizeof name - 1] = '\0';
    return name;
}

// The run calls of one execution: warm-up, the job's iterations, then more batches while the
// policy asks for them.
class TimingLoop {
public:
    TimingLoop(const Plugin& p, spmma_handle* h, const ExecRequest& req, bool flush) : p_(p), h_(h), req_(req), flush_(flush) {}

    void warm_up() {
        if (req_.warmup > 0) batch(req_.warmup, 0);
    }

    // Timed launches into `times`; a note when a target was not met.
    std::string timed(std::vector<double>& times) {
        batch(0, req_.iterations, &times);
        const TimingPolicy& t = req_.timing;
        const double min_ms = t.min_time_s * 1e3, cap_ms = std::max(t.max_time_s, t.min_time_s) * 1e3;
        for (;;) {
            const double total = sum(times);
            const bool need_time = total < min_ms;
            const double noise = t.max_noise > 0 ? median_noise(times) : 0.0;
            const bool need_noise = t.max_noise > 0 && noise > t.max_noise;
            if (!need_time && !need_noise) return {};
            if (total >= cap_ms)
                return fmt::format("noise {:.2f} % still above --max-noise {:.2f} % after {:.1f} s of timed launches (--max-time)", 100 * noise,
                                   100 * t.max_noise, total / 1e3);
            const double med = std::max(median(times), 1e-4);
            double want = need_time ? (min_ms - total) / med : static_cast<double>(times.size()) / 2;
            want = std::min(want, (cap_ms - total) / med);
            batch(0, static_cast<int>(std::clamp(std::ceil(want), 1.0, 100000.0)), &times);
        }
    }

private:
    static double sum(const std::vector<double>& v) {
        double s = 0;
        for (double x : v) s += x;
        return s;
    }

    void batch(int warmup, int iterations, std::vector<double>* times = nullptr) {
        std::vector<float> t(static_cast<size_t>(iterations), 0.0f);
        spmma_run_config c{};
        c.struct_size = sizeof c;
        c.warmup = warmup;
        c.iterations = iterations;
        c.times_ms = iterations ? t.data() : nullptr;
        c.flags = flush_ ? SPMMA_RUN_FLUSH_L2 : 0u;
        p_.check(p_.api().run(h_, &c), "run");
        if (times) times->insert(times->end(), t.begin(), t.end());
    }

    const Plugin& p_;
    spmma_handle* h_;
    const ExecRequest& req_;
    bool flush_;
};

nlohmann::json parse_notes(const std::string& text) {
    try {
        nlohmann::json j = nlohmann::json::parse(text);
        if (j.is_object()) return j;
    } catch (const std::exception&) {
    }
    return nlohmann::json{{"text", text}};
}

// The plugin calls between create and destroy.
void run_handle(const Plugin& p, spmma_handle* h, const ExecRequest& req, const spmma_operands& ops, uint8_t* base, ExecResult& r, const std::function<void(const char*)>& enter) {
    r.kernel = handle_kernel(p, h);
    enter("upload");
    auto t0 = Clock::now();
    p.check(p.api().upload(h, &ops), "upload");
    r.phases.upload = ms_since(t0);

    enter("run");
    t0 = Clock::now();
    const bool flush = req.timing.flush_l2 && (p.flags & SPMMA_PLUGIN_FLUSHES_L2);
    r.l2_flushed = flush;
    if (req.timing.flush_l2 && !flush) r.timing_note = "L2 not flushed: the plugin does not declare SPMMA_PLUGIN_FLUSHES_L2";
    TimingLoop loop(p, h, req, flush);
    loop.warm_up();
    r.launches_warmup = req.warmup;
    std::optional<ClockSampler> sampler;
    if (!req.device_uuid.empty()) {
        sampler.emplace(req.device_uuid);
        sampler->start();
    }
    const std::string note = loop.timed(r.times_ms);
    if (!note.empty()) r.timing_note = r.timing_note.empty() ? note : r.timing_note + "; " + note;
    if (sampler) r.clocks = sampler->stop().to_json();
    r.phases.run = ms_since(t0);
    r.kernel = handle_kernel(p, h);  // may now name what the plugin chose while running

    enter("download");
    t0 = Clock::now();
    const auto download_elements = p.download_elements_fn();
    if (req.result.count > 0 && download_elements) {
        const size_t eb = static_cast<size_t>(spmma_dtype_storage_bits(req.problem.d_type) / 8);
        const auto* idx = reinterpret_cast<const int64_t*>(base + req.result.indices_offset);
        p.check(download_elements(h, idx, req.result.count, base + req.result.values_offset, req.result.count * eb), "download_elements");
        r.elements_only = true;
    } else {
        p.check(p.api().download(h, base + req.result.d_offset, req.result.d_bytes), "download");
    }
    r.phases.download = ms_since(t0);

    if (const auto describe = p.describe_handle_fn()) {
        std::vector<char> text(64 * 1024, '\0');
        if (describe(h, text.data(), text.size()) == SPMMA_OK) {
            text.back() = '\0';
            r.notes = parse_notes(text.data());
            if (r.notes.contains("prepare_ms") && r.notes["prepare_ms"].is_number())
                r.phases.prepare_in_upload = std::clamp(r.notes["prepare_ms"].get<double>(), 0.0, r.phases.upload);
        }
    }
}

}  // namespace

ExecResult execute(const Plugin& p, const ExecRequest& req, const spmma_operands& ops, uint8_t* base, const StageListener& listener) {
    ExecResult r;
    std::string stage;
    auto enter = [&](const char* s) {
        stage = s;
        if (listener) listener(stage);
    };
    spmma_handle* h = nullptr;
    try {
        enter("create");
        const auto t0 = Clock::now();
        if (auto why = abi_refusal(p, req.problem)) throw PluginCallError(SPMMA_UNSUPPORTED, "create: " + *why);
        p.check(p.api().create(req.device, &req.problem, req.kernel.empty() ? nullptr : req.kernel.c_str(), &h), "create");
        r.phases.create = ms_since(t0);
        run_handle(p, h, req, ops, base, r, enter);
        r.ok = true;
    } catch (const PluginCallError& e) {
        r.stage = stage;
        r.error = e.what();
        r.status = e.status;
    } catch (const std::exception& e) {
        r.stage = stage;
        r.error = e.what();
        r.status = SPMMA_INTERNAL_ERROR;
    }
    if (h) {
        enter("destroy");
        const auto t0 = Clock::now();
        p.api().destroy(h);
        r.phases.destroy = ms_since(t0);
    }
    return r;
}

// ---- the problem's JSON form (the worker protocol's, worker_protocol.hpp) -----------------

// The ABI problem under the keys' own field names; C's type is not a key (it is D's), nor is the
// bias's (the bias key's text gives it), but the ABI carries both.
nlohmann::json problem_to_json(const spmma_problem& p) {
    nlohmann::json o = {{"c_type", p.c_type}, {"bias_type", p.bias_type}};
    for (const ProblemKey& key : problem_keys())
        if (key.abi_get) o[key.record_field()] = std::visit([](const auto& v) { return nlohmann::json(v); }, key.abi_get(p));
    return o;
}

spmma_problem problem_from_json(const nlohmann::json& j) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.c_type = j.at("c_type");
    p.bias_type = j.at("bias_type");
    for (const ProblemKey& key : problem_keys()) {
        if (!key.abi_set) continue;
        const nlohmann::json& v = j.at(key.record_field());
        key.abi_set(p, key.kind == KeyKind::Number ? KeyValue{v.get<double>()} : KeyValue{v.get<int64_t>()});
    }
    return p;
}

}  // namespace spmma

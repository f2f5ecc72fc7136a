#include <spmma/core/runner.hpp>

#include <spmma/core/operands.hpp>
#include <spmma/core/npy.hpp>
#include <spmma/reference/gemm.hpp>

#include <fmt/format.h>

#include <fnmatch.h>

#include <memory>
#include <optional>

namespace spmma {

int RunSummary::exit_code() const {
    if (failed > 0 || errors > 0) return 1;
    if (verified + unverified == 0) return 3;
    return 0;
}

bool matches_any(const std::string& name, const std::vector<std::string>& globs) {
    for (const auto& g : globs)
        if (fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
    return false;
}

namespace {

// What a job needs lazily: operands (made on first use) and the reference (made on first check).
class JobState {
public:
    JobState(const Job& job, const RunnerOptions& o) : job_(job), opts_(o) {}

    const Operands& operands() {
        if (!operands_) operands_ = generate_operands(job_.problem);
        return *operands_;
    }

    reference::GemmInput input() {
        reference::GemmInput in;
        in.problem = job_.problem.to_abi();
        in.operands = operands().view();
        return in;
    }

    const reference::Expected& expected() {
        if (!expected_) {
            reference::VerifyOptions vo = opts_.verify_options;
            vo.mode = job_.verify;
            vo.seed = job_.problem.seed;
            expected_ = reference::compute_expected(input(), vo);
        }
        return *expected_;
    }

private:
    const Job& job_;
    const RunnerOptions& opts_;
    std::optional<Operands> operands_;
    std::optional<reference::Expected> expected_;
};

// Owns a plugin handle for one run.
class Handle {
public:
    Handle(const Plugin& p, spmma_handle* h) : p_(p), h_(h) {}
    ~Handle() {
        if (h_) p_.api().destroy(h_);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    spmma_handle* get() const { return h_; }

private:
    const Plugin& p_;
    spmma_handle* h_;
};

Record base_record(const Job& job, const Plugin* p, const RunnerOptions& o) {
    Record r;
    r.spmma_version = SPMMA_VERSION;
    r.timestamp = utc_timestamp();
    r.host = host_name();
    r.source = job.source;
    r.job = job;
    if (p) {
        r.plugin = p->name;
        r.plugin_version = p->version;
        r.plugin_vendor = p->vendor;
        r.plugin_target = p->target;
        r.plugin_file = p->file.string();
        r.plugin_abi_major = p->abi_major;
        r.plugin_abi_minor = p->abi_minor;
        r.dense = p->dense();
    }
    r.command = reproduce_command(job, r.plugin, "", o.plugin_dir);
    return r;
}

// A file name for one run's operands: the whole problem label (types, pattern, sat, scales),
// the seed, the plugin and kernel, so no two runs of a workload share one.
std::string file_stem(const Job& job, const std::string& plugin, const std::string& kernel) {
    std::string s = fmt::format("{}_seed{}_{}", job.problem.label(), job.problem.seed, plugin);
    if (!kernel.empty()) s += "_" + kernel;
    std::string out;
    for (char c : s) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') out += c;
        else if (c == '*') out += 'x';
        else if (c == ':') out += '-';
        else if (c == '+' || c == '/') out += '_';
        else if (c == '>') continue;
        else out += '_';
    }
    return out;
}

std::string handle_kernel(const Plugin& p, const spmma_handle* h) {
    char name[256] = {};
    p.check(p.api().handle_kernel(h, name, sizeof name), "handle_kernel");
    name[sizeof name - 1] = '\0';
    return name;
}

class Runner {
public:
    Runner(const std::vector<Plugin>& plugins, const RunnerOptions& o, const std::vector<RecordSink*>& sinks, Progress* progress)
        : plugins_(plugins), opts_(o), sinks_(sinks), progress_(progress) {}

    RunSummary run(const std::vector<Job>& jobs_in) {
        std::vector<Job> jobs = jobs_in;
        size_t total = 0;
        for (Job& j : jobs) {
            if (!opts_.plugins.empty()) j.plugins = opts_.plugins;
            if (!opts_.kernels.empty()) j.kernels = opts_.kernels;
            if (opts_.warmup) j.warmup = *opts_.warmup;
            if (opts_.iterations) j.iterations = *opts_.iterations;
            if (opts_.verify) j.verify = *opts_.verify;
            total += plugin_list(j).size();
        }
        if (progress_) progress_->start(total);
        for (const Job& j : jobs) run_job(j);
        if (progress_) progress_->finish();
        for (auto* s : sinks_) s->finish();
        return summary_;
    }

private:
    // The plugin names a job runs on, the baseline first.
    std::vector<std::string> plugin_list(const Job& j) const {
        std::vector<std::string> names = j.plugins;
        if (names.empty())
            for (const auto& p : plugins_)
                if (p.usable()) names.push_back(p.name);
        if (!opts_.baseline.empty()) {
            std::erase(names, opts_.baseline);
            names.insert(names.begin(), opts_.baseline);
        }
        return names;
    }

    void emit(Record& r) {
        switch (r.status) {
            case RecordStatus::Verified: ++summary_.verified; break;
            case RecordStatus::Failed: ++summary_.failed; break;
            case RecordStatus::Unverified: ++summary_.unverified; break;
            case RecordStatus::Error: ++summary_.errors; break;
            case RecordStatus::Skipped: ++summary_.skipped; break;
        }
        if (baseline_ && r.timing && r.plugin != baseline_->plugin && r.timing->median_ms > 0) {
            Baseline b = *baseline_;
            b.speedup = b.median_ms / r.timing->median_ms;
            r.baseline = b;
        }
        for (auto* s : sinks_) s->record(r);
    }

    void skip(const Job& j, const Plugin* p, std::string reason) {
        Record r = base_record(j, p, opts_);
        r.status = RecordStatus::Skipped;
        r.reason = std::move(reason);
        emit(r);
    }

    void run_job(const Job& job) {
        JobState state(job, opts_);
        baseline_.reset();
        for (const std::string& name : plugin_list(job)) {
            if (progress_) progress_->step(done_, fmt::format("{} on {}", job.problem.label(), name));
            run_plugin(job, state, name);
            ++done_;
        }
    }

    void run_plugin(const Job& job, JobState& state, const std::string& name) {
        const Plugin* p = find_plugin(plugins_, name);
        if (!p) {
            std::vector<std::string> names;
            for (const auto& q : plugins_)
                if (q.usable()) names.push_back(q.name);
            skip(job, nullptr, fmt::format("no plugin named '{}' is loaded (loaded: {}; `spmma plugins` lists what failed)", name,
                                           names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
            return;
        }
        const DeviceInfo dev = probe(*p);
        if (!dev.runnable) {
            skip(job, p, dev.reason);
            return;
        }
        const spmma_problem abi = job.problem.to_abi();
        std::vector<std::string> kernels;  // empty string: the plugin's choice
        if (job.kernels.empty()) {
            if (auto why = p->unsupported_reason(opts_.device, abi, nullptr)) {
                skip(job, p, *why);
                return;
            }
            kernels.push_back("");
        } else {
            std::string first_reason;
            int matched = 0;
            for (const auto& k : p->kernels) {
                if (!matches_any(k.name, job.kernels)) continue;
                ++matched;
                if (auto why = p->unsupported_reason(opts_.device, abi, k.name.c_str())) {
                    if (first_reason.empty()) first_reason = fmt::format("{}: {}", k.name, *why);
                } else {
                    kernels.push_back(k.name);
                }
            }
            if (matched == 0) {
                skip(job, p, fmt::format("no kernel of {} matches {}", p->name, fmt::join(job.kernels, " or ")));
                return;
            }
            if (kernels.empty()) {
                skip(job, p, fmt::format("none of the {} matching kernels supports this problem ({})", matched, first_reason));
                return;
            }
        }
        for (const auto& k : kernels) run_kernel(job, state, *p, dev, k);
    }

    DeviceInfo probe(const Plugin& p) {
        for (const auto& [name, info] : probed_)
            if (name == p.name) return info;
        DeviceInfo d = p.probe(opts_.device);
        probed_.emplace_back(p.name, d);
        return d;
    }

    void run_kernel(const Job& job, JobState& state, const Plugin& p, const DeviceInfo& dev, const std::string& kernel) {
        Record r = base_record(job, &p, opts_);
        r.device = dev.name;
        r.device_arch = dev.arch;
        r.driver = dev.driver;
        r.kernel = kernel;
        std::vector<uint8_t> d;
        std::string stage = "operands";
        std::string selector;
        try {
            const Operands& ops = state.operands();
            const spmma_problem abi = job.problem.to_abi();
            const spmma_operands view = ops.view();
            stage = "create";
            spmma_handle* raw = nullptr;
            p.check(p.api().create(opts_.device, &abi, kernel.empty() ? nullptr : kernel.c_str(), &raw), "create");
            Handle h(p, raw);
            r.kernel = handle_kernel(p, h.get());
            // What reruns this record: the kernel asked for, or the plugin's choice when it is a
            // kernel of its list (a name the plugin refines later, e.g. with an algorithm, is not).
            selector = kernel;
            if (selector.empty())
                for (const auto& k : p.kernels)
                    if (k.name == r.kernel) selector = r.kernel;
            stage = "upload";
            p.check(p.api().upload(h.get(), &view), "upload");
            stage = "run";
            std::vector<float> times(static_cast<size_t>(job.iterations), 0.0f);
            spmma_run_config cfg{};
            cfg.struct_size = sizeof cfg;
            cfg.warmup = job.warmup;
            cfg.iterations = job.iterations;
            cfg.times_ms = times.data();
            p.check(p.api().run(h.get(), &cfg), "run");
            r.kernel = handle_kernel(p, h.get());  // may now name what the plugin chose while running
            stage = "download";
            d.assign(storage_bytes(job.problem.d, job.problem.m * job.problem.n), 0);
            p.check(p.api().download(h.get(), d.data(), d.size()), "download");
            r.timing = Timing::from(std::vector<double>(times.begin(), times.end()), job.warmup, job.problem.flops());
        } catch (const std::exception& e) {
            r.status = RecordStatus::Error;
            r.stage = stage;
            r.reason = e.what();
            emit(r);
            return;
        }
        r.command = reproduce_command(job, p.name, selector, opts_.plugin_dir);
        try {
            stage = "verify";
            if (job.verify == reference::VerifyMode::None) {
                r.status = RecordStatus::Unverified;
            } else {
                r.verdict = reference::check(state.input(), state.expected(), d.data());
                r.status = r.verdict->passed ? RecordStatus::Verified : RecordStatus::Failed;
                if (!r.verdict->passed)
                    r.reason = fmt::format("{} of {} checked elements wrong ({} NaN), max abs error {:.3g}", r.verdict->mismatches,
                                           r.verdict->checked, r.verdict->nan_count, r.verdict->max_abs_error);
            }
            const bool save_all = !opts_.save_operands.empty();
            const bool save_failure = r.status == RecordStatus::Failed && !opts_.save_failures.empty();
            if (save_all || save_failure) {
                stage = "save operands";
                const auto ref_d = reference::reference_d(state.input());
                const std::string stem = file_stem(job, p.name, r.kernel);
                if (save_all) save_operands(opts_.save_operands, stem, state.input().problem, state.input().operands, d.data(), ref_d.data());
                if (save_failure) save_operands(opts_.save_failures, stem, state.input().problem, state.input().operands, d.data(), ref_d.data());
            }
        } catch (const std::exception& e) {
            r.status = RecordStatus::Error;
            r.stage = stage;
            r.reason = e.what();
        }
        if (p.name == opts_.baseline && r.timing) baseline_ = Baseline{p.name, r.kernel, r.timing->median_ms, 1.0};
        emit(r);
    }

    const std::vector<Plugin>& plugins_;
    const RunnerOptions& opts_;
    const std::vector<RecordSink*>& sinks_;
    Progress* progress_;
    RunSummary summary_;
    size_t done_ = 0;
    std::optional<Baseline> baseline_;
    std::vector<std::pair<std::string, DeviceInfo>> probed_;
};

}  // namespace

RunSummary run_jobs(const std::vector<Job>& jobs, const std::vector<Plugin>& plugins, const RunnerOptions& options,
                    const std::vector<RecordSink*>& sinks, Progress* progress) {
    return Runner(plugins, options, sinks, progress).run(jobs);
}

}  // namespace spmma

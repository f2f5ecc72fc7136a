#include <spmma/core/runner.hpp>

#include "job_state.hpp"
#include "shared_output.hpp"

#include <spmma/core/durable_file.hpp>
#include <spmma/core/median.hpp>

#include <spmma/core/npy.hpp>
#include <spmma/core/operands.hpp>
#include <spmma/reference/gemm.hpp>

#include <fmt/format.h>

#include <fnmatch.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <thread>

namespace spmma {

RunSummary& RunSummary::operator+=(const RunSummary& o) {
    verified += o.verified;
    failed += o.failed;
    unverified += o.unverified;
    errors += o.errors;
    skipped += o.skipped;
    missing += o.missing;
    resumed += o.resumed;
    steps = std::max(steps, o.steps);
    steps_done += o.steps_done;
    interrupted = interrupted ? interrupted : o.interrupted;
    if (output_error.empty()) output_error = o.output_error;
    phases += o.phases;
    gpu_busy_ms += o.gpu_busy_ms;
    gpu_records += o.gpu_records;
    return *this;
}

int RunSummary::exit_code() const {
    if (interrupted) return 128 + interrupted;
    if (failed > 0 || errors > missing || !output_error.empty()) return 1;
    // NOTES: records --resume kept count as if made now, so a requeued Slurm task that had
    // finished exits as its first run did.
    if (verified + unverified == 0) return 3;
    return missing > 0 ? 1 : 0;
}

std::string RunSummary::cut_short() const {
    if (!interrupted && output_error.empty()) return {};
    const std::string why = interrupted ? fmt::format("interrupted by SIG{}", sigabbrev_np(interrupted) ? sigabbrev_np(interrupted) : "?")
                                        : "stopped: " + output_error;
    return fmt::format("{}: {} of {} plugin runs were not made (rerun the same command with --resume to make them)", why,
                       steps - std::min(steps, steps_done), steps);
}

// NOTES: on several devices the phases add up over the devices: each share is of the time the
// devices had (wall x devices), so the column still sums to 100 %.
std::string RunSummary::phase_table(double startup_ms) const {
    const double wall = wall_ms + startup_ms;
    if (wall <= 0) return {};
    const double capacity = wall_ms * devices + startup_ms;
    auto line = [&](const char* what, double ms) { return fmt::format("  {:<10} {:>9.2f} s {:>5.1f} %\n", what, ms / 1e3, 100 * ms / capacity); };
    std::string out = fmt::format("where the time went ({:.2f} s wall", wall / 1e3);
    out += devices > 1 ? fmt::format(", {} devices: shares of {:.2f} device-seconds):\n", devices, capacity / 1e3) : "):\n";
    out += line("start", startup_ms);
    out += line("generate", phases.generate);
    out += line("prepare", phases.prepare);
    out += line("upload", phases.upload);
    out += line("run", phases.run);
    out += line("download", phases.download);
    out += line("verify", phases.verify);
    out += line("other", capacity - startup_ms - phases.total() + phases.other);
    if (gpu_records > 0)
        out += fmt::format("  GPU busy (timed launches) {:.2f} s, {:.1f} % of the {}\n", gpu_busy_ms / 1e3, 100 * gpu_busy_ms / capacity,
                           devices > 1 ? "device-seconds" : "wall time");
    return out;
}

bool matches_any(const std::string& name, const std::vector<std::string>& globs) {
    for (const auto& g : globs)
        if (fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
    return false;
}

double default_timeout_s(const Job& job, const TimingPolicy& timing, bool gpu) {
    const double launches = job.warmup + job.iterations + 1;
    const double rate = gpu ? 1e12 : 1e9;
    double t = 60 + launches * job.problem.flops() / rate;
    if (timing.min_time_s > 0 || timing.max_noise > 0) t += std::max(timing.min_time_s, timing.max_time_s) * 2;
    return t;
}

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

Record base_record(const Job& job, const PluginEndpoint* ep, const RunnerOptions& o) {
    Record r;
    r.spmma_version = SPMMA_VERSION;
    r.timestamp = utc_timestamp();
    r.host = host_name();
    r.source = job.source;
    r.job = job;
    r.device_index = o.device;
    if (ep) {
        const PluginIdentity& p = ep->identity();
        r.plugin = p.name;
        r.plugin_version = p.version;
        r.plugin_vendor = p.vendor;
        r.plugin_target = p.target;
        r.plugin_file = p.file.string();
        r.plugin_sha256 = p.sha256;
        r.plugin_abi_major = p.abi_major;
        r.plugin_abi_minor = p.abi_minor;
        r.dense = p.dense();
        r.isolation = ep->isolation();
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

// What one job does, decided before its operands exist: per plugin, in order, either a record
// (skipped, or an error before any run) or the kernels to run.
struct Step {
    std::string plugin;
    PluginEndpoint* ep = nullptr;
    DeviceInfo dev;
    std::vector<std::string> kernels;  // "" is the plugin's choice
    std::optional<Record> record;
    std::vector<const Record*> kept;   // --resume: the records of this step already written
    bool done = false;                 // --resume: nothing left to do
};
using Plan = std::vector<Step>;

bool runs_anything(const Plan& plan) {
    for (const auto& s : plan)
        if (!s.record && !s.done) return true;
    return false;
}

class Runner {
public:
    Runner(const std::vector<std::unique_ptr<PluginEndpoint>>& plugins, const RunnerOptions& o, const std::vector<RecordSink*>& sinks,
           Progress* progress)
        : plugins_(plugins), opts_(o), sinks_(sinks), progress_(progress) {}
    void set_device_label(std::string label) { device_label_ = std::move(label); }

    // NOTES: the next job is planned and its operands generated (into the other arena) while
    // this job's plugins run; a job's state is dropped before the job after next reuses its arena.
    // Jobs come from `feed`: in order on one device, as devices free up on several.
    RunSummary run(const std::vector<Job>& jobs_in, JobFeed& feed) {
        const auto t0 = Clock::now();
        std::vector<Job> jobs = jobs_in;
        size_t total = 0;
        for (Job& j : jobs) {
            apply_options(j);
            total += plugin_list(j).size();
        }
        if (progress_) progress_->start(total);
        std::unique_ptr<detail::JobState> next;
        Plan next_plan;
        size_t generated = 0;
        auto prepare = [&](size_t i, std::unique_ptr<detail::JobState> started) {
            next_plan = plan(jobs[i]);
            next = started ? std::move(started) : std::make_unique<detail::JobState>(jobs[i], opts_.verify_options, operand_arenas_[generated % 2]);
            ++generated;
            if (runs_anything(next_plan)) next->start();
        };
        reserve_arenas(jobs);
        std::optional<size_t> current = feed.next();
        // NOTES: the first job's operands are drawn while the workers start their drivers and
        // answer the probes, before its plan says whether anything runs it (when nothing does,
        // one job's generation is spent for nothing). After the probes they were the longest
        // wait of a run that starts with a large job (0.26-0.44 s of 16384^3 operands on a
        // device's share of the host: bench/NOTES.md, 2026-11-27, 2 x H100).
        std::unique_ptr<detail::JobState> first;
        if (current) {
            first = std::make_unique<detail::JobState>(jobs[*current], opts_.verify_options, operand_arenas_[0]);
            first->start();
        }
        prepare_workers(jobs);
        if (current) prepare(*current, std::move(first));
        feed_ = &feed;
        summary_.steps = total;
        while (current && !stopping()) {
            std::unique_ptr<detail::JobState> state = std::move(next);
            const Plan plan_now = std::move(next_plan);
            const std::optional<size_t> following = feed.next();
            if (following) prepare(*following, nullptr);
            run_job(jobs[*current], plan_now, *state);
            current = following;
        }
        if (progress_) progress_->finish();
        summary_.steps_done = done_;
        if (opts_.interrupt) summary_.interrupted = opts_.interrupt->load();
        const std::string note = summary_.cut_short();
        for (auto* s : sinks_) {
            if (!note.empty()) s->cut_short(note);
            try {
                s->finish();
            } catch (const OutputError& e) {
                if (summary_.output_error.empty()) summary_.output_error = e.what();
            }
        }
        summary_.wall_ms = ms_since(t0);
        return summary_;
    }

private:
    // NOTES: the arenas are made as large as the largest job needs before the first job, and every
    // plugin's worker maps them (and page-locks them for a GPU) while job 0 is generated: otherwise each growth
    // of an arena is mapped and pinned again by every worker inside a run (2026-11-24, H200:
    // 0.4 s per worker at the first 16384^3 job).
    void reserve_arenas(const std::vector<Job>& jobs) {
        for (const Job& j : jobs) largest_operands_ = std::max(largest_operands_, OperandLayout::of(OperandSizes::of(j.problem)).total);
        if (largest_operands_ == 0) return;
        for (Arena& a : operand_arenas_) a.reserve(largest_operands_);
    }

    void prepare_workers(const std::vector<Job>& jobs) {
        if (largest_operands_ == 0) return;
        // NOTES: in the order the plugins first run, so the first run's worker is first to pin;
        // the probes go out together, each worker starting its driver beside the others.
        std::vector<PluginEndpoint*> used;
        for (const Job& j : jobs)
            for (auto& n : plugin_list(j))
                if (PluginEndpoint* p = find_endpoint(plugins_, n); p && std::find(used.begin(), used.end(), p) == used.end()) {
                    if (!probed_.count(n)) p->begin_probe(opts_.device);
                    used.push_back(p);
                }
        for (PluginEndpoint* p : used) {
            const std::string& n = p->identity().name;
            try {
                const DeviceInfo d = probe(*p);
                if (d.runnable) p->prepare({&operand_arenas_[0], &operand_arenas_[1]}, d.is_gpu() ? d.uuid : "");
            } catch (const WorkerLost&) {
                probed_.erase(n);  // planning the job reports it
            }
        }
    }

    void apply_options(Job& j) const {
        if (!opts_.plugins.empty()) j.plugins = opts_.plugins;
        if (!opts_.kernels.empty()) j.kernels = opts_.kernels;
        if (opts_.warmup) j.warmup = *opts_.warmup;
        if (opts_.iterations) j.iterations = *opts_.iterations;
        if (opts_.verify) j.verify = *opts_.verify;
        if (opts_.timing) j.timing = *opts_.timing;
    }

    // The plugin names a job runs on, the baseline first, each once.
    std::vector<std::string> plugin_list(const Job& j) const {
        std::vector<std::string> names = j.plugins;
        if (names.empty())
            for (const auto& p : plugins_)
                if (p->identity().usable()) names.push_back(p->identity().name);
        if (!opts_.baseline.empty()) {
            std::erase(names, opts_.baseline);
            names.insert(names.begin(), opts_.baseline);
        }
        std::vector<std::string> once;
        for (auto& n : names)
            if (std::find(once.begin(), once.end(), n) == once.end()) once.push_back(std::move(n));
        return once;
    }

    Record skip_record(const Job& j, const PluginEndpoint* p, std::string reason) const {
        Record r = base_record(j, p, opts_);
        r.status = RecordStatus::Skipped;
        r.reason = std::move(reason);
        return r;
    }

    Record error_record(const Job& j, const PluginEndpoint* p, const std::string& stage, const std::string& reason) const {
        Record r = base_record(j, p, opts_);
        r.status = RecordStatus::Error;
        r.stage = stage;
        r.reason = reason;
        return r;
    }

    Plan plan(const Job& job) {
        Plan out;
        for (const std::string& name : plugin_list(job)) out.push_back(plan_plugin(job, name));
        return out;
    }

    // Drops what --resume finds already written: a step's record, or the kernels already run.
    // The kept records take the place of what they cover.
    static void drop_done(const Job& job, Step& s, const std::map<std::string, Record>& kept) {
        if (kept.empty()) return;
        if (s.record)
            if (auto it = kept.find(resume_key(job, s.plugin, "")); it != kept.end()) {
                s.record.reset();
                s.kept.push_back(&it->second);
                s.done = true;
            }
        std::erase_if(s.kernels, [&](const std::string& k) {
            const auto it = kept.find(resume_key(job, s.plugin, k));
            if (it == kept.end()) return false;
            s.kept.push_back(&it->second);
            return true;
        });
        if (!s.record && s.kernels.empty()) s.done = true;
    }

    Step plan_plugin(const Job& job, const std::string& name) {
        Step s = decide(job, name);
        drop_done(job, s, opts_.kept);
        return s;
    }

    Step decide(const Job& job, const std::string& name) {
        Step s;
        s.plugin = name;
        s.ep = find_endpoint(plugins_, name);
        if (!s.ep) {
            std::vector<std::string> names;
            for (const auto& q : plugins_)
                if (q->identity().usable()) names.push_back(q->identity().name);
            const std::string why = fmt::format("no plugin named '{}' is loaded (loaded: {}; `spmma plugins` lists what failed)", name,
                                                names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", ")));
            // Asked for by name (--plugin or the workload): its absence fails the run.
            s.record = job.plugins.empty() ? skip_record(job, nullptr, why) : error_record(job, nullptr, "load", why);
            return s;
        }
        std::string stage = "probe";
        try {
            s.dev = probe(*s.ep);
            if (!s.dev.runnable) {
                s.record = skip_record(job, s.ep, s.dev.reason);
                return s;
            }
            stage = "supports";
            choose_kernels(job, s);
        } catch (const WorkerLost& e) {
            probed_.erase(name);
            s.record = error_record(job, s.ep, stage, e.what());
        }
        return s;
    }

    // The kernels of the step's plugin that run the job, or a skip record saying why none does.
    void choose_kernels(const Job& job, Step& s) {
        PluginEndpoint& p = *s.ep;
        const spmma_problem abi = job.problem.to_abi();
        if (job.kernels.empty()) {
            if (auto why = p.unsupported_reason(opts_.device, abi, nullptr)) s.record = skip_record(job, &p, *why);
            else s.kernels.push_back("");
            return;
        }
        std::string first_reason;
        int matched = 0;
        for (const auto& k : p.identity().kernels) {
            if (!matches_any(k.name, job.kernels)) continue;
            ++matched;
            if (auto why = p.unsupported_reason(opts_.device, abi, k.name.c_str())) {
                if (first_reason.empty()) first_reason = fmt::format("{}: {}", k.name, *why);
            } else {
                s.kernels.push_back(k.name);
            }
        }
        if (matched == 0)
            s.record = skip_record(job, &p, fmt::format("no kernel of {} matches {}", p.identity().name, fmt::join(job.kernels, " or ")));
        else if (s.kernels.empty())
            s.record = skip_record(job, &p, fmt::format("none of the {} matching kernels supports this problem ({})", matched, first_reason));
    }

    DeviceInfo probe(PluginEndpoint& p) {
        const std::string& name = p.identity().name;
        if (auto it = probed_.find(name); it != probed_.end()) return it->second;
        return probed_[name] = p.probe(opts_.device);
    }

    bool interrupted() const { return opts_.interrupt && opts_.interrupt->load() != 0; }
    bool stopping() const { return interrupted() || (feed_ && feed_->stopped()); }

    // A record to every sink. After an interrupt nothing is written: a run whose worker was ended
    // by it is not a result, and --resume runs it again.
    void emit(Record& r, bool kept = false) {
        if (interrupted()) return;
        r.plugins_requested = plugin_list(r.job);
        count(r);
        if (!kept && baseline_ && r.timing && r.plugin != baseline_->plugin && r.timing->median_ms > 0) {
            Baseline b = *baseline_;
            b.speedup = b.median_ms / r.timing->median_ms;
            r.baseline = b;
        }
        if (!kept && r.phases) summary_.phases += *r.phases;
        if (!kept && r.timing && r.device_arch.rfind("sm_", 0) == 0) {
            double busy = r.timing->warmup * r.timing->median_ms;
            for (double t : r.timing->times_ms) busy += t;
            summary_.gpu_busy_ms += busy;
            ++summary_.gpu_records;
        }
        for (auto* s : sinks_) {
            try {
                if (kept) s->kept(r);
                else s->record(r);
            } catch (const OutputError& e) {
                // NOTES: the first output that fails stops the run (every runner: the feed
                // stops); the other sinks still take this record and are finished.
                if (summary_.output_error.empty()) summary_.output_error = e.what();
                if (feed_) feed_->stop();
            }
        }
    }

    // A record --resume kept, in the place of the run it covers: counted and handed on as if it
    // had been made now (its job is this run's).
    void emit_kept(const Job& job, const Record& stored) {
        Record r = stored;
        r.job = job;
        r.source = job.source;
        ++summary_.resumed;
        if (r.plugin == opts_.baseline && r.timing && r.timing->median_ms > 0)
            baseline_ = Baseline{r.plugin, r.kernel, r.timing->median_ms, 1.0};
        emit(r, true);
    }

    void count(const Record& r) {
        switch (r.status) {
            case RecordStatus::Verified: ++summary_.verified; break;
            case RecordStatus::Failed: ++summary_.failed; break;
            case RecordStatus::Unverified: ++summary_.unverified; break;
            case RecordStatus::Error:
                ++summary_.errors;
                summary_.missing += r.stage == "load";
                break;
            case RecordStatus::Skipped: ++summary_.skipped; break;
        }
    }

    void run_job(const Job& job, const Plan& plan, detail::JobState& state) {
        baseline_.reset();
        for (const Step& s : plan) {
            if (stopping()) return;
            if (progress_) progress_->step(done_, fmt::format("{} on {}{}", job.problem.label(), s.plugin, device_label_));
            for (const Record* k : s.kept) emit_kept(job, *k);
            if (s.record) {
                Record r = *s.record;
                emit(r);
            } else if (!s.done) {
                for (const auto& k : s.kernels)
                    if (!stopping()) run_kernel(job, state, *s.ep, s.dev, k);
            }
            if (!stopping()) ++done_;
        }
    }

    // The request for one run and the result arena laid out for it (D, or the sampled indices
    // and their values).
    ExecRequest request(const Job& job, const DeviceInfo& dev, const std::string& kernel, const detail::JobState& state, bool want_all_d) {
        ExecRequest req;
        req.device = opts_.device;
        req.device_uuid = dev.is_gpu() ? dev.uuid : "";
        req.problem = job.problem.to_abi();
        req.kernel = kernel;
        req.warmup = job.warmup;
        req.iterations = job.iterations;
        req.timing = job.timing;
        const size_t eb = storage_bytes(job.problem.d, 1);
        ResultLayout& res = req.result;
        res.d_bytes = storage_bytes(job.problem.d, job.problem.m * job.problem.n);
        const auto& samples = state.samples();
        if (!want_all_d && !samples.empty()) {
            res.count = samples.size();
            res.indices_offset = (res.d_bytes + 63) / 64 * 64;
            res.values_offset = res.indices_offset + (res.count * sizeof(int64_t) + 63) / 64 * 64;
        }
        uint8_t* base = results_.reserve(res.count ? res.values_offset + res.count * eb : res.d_bytes);
        if (res.count) std::memcpy(base + res.indices_offset, samples.data(), res.count * sizeof(int64_t));
        return req;
    }

    void run_kernel(const Job& job, detail::JobState& state, PluginEndpoint& p, const DeviceInfo& dev, const std::string& kernel) {
        Record r = base_record(job, &p, opts_);
        r.device = dev.name;
        r.device_arch = dev.arch;
        r.driver = dev.driver;
        r.device_uuid = dev.uuid;
        r.device_pci_bus_id = dev.pci_bus_id;
        r.device_peaks = {dev.sm_count, dev.sm_clock_khz, dev.mem_clock_khz, dev.mem_bus_bits};
        r.kernel = kernel;
        r.kernel_request = kernel;
        Phases ph;
        const auto t_all = Clock::now();
        try {
            ph.generate = state.wait_operands();  // the part of generation this job did not hide
            r.generate_ms = state.generate_ms();
            r.operand_sources = state.operand_sources();
        } catch (const std::exception& e) {
            Record err = error_record(job, &p, "generate", e.what());
            emit(err);
            return;
        }
        const bool save = !opts_.save_operands.empty() || !opts_.save_failures.empty();
        const ExecRequest req = request(job, dev, kernel, state, save);
        const double timeout = opts_.timeout_s > 0 ? opts_.timeout_s : default_timeout_s(job, job.timing, dev.is_gpu());
        const auto t_exec = Clock::now();
        const ExecResult x = p.execute(req, Exchange{&state.arena(), state.layout(), &results_}, timeout);
        const double exec_ms = ms_since(t_exec);
        ph.prepare = x.phases.create + x.phases.prepare_in_upload;
        ph.upload = x.phases.upload - x.phases.prepare_in_upload;
        ph.run = x.phases.run;
        ph.download = x.phases.download;
        ph.other = std::max(0.0, exec_ms - x.phases.create - x.phases.upload - x.phases.run - x.phases.download);
        r.plugin_notes = x.notes;
        r.clocks = x.clocks;
        if (!x.kernel.empty()) r.kernel = x.kernel;
        if (!x.ok) {
            r.status = RecordStatus::Error;
            r.stage = x.stage;
            r.reason = x.error;
            r.phases = ph;
            if ((x.lost || x.status == SPMMA_DEVICE_ERROR) && !interrupted()) p.restart();  // a poisoned context stays in that worker
            emit(r);
            return;
        }
        r.timing = Timing::from(x.times_ms, x.launches_warmup, job.problem.flops());
        r.timing->noise = median_noise(x.times_ms);
        r.timing->flush_l2 = job.timing.flush_l2;
        r.timing->l2_flushed = x.l2_flushed;
        r.timing->note = x.timing_note;
        r.sol = speed_of_light(job.problem, r.dense, r.device_arch, r.device_peaks, r.timing->median_ms);
        // What reruns this record: the kernel asked for, or the plugin's choice when it is a
        // kernel of its list (a name the plugin refines later, e.g. with an algorithm, is not).
        std::string selector = kernel;
        if (selector.empty())
            for (const auto& k : p.identity().kernels)
                if (k.name == r.kernel) selector = r.kernel;
        r.command = reproduce_command(job, p.identity().name, selector, opts_.plugin_dir);
        r.d_transfer = x.elements_only ? "elements" : "all";
        const auto t_verify = Clock::now();
        verify(job, state, p, req, x, r);
        ph.verify = ms_since(t_verify);
        ph.other += std::max(0.0, ms_since(t_all) - ph.total());
        r.phases = ph;
        if (p.identity().name == opts_.baseline && r.timing) baseline_ = Baseline{p.identity().name, r.kernel, r.timing->median_ms, 1.0};
        emit(r);
    }

    void verify(const Job& job, detail::JobState& state, const PluginEndpoint& p, const ExecRequest& req, const ExecResult& x, Record& r) {
        std::string stage = "verify";
        try {
            const uint8_t* base = results_.data();
            if (job.verify == reference::VerifyMode::None) {
                r.status = RecordStatus::Unverified;
            } else {
                const uint8_t* d = x.elements_only ? base + req.result.values_offset : base + req.result.d_offset;
                r.verdict = reference::check(state.input(), state.expected(), d, 8, x.elements_only);
                r.status = r.verdict->passed ? RecordStatus::Verified : RecordStatus::Failed;
                if (!r.verdict->passed)
                    r.reason = fmt::format("{} of {} checked elements wrong ({} NaN), max abs error {:.3g}", r.verdict->mismatches,
                                           r.verdict->checked, r.verdict->nan_count, r.verdict->max_abs_error);
            }
            const bool save_all = !opts_.save_operands.empty();
            const bool save_failure = r.status == RecordStatus::Failed && !opts_.save_failures.empty();
            if ((save_all || save_failure) && !x.elements_only) {
                stage = "save operands";
                const auto in = state.input();
                const auto ref_d = reference::reference_d(in);
                const std::string stem = file_stem(job, p.identity().name, r.kernel);
                const uint8_t* d = base + req.result.d_offset;
                if (save_all) save_operands(opts_.save_operands, stem, in.problem, in.operands, d, ref_d.data());
                if (save_failure) save_operands(opts_.save_failures, stem, in.problem, in.operands, d, ref_d.data());
            }
        } catch (const std::exception& e) {
            r.status = RecordStatus::Error;
            r.stage = stage;
            r.reason = e.what();
        }
    }

    const std::vector<std::unique_ptr<PluginEndpoint>>& plugins_;
    const RunnerOptions& opts_;
    const std::vector<RecordSink*>& sinks_;
    Progress* progress_;
    RunSummary summary_;
    JobFeed* feed_ = nullptr;
    size_t done_ = 0;
    std::string device_label_;
    std::optional<Baseline> baseline_;
    std::map<std::string, DeviceInfo> probed_;
    // Two operand arenas: the next job is generated into one while this job runs from the other.
    Arena operand_arenas_[2] = {Arena("spmma-operands-0"), Arena("spmma-operands-1")};
    size_t largest_operands_ = 0;  // the bytes of the largest job's operands: what each arena holds
    Arena results_{"spmma-results"};
};

}  // namespace

RunSummary run_jobs(const std::vector<Job>& jobs, const std::vector<std::unique_ptr<PluginEndpoint>>& plugins, const RunnerOptions& options,
                    const std::vector<RecordSink*>& sinks, Progress* progress) {
    JobFeed feed(jobs.size());
    return Runner(plugins, options, sinks, progress).run(jobs, feed);
}

std::vector<size_t> longest_first(const std::vector<Job>& jobs, const std::vector<std::string>& plugins) {
    std::vector<double> length(jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i) {
        const Job& j = jobs[i];
        const Problem& p = j.problem;
        const double bytes = static_cast<double>(OperandLayout::of(OperandSizes::of(p)).total);
        const double runs = static_cast<double>(!plugins.empty() ? plugins.size() : std::max<size_t>(1, j.plugins.size()));
        const double launches = std::max(1, j.warmup + j.iterations);
        const double device_s = runs * (bytes / 20e9 + launches * p.flops() / 600e12);
        const double generate_s = (static_cast<double>(p.m) * p.k + static_cast<double>(p.k) * p.n / 4) * 1e-9;
        length[i] = std::max(device_s, generate_s);
    }
    std::vector<size_t> order(jobs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return length[a] > length[b]; });
    return order;
}

int host_threads_per_device(int devices, int host_threads, const char* omp_num_threads) {
    if (devices <= 1 || (omp_num_threads && *omp_num_threads)) return 0;
    return std::max(1, host_threads / devices);
}

namespace {

// A slot's plugins opened now when it is to open them; false (said on stderr) when that failed.
bool open_slot(DeviceSlot& slot) {
    if (!slot.open) return true;
    try {
        slot.plugins = slot.open();
        return true;
    } catch (const std::exception& e) {
        fmt::print(stderr, "spmma: device {}: its plugins could not be opened ({}): it takes no jobs\n", slot.device, e.what());
        return false;
    }
}

}  // namespace

RunSummary run_on_devices(const std::vector<Job>& jobs, std::vector<DeviceSlot>& slots, const RunnerOptions& options,
                          const std::vector<RecordSink*>& sinks, Progress* progress) {
    if (slots.size() == 1) {
        RunnerOptions o = options;
        o.device = slots[0].device;
        if (!open_slot(slots[0])) {
            RunSummary none;
            none.errors = 1;
            return none;
        }
        return run_jobs(jobs, slots[0].plugins, o, sinks, progress);
    }
    const auto t0 = Clock::now();
    detail::SharedOutput shared(sinks, progress);
    // NOTES: in workload order the large problems came in the middle of the standard set: each
    // device's next operands (generated with half the host's threads) took longer than the small
    // job they were to hide behind, 0.4 s a device in a 5.7 s run (bench/NOTES.md, 2026-11-27,
    // 2 x H100). The longest first, each job's successor is no longer than it, and the last jobs
    // to finish are the shortest.
    JobFeed feed(longest_first(jobs, options.plugins));
    std::vector<RunSummary> parts(slots.size());
    std::vector<std::thread> threads;
    std::vector<RunnerOptions> opts(slots.size(), options);
    // NOTES: each runner generates operands and computes the reference with OpenMP on the host;
    // two teams of every host thread at once oversubscribed the cores, and the same records took
    // 10.8 device-seconds on two GPUs against 7.6 on one (bench/NOTES.md, 2026-11-25, 2 x H100).
    // nthreads-var is per thread, so each runner thread sets its own share.
    const int share = host_threads_per_device(static_cast<int>(slots.size()), omp_get_num_procs(), std::getenv("OMP_NUM_THREADS"));
    for (size_t i = 0; i < slots.size(); ++i) {
        opts[i].device = slots[i].device;
        threads.emplace_back([&, i] {
            if (share > 0) omp_set_num_threads(share);
            if (!open_slot(slots[i])) {
                parts[i].errors = 1;
                return;
            }
            Runner r(slots[i].plugins, opts[i], shared.sinks(), progress ? &shared : nullptr);
            r.set_device_label(fmt::format(" (device {})", slots[i].device));
            parts[i] = r.run(jobs, feed);
            // NOTES: this device has no job left: its workers start their exit (unpinning the
            // arenas, closing the context) now, beside the other devices' last jobs, rather than
            // all together after the last of them.
            close_requests(slots[i].plugins);
        });
    }
    for (auto& t : threads) t.join();
    RunSummary total;
    for (const RunSummary& p : parts) total += p;
    if (const std::string e = shared.finish_all(total.cut_short()); !e.empty() && total.output_error.empty()) total.output_error = e;
    total.wall_ms = ms_since(t0);
    total.devices = static_cast<int>(slots.size());
    return total;
}

}  // namespace spmma

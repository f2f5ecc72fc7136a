// The conformance suite from the parent's side: every check is a Check request to a worker
// process that has the plugin loaded; a worker that dies or hangs in a check fails that check
// with how it ended ("crashed: SIGSEGV in run (...)") and the next check starts a fresh one.
#include <spmma/core/conformance.hpp>

#include <spmma/core/conformance_checks.hpp>
#include <spmma/core/endpoint.hpp>
#include <spmma/core/worker_process.hpp>
#include <spmma/core/worker_protocol.hpp>

#include <fmt/format.h>

#include <chrono>

namespace spmma::conformance {
namespace {

CheckResult failed(const std::string& name, const std::string& detail) { return detail::outcome(name, Outcome::Fail, detail); }

// The worker the checks run in, started (and the plugin loaded) when a check needs it.
class CheckWorker {
public:
    explicit CheckWorker(const SuiteOptions& o) : o_(o) {}

    CheckResult run(const CheckRequest& req) {
        if (!load_lost_.empty()) return failed(req.name, "the plugin did not load: " + load_lost_);
        try {
            ensure();
            process_->send(protocol::request<protocol::Check>({req}), {}, "check " + req.name);
            return CheckResult::from_json(protocol::reply<protocol::Check>(process_->await(o_.timeout_s)).check);
        } catch (const protocol::RequestFailed& e) {
            return failed(req.name, std::string("the check could not run: ") + e.what());
        } catch (const WorkerLost& e) {
            process_.reset();
            if (e.stage == protocol::Load::stage) load_lost_ = e.what();
            return failed(req.name, e.what());
        } catch (const std::exception& e) {
            process_.reset();
            return failed(req.name, std::string("the worker failed: ") + e.what());
        }
    }

    const nlohmann::json& identity() const { return identity_; }
    // Why the plugin cannot be checked further (it did not load), or empty.
    std::string not_loaded() const {
        if (!load_lost_.empty()) return "the plugin did not load: " + load_lost_;
        if (identity_.is_null()) return "the plugin did not load";
        const auto id = identity_.get<PluginIdentity>();
        return id.usable() ? std::string() : "the plugin did not load: " + id.error;
    }

private:
    void ensure() {
        if (process_ && process_->alive()) return;
        process_ = std::make_unique<spmma::detail::WorkerProcess>(o_.worker_exe, o_.file.filename().string());
        protocol::Load::Reply loaded;
        try {
            loaded = protocol::reply<protocol::Load>(
                process_->call(protocol::request<protocol::Load>({o_.file.string()}), std::string(protocol::Load::stage), o_.timeout_s));
        } catch (const protocol::RequestFailed& e) {
            throw std::runtime_error(e.what());  // the worker failed, not the check
        }
        if (identity_.is_null()) identity_ = loaded.identity;
    }

    const SuiteOptions& o_;
    std::unique_ptr<spmma::detail::WorkerProcess> process_;
    std::string load_lost_;
    nlohmann::json identity_;
};

// The plugins of the default folder as spmma loads them (each in its own worker).
std::vector<InstalledPlugin> installed_plugins(const SuiteOptions& o) {
    std::vector<InstalledPlugin> out;
    if (o.installed_dir.empty()) return out;
    EndpointOptions eo;
    eo.worker_exe = o.worker_exe;
    eo.load_timeout_s = o.timeout_s;
    for (const auto& ep : open_plugins({o.installed_dir}, eo)) {
        const PluginIdentity& id = ep->identity();
        if (!id.name.empty()) out.push_back({id.file, id.name});
    }
    return out;
}

// One request per family; the row sums them up and carries each as a part.
CheckResult verification(CheckWorker& w, const SuiteOptions& o) {
    CheckResult total;
    total.name = "verification";
    int supported = 0;
    std::vector<std::string> failing;
    for (const Family& f : catalog()) {
        CheckRequest req;
        req.name = "verification";
        req.device = o.device;
        req.family = f.name;
        const auto t0 = std::chrono::steady_clock::now();
        CheckResult part = w.run(req);
        part.name = f.name;
        part.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (part.result != Outcome::Skip) ++supported;
        if (part.result == Outcome::Fail) failing.push_back(f.name);
        total.runs += part.runs;
        total.verified += part.verified;
        total.parts.push_back(std::move(part));
    }
    total.result = !failing.empty() ? Outcome::Fail : supported == 0 ? Outcome::Skip : Outcome::Pass;
    total.detail = supported == 0 ? fmt::format("the plugin supports none of the {} problem families", catalog().size())
                                  : fmt::format("verified {} of {} runs in the {} of {} problem families it supports", total.verified,
                                                total.runs, supported, catalog().size());
    if (!failing.empty()) {
        total.detail += "; failed:";
        for (const auto& n : failing) total.detail += " " + n;
        // The first failure's reason on the row itself (a lost worker's runs are not counted).
        for (const auto& p : total.parts)
            if (p.result == Outcome::Fail) {
                total.detail += fmt::format(" ({}: {})", p.name, p.detail);
                break;
            }
    }
    return total;
}

}  // namespace

SuiteReport check_plugin(const SuiteOptions& o, const std::function<void(const CheckResult&)>& on_check) {
    SuiteReport report;
    report.file = o.file;
    report.device = o.device;
    CheckWorker worker(o);
    std::vector<InstalledPlugin> installed;
    bool listed = false;
    std::string not_loaded;  // after the load check: why the others cannot run
    for (const std::string& name : check_names()) {
        const auto t0 = std::chrono::steady_clock::now();
        CheckResult r;
        if (!not_loaded.empty()) {
            r.name = name;
            r.result = Outcome::Skip;
            r.detail = not_loaded;
        } else if (name == "verification") {
            r = verification(worker, o);
        } else {
            if (name == "info" && !listed) {
                installed = installed_plugins(o);
                listed = true;
            }
            CheckRequest req;
            req.name = name;
            req.device = o.device;
            if (name == "info") req.installed = installed;
            r = worker.run(req);
        }
        if (name == "load") not_loaded = worker.not_loaded();
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        report.checks.push_back(r);
        if (on_check) on_check(r);
    }
    report.plugin = worker.identity();
    return report;
}

}  // namespace spmma::conformance

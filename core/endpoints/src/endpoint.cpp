// The two ways a plugin runs: loaded here (--in-process) or in a worker process.
#include <spmma/core/endpoint.hpp>

#include <spmma/core/worker_process.hpp>
#include <spmma/core/worker_protocol.hpp>

#include <fmt/format.h>

#include <deque>
#include <future>
#include <map>

namespace spmma {
namespace {

class InProcessEndpoint final : public PluginEndpoint {
public:
    explicit InProcessEndpoint(Plugin p) : p_(std::move(p)) {}
    const PluginIdentity& identity() const override { return p_; }
    PluginIdentity& identity() { return p_; }
    int device_count() override { return p_.device_count(); }
    DeviceInfo probe(int device) override { return p_.probe(device); }
    std::optional<std::string> unsupported_reason(int device, const spmma_problem& p, const char* kernel) override {
        return p_.unsupported_reason(device, p, kernel);
    }
    ExecResult execute(const ExecRequest& req, const Exchange& ex, double) override {
        if (auto it = pinning_.find(ex.operands); it != pinning_.end()) it->second.wait();  // its own arena only
        ex.operands->pin_for(req.device_uuid);  // see worker_main.cpp
        if (req.result.count == 0) ex.results->pin_for(req.device_uuid);
        return spmma::execute(p_, req, ex.layout.view(ex.operands->data()), ex.results->data());
    }
    // Pins on a thread of its own, one arena after the other, beside the runner's generation
    // (execute waits for the arena it reads).
    void prepare(const std::vector<Arena*>& arenas, const std::string& device_uuid) override {
        if (device_uuid.empty()) return;
        std::shared_future<void> before;
        for (Arena* a : arenas) {
            before = std::async(std::launch::async, [a, device_uuid, before] {
                         if (before.valid()) before.wait();
                         a->pin_for(device_uuid);
                     }).share();
            pinning_[a] = before;
        }
    }
    ~InProcessEndpoint() override {
        for (auto& [arena, p] : pinning_) p.wait();
    }
    const char* isolation() const override { return "in-process"; }

private:
    Plugin p_;
    std::map<const Arena*, std::shared_future<void>> pinning_;
};

class WorkerEndpoint final : public PluginEndpoint {
public:
    WorkerEndpoint(std::filesystem::path exe, std::filesystem::path file, double timeout_s)
        : exe_(std::move(exe)), timeout_s_(timeout_s) {
        id_.file = std::move(file);
    }

    // Starts the worker and asks it to load the plugin (the reply comes in finish_load).
    void begin_load() {
        try {
            process_ = std::make_unique<detail::WorkerProcess>(exe_, id_.file.filename().string());
            process_->send(protocol::request<protocol::Load>({id_.file.string()}), {}, std::string(protocol::Load::stage));
        } catch (const std::exception& e) {
            fail_load(e.what());
        }
    }
    void finish_load() {
        if (!process_) return;
        try {
            id_ = protocol::reply<protocol::Load>(process_->await(timeout_s_)).identity;
            if (!id_.usable()) process_.reset();
        } catch (const std::exception& e) {
            fail_load(e.what());
        }
    }

    const PluginIdentity& identity() const override { return id_; }
    PluginIdentity& identity() { return id_; }

    int device_count() override { return call<protocol::DeviceCount>({}).count; }
    DeviceInfo probe(int device) override {
        settle();
        if (auto it = lost_probes_.find(device); it != lost_probes_.end()) {
            const WorkerLost lost = it->second;  // reported once, not asked again: a hang costs one time limit
            lost_probes_.erase(it);
            throw lost;
        }
        if (auto it = early_probes_.find(device); it != early_probes_.end()) {
            const nlohmann::json reply = std::move(it->second);
            early_probes_.erase(it);
            return protocol::reply<protocol::Probe>(reply).device;
        }
        return call<protocol::Probe>({device}).device;
    }
    void begin_probe(int device) override {
        try {
            ensure_worker();
            process_->send(protocol::request<protocol::Probe>({device}), {}, std::string(protocol::Probe::name));
            unanswered_.push_back({Unanswered::Probe, device});
        } catch (const std::exception&) {
            process_.reset();  // probe() starts a worker again and reports what happens
            unanswered_.clear();
        }
    }
    std::optional<std::string> unsupported_reason(int device, const spmma_problem& p, const char* kernel) override {
        return call<protocol::Supports>({device, p, kernel ? std::optional<std::string>(kernel) : std::nullopt}).reason;
    }

    ExecResult execute(const ExecRequest& req, const Exchange& ex, double timeout_s) override {
        const nlohmann::json body =
            protocol::request<protocol::Execute>({req, protocol::region_of(*ex.operands), ex.layout, protocol::region_of(*ex.results)});
        try {
            settle();
            ensure_worker();
            process_->send(body, {ex.operands->fd(), ex.results->fd()}, "create");
            return protocol::reply<protocol::Execute>(process_->await(timeout_s)).result;
        } catch (const protocol::RequestFailed& e) {
            throw std::runtime_error(std::string("worker: ") + e.what());
        } catch (const WorkerLost& e) {
            process_.reset();
            ExecResult r;
            r.status = SPMMA_INTERNAL_ERROR;
            r.error = e.what();
            r.stage = e.stage;
            r.lost = true;
            return r;
        }
    }

    void prepare(const std::vector<Arena*>& arenas, const std::string& device_uuid) override {
        protocol::Prepare::Request q{{}, device_uuid};
        std::vector<int> fds;
        for (const Arena* a : arenas) {
            q.regions.push_back(protocol::region_of(*a));
            fds.push_back(a->fd());
        }
        try {
            settle();
            ensure_worker();
            process_->send(protocol::request<protocol::Prepare>(q), fds, std::string(protocol::Prepare::name));
            unanswered_.push_back({Unanswered::Prepare, 0});
        } catch (const WorkerLost&) {
            process_.reset();
            unanswered_.clear();
        }
    }
    const char* isolation() const override { return "worker"; }
    void restart() override {
        process_.reset();
        unanswered_.clear();
        early_probes_.clear();
        lost_probes_.clear();
    }
    void close_requests() override {
        if (process_) process_->close_requests();
        unanswered_.clear();
    }

private:
    void fail_load(const std::string& why) {
        id_.state = PluginState::Crashed;
        id_.error = why.rfind("crashed", 0) == 0 || why.rfind("exited", 0) == 0 || why.rfind("timeout", 0) == 0
                        ? why
                        : "the worker loading it failed: " + why;
        process_.reset();
    }

    void ensure_worker() {
        if (process_ && process_->alive()) return;
        unanswered_.clear();  // a lost worker's requests are answered by no one
        process_ = std::make_unique<detail::WorkerProcess>(exe_, id_.name);
        const PluginIdentity again =
            protocol::reply<protocol::Load>(process_->call(protocol::request<protocol::Load>({id_.file.string()}), std::string(protocol::Load::stage), timeout_s_))
                .identity;
        if (!again.usable() || again.sha256 != id_.sha256)
            throw WorkerLost(fmt::format("{} changed or stopped loading in a restarted worker: {}", id_.file.string(), again.error));
    }

    // Takes the answers of earlier begin_probe and prepare requests, in the order they were
    // sent. A lost prepare costs nothing but its speed-up (the next call starts a worker again);
    // a lost probe is what the next probe() reports.
    void settle() {
        while (!unanswered_.empty()) {
            const Unanswered u = unanswered_.front();
            unanswered_.pop_front();
            try {
                nlohmann::json reply = process_->await(timeout_s_);
                if (u.kind == Unanswered::Probe && !reply.contains("error")) early_probes_[u.device] = std::move(reply);
            } catch (const WorkerLost& e) {
                if (u.kind == Unanswered::Probe) lost_probes_.insert_or_assign(u.device, e);
                process_.reset();
                unanswered_.clear();
            }
        }
    }

    // Request R, its name the stage a lost worker is reported in.
    template <class R>
    typename R::Reply call(const typename R::Request& q) {
        try {
            settle();
            ensure_worker();
            return protocol::reply<R>(process_->call(protocol::request<R>(q), std::string(R::name), timeout_s_));
        } catch (const protocol::RequestFailed& e) {
            throw std::runtime_error(std::string("worker: ") + e.what());
        } catch (const WorkerLost&) {
            process_.reset();
            throw;
        }
    }

    std::filesystem::path exe_;
    double timeout_s_;
    PluginIdentity id_;
    std::unique_ptr<detail::WorkerProcess> process_;
    struct Unanswered {
        enum Kind { Probe, Prepare } kind;
        int device;
    };
    std::deque<Unanswered> unanswered_;             // requests sent whose answers are still to be read
    std::map<int, nlohmann::json> early_probes_;    // begin_probe's answers, by device
    std::map<int, WorkerLost> lost_probes_;         // begin_probe's requests the worker was lost in
};

}  // namespace

std::vector<std::unique_ptr<PluginEndpoint>> open_plugins(const std::vector<std::filesystem::path>& dirs, const EndpointOptions& o) {
    return open_plugin_files(plugin_files(dirs), o);
}

std::vector<std::unique_ptr<PluginEndpoint>> open_plugin_files(const std::vector<std::filesystem::path>& files, const EndpointOptions& o) {
    std::vector<std::unique_ptr<PluginEndpoint>> out;
    std::vector<PluginIdentity*> ids;
    if (o.in_process) {
        for (const auto& f : files) {
            auto ep = std::make_unique<InProcessEndpoint>(Plugin::load(f));
            ids.push_back(&ep->identity());
            out.push_back(std::move(ep));
        }
    } else {
        std::vector<WorkerEndpoint*> workers;
        for (const auto& f : files) {
            auto ep = std::make_unique<WorkerEndpoint>(o.worker_exe, f, o.load_timeout_s);
            ep->begin_load();
            workers.push_back(ep.get());
            ids.push_back(&ep->identity());
            out.push_back(std::move(ep));
        }
        for (auto* w : workers) w->finish_load();
    }
    refuse_duplicate_names(ids);
    for (auto& ep : out)
        if (!ep->identity().usable()) ep->restart();  // no worker kept for a plugin that is not used
    return out;
}

void close_requests(const std::vector<std::unique_ptr<PluginEndpoint>>& plugins) {
    for (const auto& p : plugins) p->close_requests();
}

PluginEndpoint* find_endpoint(const std::vector<std::unique_ptr<PluginEndpoint>>& eps, const std::string& name) {
    for (const auto& e : eps)
        if (e->identity().usable() && e->identity().name == name) return e.get();
    return nullptr;
}

}  // namespace spmma

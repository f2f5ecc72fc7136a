// The worker side: `spmma worker --fd N` loads one plugin and serves the parent's requests on the
// socket N until it closes. Operands and results stay in the parent's shared memory; the maps are
// kept while their region lives, so a sweep maps each region once.
#include <spmma/core/worker_main.hpp>

#include <spmma/core/conformance_checks.hpp>
#include <spmma/core/endpoint.hpp>
#include <spmma/core/resident_memory.hpp>
#include <spmma/core/wire.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <future>
#include <map>
#include <optional>

namespace spmma {
namespace {

// A region the parent sent, mapped here (by the arena's name; a new id replaces the mapping).
class Mappings {
public:
    // The region of arena `role` (mapped once per id). With `pin`, it is page-locked for the GPU
    // `uuid` on a thread of its own (registering a large region takes a while, and the parent
    // waits for nothing but its answer); ready() waits for that.
    uint8_t* get(const std::string& role, const nlohmann::json& ref, int fd, const std::string& uuid, bool pin) {
        const uint64_t id = ref.at("id");
        const size_t bytes = ref.at("bytes");
        auto it = maps_.find(role);
        if (it != maps_.end() && it->second.id == id) {
            close(fd);
        } else {
            if (it != maps_.end() && it->second.pinning.valid()) it->second.pinning.wait();
            maps_.erase(role);
            Slot& fresh = maps_[role];
            fresh.id = id;
            fresh.memory = SharedMemory::map(fd, bytes);
        }
        Slot& slot = maps_[role];
        if (pin && !slot.pinning.valid() && !uuid.empty()) {
            // NOTES: one region at a time, in the order asked for: pinned side by side they
            // share the kernel's page-locking and each takes as long as all (the first run
            // waits for its own region only).
            SharedMemory* m = &slot.memory;
            std::shared_future<void> before = last_pin_;
            slot.pinning = std::async(std::launch::async, [m, uuid, before] {
                               if (before.valid()) before.wait();
                               m->pin_for(uuid);
                           }).share();
            last_pin_ = slot.pinning;
        }
        return slot.memory.data();
    }
    // Waits until the region of `role` is pinned (when pinning was asked for).
    void ready(const std::string& role) {
        auto it = maps_.find(role);
        if (it != maps_.end() && it->second.pinning.valid()) it->second.pinning.wait();
    }

private:
    struct Slot {
        uint64_t id = 0;
        SharedMemory memory;
        std::shared_future<void> pinning;
    };
    std::map<std::string, Slot> maps_;
    std::shared_future<void> last_pin_;
};

class Worker {
public:
    explicit Worker(int fd) : fd_(fd) {}

    int serve() {
        for (;;) {
            wire::Message m;
            if (wire::receive(fd_, m, std::nullopt) != wire::ReceiveStatus::Ok) return 0;  // the parent is done
            nlohmann::json reply;
            try {
                reply = handle(m);
            } catch (const std::exception& e) {
                for (int fd : m.fds) close(fd);
                reply = {{"error", e.what()}};
            }
            if (!wire::send(fd_, reply)) return 0;
        }
    }

private:
    nlohmann::json handle(const wire::Message& m) {
        const std::string op = m.body.at("op");
        if (op == "load") {
            plugin_ = Plugin::load(m.body.at("file").get<std::string>());
            return {{"identity", identity_to_json(*plugin_)}};
        }
        if (op == "rss") return {{"rss_bytes", detail::resident_bytes()}};
        if (op == "check") {  // spmma check-plugin: one conformance check (the load check runs on a plugin that did not load too)
            if (!plugin_) throw std::runtime_error("no plugin loaded");
            const auto req = conformance::CheckRequest::from_json(m.body.at("request"));
            const auto r = conformance::detail::run_check(*plugin_, req, [&](const std::string& stage) { wire::send(fd_, {{"stage", stage}}); });
            return {{"check", r.to_json()}};
        }
        if (!plugin_ || !plugin_->usable()) throw std::runtime_error("no plugin loaded");
        if (op == "device_count") return {{"count", plugin_->device_count()}};
        if (op == "probe") return {{"device", device_to_json(plugin_->probe(m.body.at("device")))}};
        if (op == "supports") {
            const spmma_problem p = problem_from_json(m.body.at("problem"));
            const auto& k = m.body.at("kernel");
            const std::string kernel = k.is_null() ? "" : k.get<std::string>();
            const auto why = plugin_->unsupported_reason(m.body.at("device"), p, k.is_null() ? nullptr : kernel.c_str());
            return {{"reason", why ? nlohmann::json(*why) : nlohmann::json(nullptr)}};
        }
        if (op == "prepare") {
            const auto& regions = m.body.at("regions");
            if (regions.size() != m.fds.size()) throw std::runtime_error("prepare: one descriptor per region");
            const std::string uuid = m.body.at("device_uuid");
            for (size_t i = 0; i < m.fds.size(); ++i) maps_.get(regions[i].at("name"), regions[i], m.fds[i], uuid, !uuid.empty());
            return {{"prepared", m.fds.size()}};
        }
        if (op == "execute") {
            if (m.fds.size() != 2) throw std::runtime_error("execute needs the operand and result regions");
            const ExecRequest req = ExecRequest::from_json(m.body.at("request"));
            // NOTES: operands are pinned for a GPU (its uploads read them all); results only when
            // all of D comes back (a sampled download is a few kilobytes).
            const auto& o = m.body.at("operands");
            const auto& rs = m.body.at("results");
            uint8_t* ops = maps_.get(o.at("name"), o, m.fds[0], req.device_uuid, true);
            uint8_t* res = maps_.get(rs.at("name"), rs, m.fds[1], req.device_uuid, req.result.count == 0);
            maps_.ready(o.at("name"));
            maps_.ready(rs.at("name"));
            const OperandLayout layout = OperandLayout::from_json(m.body.at("operands").at("layout"));
            const ExecResult r = execute(*plugin_, req, layout.view(ops), res, [&](const std::string& stage) {
                wire::send(fd_, {{"stage", stage}});
            });
            return {{"result", r.to_json()}};
        }
        throw std::runtime_error("unknown request '" + op + "'");
    }

    int fd_;
    std::optional<Plugin> plugin_;
    Mappings maps_;
};

}  // namespace

int run_worker(int fd) { return Worker(fd).serve(); }

}  // namespace spmma

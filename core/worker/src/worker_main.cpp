// The worker side: `spmma worker --fd N` loads one plugin and serves the parent's requests on the
// socket N until it closes. Operands and results stay in the parent's shared memory; the maps are
// kept while their region lives, so a sweep maps each region once.
#include <spmma/core/worker_main.hpp>

#include <spmma/core/wire.hpp>
#include <spmma/core/worker_protocol.hpp>

#include <unistd.h>

#include <future>
#include <map>
#include <optional>
#include <utility>

namespace spmma {
namespace {

// A region the parent sent, mapped here (by the arena's name; a new id replaces the mapping).
class Mappings {
public:
    // The region (mapped once per id), its descriptor `fd` taken (set to -1). With `pin`, it is
    // page-locked for the GPU `uuid` on a thread of its own (registering a large region takes a
    // while, and the parent waits for nothing but its answer); ready() waits for that.
    uint8_t* get(const protocol::Region& region, int& fd, const std::string& uuid, bool pin) {
        const std::string& role = region.name;
        const int taken = std::exchange(fd, -1);
        auto it = maps_.find(role);
        if (it != maps_.end() && it->second.id == region.id) {
            close(taken);
        } else {
            if (it != maps_.end() && it->second.pinning.valid()) it->second.pinning.wait();
            maps_.erase(role);
            Slot& fresh = maps_[role];
            fresh.id = region.id;
            fresh.memory = SharedMemory::map(taken, region.bytes);
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

// The worker: the table of handlers, the plugin and the regions mapped for it.
class Worker {
public:
    Worker(int fd, protocol::Handlers handlers) : fd_(fd), handlers_(std::move(handlers)) {
        handlers_.on<protocol::Load>([this](const protocol::Load::Request& q, protocol::WorkerContext&) {
            plugin_ = Plugin::load(q.file);
            return protocol::Load::Reply{*plugin_};
        });
        handlers_.on<protocol::DeviceCount>([](const protocol::DeviceCount::Request&, protocol::WorkerContext& c) {
            return protocol::DeviceCount::Reply{c.usable().device_count()};
        });
        handlers_.on<protocol::Probe>([](const protocol::Probe::Request& q, protocol::WorkerContext& c) {
            return protocol::Probe::Reply{c.usable().probe(q.device)};
        });
        handlers_.on<protocol::Supports>([](const protocol::Supports::Request& q, protocol::WorkerContext& c) {
            return protocol::Supports::Reply{c.usable().unsupported_reason(q.device, q.problem, q.kernel ? q.kernel->c_str() : nullptr)};
        });
        handlers_.on<protocol::Prepare>([this](const protocol::Prepare::Request& q, protocol::WorkerContext& c) { return prepare(q, c); });
        handlers_.on<protocol::Execute>([this](const protocol::Execute::Request& q, protocol::WorkerContext& c) { return execute(q, c); });
    }

    int serve() {
        for (;;) {
            wire::Message m;
            if (wire::receive(fd_, m, std::nullopt) != wire::ReceiveStatus::Ok) return 0;  // the parent is done
            protocol::WorkerContext c{plugin_, m.fds, [this](const std::string& stage) { wire::send(fd_, protocol::stage_message(stage)); }};
            const nlohmann::json reply = handlers_.answer(m.body, c);
            for (int fd : m.fds)
                if (fd >= 0) close(fd);  // those no handler kept
            if (!wire::send(fd_, reply)) return 0;
        }
    }

private:
    protocol::Prepare::Reply prepare(const protocol::Prepare::Request& q, protocol::WorkerContext& c) {
        c.usable();
        if (q.regions.size() != c.fds.size()) throw std::runtime_error("prepare: one descriptor per region");
        for (size_t i = 0; i < c.fds.size(); ++i) maps_.get(q.regions[i], c.fds[i], q.device_uuid, !q.device_uuid.empty());
        return {q.regions.size()};
    }

    protocol::Execute::Reply execute(const protocol::Execute::Request& q, protocol::WorkerContext& c) {
        const Plugin& plugin = c.usable();
        if (c.fds.size() != 2) throw std::runtime_error("execute needs the operand and result regions");
        const ExecRequest& req = q.request;
        // NOTES: operands are pinned for a GPU (its uploads read them all); results only when
        // all of D comes back (a sampled download is a few kilobytes).
        uint8_t* ops = maps_.get(q.operands, c.fds[0], req.device_uuid, true);
        uint8_t* res = maps_.get(q.results, c.fds[1], req.device_uuid, req.result.count == 0);
        maps_.ready(q.operands.name);
        maps_.ready(q.results.name);
        return {spmma::execute(plugin, req, q.layout.view(ops), res, c.stage)};
    }

    int fd_;
    protocol::Handlers handlers_;
    std::optional<Plugin> plugin_;
    Mappings maps_;
};

}  // namespace

int run_worker(int fd, protocol::Handlers handlers) { return Worker(fd, std::move(handlers)).serve(); }

}  // namespace spmma

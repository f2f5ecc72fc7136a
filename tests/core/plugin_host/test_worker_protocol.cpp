// The worker protocol (worker_protocol.hpp): a request's message, its reply read back, an error
// answer, launch times that are not finite, and the worker's handler table.
#include <spmma/core/worker_protocol.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace spmma;

namespace {

// What the other end reads: the message as JSON text and back.
nlohmann::json over_the_wire(const nlohmann::json& j) { return nlohmann::json::parse(j.dump()); }

}  // namespace

TEST_CASE("a request's message is its fields with its name as op", "[protocol]") {
    CHECK(protocol::request<protocol::Probe>({3}) == nlohmann::json{{"op", "probe"}, {"device", 3}});
    CHECK(protocol::request<protocol::DeviceCount>() == nlohmann::json{{"op", "device_count"}});
    const auto supports = protocol::request<protocol::Supports>({1, spmma_problem{}, std::nullopt});
    CHECK(supports.at("kernel").is_null());
    CHECK(protocol::request<protocol::Supports>({1, spmma_problem{}, "tiled"}).at("kernel") == "tiled");
}

TEST_CASE("a reply is read back field for field, an error answer is RequestFailed with the worker's message", "[protocol]") {
    DeviceInfo d;
    d.runnable = true;
    d.name = "host";
    d.arch = "x86_64";
    d.uuid = "GPU-1";
    d.sm_count = 132;
    d.mem_bus_bits = 5120;
    const auto back = protocol::reply<protocol::Probe>(over_the_wire(nlohmann::json(protocol::Probe::Reply{d}))).device;
    CHECK(back.runnable);
    CHECK(back.name == "host");
    CHECK(back.arch == "x86_64");
    CHECK(back.uuid == "GPU-1");
    CHECK(back.sm_count == 132);
    CHECK(back.mem_bus_bits == 5120);
    CHECK(!protocol::reply<protocol::Supports>(nlohmann::json{{"reason", nullptr}}).reason);
    CHECK(protocol::reply<protocol::Supports>(nlohmann::json{{"reason", "k % 64"}}).reason == "k % 64");
    CHECK_THROWS_MATCHES(protocol::reply<protocol::Probe>({{"error", "no plugin loaded"}}), protocol::RequestFailed,
                         Catch::Message("no plugin loaded"));
}

TEST_CASE("a plugin's identity keeps its fields, its file and its kernels on the way back", "[protocol]") {
    PluginIdentity id;
    id.file = "/plugins/spmma-x.so";
    id.state = PluginState::AbiMismatch;
    id.error = "ABI 2.0";
    id.abi_major = 2;
    id.name = "x";
    id.flags = 3;
    id.kernels = {{"a", "first"}, {"b", "second"}};
    const auto back = protocol::reply<protocol::Load>(over_the_wire(nlohmann::json(protocol::Load::Reply{id}))).identity;
    CHECK(back.file == id.file);
    CHECK(back.state == PluginState::AbiMismatch);
    CHECK(back.error == "ABI 2.0");
    CHECK(back.abi_major == 2);
    CHECK(back.flags == 3);
    REQUIRE(back.kernels.size() == 2);
    CHECK(back.kernels[1].name == "b");
    CHECK(back.kernels[1].description == "second");
}

TEST_CASE("launch times that are not finite cross the wire as nan, inf and -inf and come back as themselves", "[protocol]") {
    ExecResult r;
    r.ok = true;
    r.kernel = "k";
    const double inf = std::numeric_limits<double>::infinity();
    r.times_ms = {0.25, std::numeric_limits<double>::quiet_NaN(), inf, -inf};
    r.lost = true;  // the parent's own: never sent
    const nlohmann::json message = nlohmann::json(protocol::Execute::Reply{r});
    CHECK(message.at("result").at("times_ms") == nlohmann::json{0.25, "nan", "inf", "-inf"});
    const ExecResult back = protocol::reply<protocol::Execute>(over_the_wire(message)).result;
    REQUIRE(back.times_ms.size() == 4);
    CHECK(back.times_ms[0] == 0.25);
    CHECK(std::isnan(back.times_ms[1]));
    CHECK(back.times_ms[2] == inf);
    CHECK(back.times_ms[3] == -inf);
    CHECK(back.ok);
    CHECK(back.kernel == "k");
    CHECK(!back.lost);
    nlohmann::json bad = over_the_wire(message);
    bad["result"]["times_ms"] = nlohmann::json::array({"fast"});
    CHECK_THROWS_WITH(protocol::reply<protocol::Execute>(bad), Catch::Contains("'fast'"));
}

TEST_CASE("a run's request crosses with its problem, timing policy and result layout", "[protocol]") {
    protocol::Execute::Request q;
    q.request.device = 1;
    q.request.device_uuid = "GPU-1";
    q.request.problem.m = 64;
    q.request.problem.alpha = 0.5f;
    q.request.kernel = "tiled";
    q.request.warmup = 2;
    q.request.iterations = 7;
    q.request.timing.max_noise = 0.01;
    q.request.timing.flush_l2 = true;
    q.request.result.count = 9;
    q.operands = {"operands", 4, 4096};
    q.layout.b = 128;
    q.layout.sizes.c = 256;
    q.results = {"results", 5, 1024};
    const nlohmann::json message = over_the_wire(protocol::request<protocol::Execute>(q));
    CHECK(message.at("op") == "execute");
    const auto back = message.get<protocol::Execute::Request>();
    CHECK(back.request.device == 1);
    CHECK(back.request.device_uuid == "GPU-1");
    CHECK(back.request.problem.m == 64);
    CHECK(back.request.problem.alpha == 0.5f);
    CHECK(back.request.problem.struct_size == sizeof(spmma_problem));
    CHECK(back.request.kernel == "tiled");
    CHECK(back.request.warmup == 2);
    CHECK(back.request.iterations == 7);
    CHECK(back.request.timing.max_noise == 0.01);
    CHECK(back.request.timing.flush_l2);
    CHECK(back.request.result.count == 9);
    CHECK(back.operands.name == "operands");
    CHECK(back.operands.id == 4);
    CHECK(back.layout.b == 128);
    CHECK(back.layout.sizes.c == 256);
    CHECK(back.results.bytes == 1024);
}

TEST_CASE("the handler table answers what is registered, an unknown request or a throwing handler with an error", "[protocol]") {
    protocol::Handlers h;
    h.on<protocol::Probe>([](const protocol::Probe::Request& q, protocol::WorkerContext&) {
        if (q.device < 0) throw std::runtime_error("no such device");
        DeviceInfo d;
        d.name = "device " + std::to_string(q.device);
        return protocol::Probe::Reply{d};
    });
    std::optional<Plugin> none;
    std::vector<int> fds;
    protocol::WorkerContext c{none, fds, {}};
    CHECK(protocol::reply<protocol::Probe>(h.answer(protocol::request<protocol::Probe>({2}), c)).device.name == "device 2");
    CHECK(h.answer(protocol::request<protocol::Probe>({-1}), c) == nlohmann::json{{"error", "no such device"}});
    CHECK(h.answer(protocol::request<protocol::DeviceCount>(), c) == nlohmann::json{{"error", "unknown request 'device_count'"}});
    CHECK_THROWS_AS(h.on<protocol::Probe>([](const protocol::Probe::Request&, protocol::WorkerContext&) { return protocol::Probe::Reply{}; }),
                    std::logic_error);
}

TEST_CASE("a handler asking for the plugin where none loaded is told so", "[protocol]") {
    std::optional<Plugin> none;
    std::vector<int> fds;
    const protocol::WorkerContext c{none, fds, {}};
    CHECK_THROWS_WITH(c.loaded(), "no plugin loaded");
    CHECK_THROWS_WITH(c.usable(), "no plugin loaded");
}

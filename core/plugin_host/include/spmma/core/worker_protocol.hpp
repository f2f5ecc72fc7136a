// The worker protocol: every request spmma sends to a worker process (`spmma worker --fd N`), its
// name, its message forms and its reply, declared here once, and the table of handlers the worker
// answers them with. Framing and descriptors: endpoints' wire.hpp; the parent's end:
// endpoint.cpp and conformance_suite.cpp; the worker's end: worker_main.cpp.
//
// A request is a JSON object {"op": NAME, ...the fields of NAME's Request}. The worker answers with
// the fields of NAME's Reply, or {"error": MESSAGE}; before that it may send any number of
// {"stage": CALL}, the plugin call it enters next, so that a crash or a hang names the call.
// Both ends are the same spmma binary: the forms change together and carry no version.
#pragma once

#include <spmma/core/execution.hpp>
#include <spmma/core/operand_set.hpp>
#include <spmma/core/plugins.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// ---- forms of types declared elsewhere ----------------------------------------------------

namespace nlohmann {

// std::optional<T> as null or T's form.
template <class T>
struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& v) { j = v ? json(*v) : json(nullptr); }
    static void from_json(const json& j, std::optional<T>& v) { v = j.is_null() ? std::nullopt : std::optional<T>(j.get<T>()); }
};

// The ABI's problem as problem_to_json spells it (the problem's own keys).
template <>
struct adl_serializer<spmma_problem> {
    static void to_json(json& j, const spmma_problem& p) { j = spmma::problem_to_json(p); }
    static void from_json(const json& j, spmma_problem& p) { p = spmma::problem_from_json(j); }
};

}  // namespace nlohmann

namespace spmma {

// NOTES: JSON has no NaN or infinity (nlohmann writes them as null, which the reader then refuses),
// yet a plugin may report such a time. On the wire a non-finite time is the string "nan", "inf"
// or "-inf", as in the records, so a run in a worker reports what the same run in-process does.
inline void to_json(nlohmann::json& j, const LaunchTimes& times) {
    j = nlohmann::json::array();
    for (double t : times) {
        if (std::isfinite(t)) j.push_back(t);
        else j.push_back(std::isnan(t) ? "nan" : t > 0 ? "inf" : "-inf");
    }
}
inline void from_json(const nlohmann::json& j, LaunchTimes& times) {
    times.clear();
    for (const auto& v : j) {
        if (v.is_number()) {
            times.push_back(v.get<double>());
            continue;
        }
        const std::string s = v.get<std::string>();
        if (s == "nan") times.push_back(std::numeric_limits<double>::quiet_NaN());
        else if (s == "inf" || s == "-inf") times.push_back((s == "inf" ? 1 : -1) * std::numeric_limits<double>::infinity());
        else throw std::invalid_argument("a launch time '" + s + "' is neither a number nor nan, inf or -inf");
    }
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(KernelInfo, name, description)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PluginIdentity, file, sha256, state, error, abi_major, abi_minor, name, vendor, version, target,
                                   description, flags, kernels)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeviceInfo, runnable, name, arch, driver, reason, uuid, pci_bus_id, sm_count, sm_clock_khz, mem_clock_khz,
                                   mem_bus_bits)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TimingPolicy, min_time_s, max_noise, max_time_s, flush_l2)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ResultLayout, d_offset, d_bytes, indices_offset, values_offset, count)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ExecRequest, device, device_uuid, problem, kernel, warmup, iterations, timing, result)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CallPhases, create, upload, run, download, destroy, prepare_in_upload)
// `lost` stays behind: only the parent's end sets it.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ExecResult, ok, stage, error, status, kernel, times_ms, launches_warmup, phases, notes, clocks,
                                   elements_only, l2_flushed, timing_note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OperandSizes, a_values, a_indices, b, c, scale_a, scale_b, row_scale, col_scale, bias)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OperandLayout, sizes, a_values, a_indices, b, c, scale_a, scale_b, row_scale, col_scale, bias, total)

}  // namespace spmma

namespace spmma::protocol {

// A shared memory region sent along with a request, its descriptor in the request's descriptors.
// The worker maps it once per id (by the arena's name: a new id replaces the mapping).
struct Region {
    std::string name;
    uint64_t id = 0;
    size_t bytes = 0;
    NLOHMANN_DEFINE_TYPE_INTRUSIVE(Region, name, id, bytes)
};
inline Region region_of(const Arena& a) { return {a.name(), a.id(), a.size()}; }

// ---- the requests -------------------------------------------------------------------------

// Loads the plugin file; answers what it is, usable or not.
struct Load {
    static constexpr std::string_view name = "load";
    static constexpr std::string_view stage = "loading";  // where a worker lost before the plugin answers is
    struct Request {
        std::string file;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Request, file)
    };
    struct Reply {
        PluginIdentity identity;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Reply, identity)
    };
};

struct DeviceCount {
    static constexpr std::string_view name = "device_count";
    struct Request {};
    struct Reply {
        int count = 0;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Reply, count)
    };
};

struct Probe {
    static constexpr std::string_view name = "probe";
    struct Request {
        int device = 0;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Request, device)
    };
    struct Reply {
        DeviceInfo device;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Reply, device)
    };
};

// Whether `kernel` (nullopt: the plugin's choice) supports the problem on the device.
struct Supports {
    static constexpr std::string_view name = "supports";
    struct Request {
        int device = 0;
        spmma_problem problem{};
        std::optional<std::string> kernel;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Request, device, problem, kernel)
    };
    struct Reply {
        std::optional<std::string> reason;  // nullopt: supported
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Reply, reason)
    };
};

// Maps the regions ahead of the first run, page-locked for the GPU `device_uuid` unless it is
// empty. Descriptors: one per region, in their order.
struct Prepare {
    static constexpr std::string_view name = "prepare";
    struct Request {
        std::vector<Region> regions;
        std::string device_uuid;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Request, regions, device_uuid)
    };
    struct Reply {
        size_t prepared = 0;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Reply, prepared)
    };
};

// One run (execution.hpp). Descriptors: the operand region, then the result region.
struct Execute {
    static constexpr std::string_view name = "execute";
    struct Request {
        ExecRequest request;
        Region operands;
        OperandLayout layout;
        Region results;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Request, request, operands, layout, results)
    };
    struct Reply {
        ExecResult result;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Reply, result)
    };
};

// One conformance check (spmma check-plugin), on a plugin that loaded or not: the request and the
// result in the forms of conformance.hpp's CheckRequest and CheckResult.
struct Check {
    static constexpr std::string_view name = "check";
    struct Request {
        nlohmann::json request;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Request, request)
    };
    struct Reply {
        nlohmann::json check;
        NLOHMANN_DEFINE_TYPE_INTRUSIVE(Reply, check)
    };
};

// ---- the parent's end ---------------------------------------------------------------------

// The worker answered a request with {"error": ...} (the message is the worker's).
class RequestFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The message that asks for request R.
template <class R>
nlohmann::json request(const typename R::Request& q = {}) {
    nlohmann::json body = nlohmann::json::object();
    if constexpr (!std::is_empty_v<typename R::Request>) body = q;
    body["op"] = R::name;
    return body;
}

// R's reply in a worker's answer; RequestFailed when the worker answered with an error.
template <class R>
typename R::Reply reply(const nlohmann::json& answer) {
    if (answer.contains("error")) throw RequestFailed(answer.at("error").get<std::string>());
    return answer.get<typename R::Reply>();
}

// The stage a {"stage": CALL} message moves on to; nullopt for a reply.
inline std::optional<std::string> stage_of(const nlohmann::json& message) {
    if (!message.contains("stage")) return std::nullopt;
    return message.at("stage").get<std::string>();
}

// ---- the worker's end ---------------------------------------------------------------------

inline nlohmann::json stage_message(const std::string& call) { return {{"stage", call}}; }

// What a handler has at hand in the worker.
struct WorkerContext {
    std::optional<Plugin>& plugin;  // the plugin loaded here, usable or not
    std::vector<int>& fds;          // the request's descriptors: a handler keeping one sets it to -1; the rest are closed after it
    StageListener stage;            // sends {"stage": CALL} to the parent

    // The plugin loaded here (usable or not), else std::runtime_error.
    const Plugin& loaded() const {
        if (!plugin) throw std::runtime_error("no plugin loaded");
        return *plugin;
    }
    // The plugin, usable, else std::runtime_error.
    const Plugin& usable() const {
        if (!plugin || !plugin->usable()) throw std::runtime_error("no plugin loaded");
        return *plugin;
    }
};

// Each request name and how the worker answers it. The worker registers the runs' requests; the
// conformance suite registers "check" (the worker does not know the checks).
class Handlers {
public:
    template <class R>
    using Handler = std::function<typename R::Reply(const typename R::Request&, WorkerContext&)>;

    template <class R>
    void on(Handler<R> handle) {
        const auto [it, fresh] = table_.try_emplace(std::string(R::name), [handle](const nlohmann::json& body, WorkerContext& c) {
            typename R::Request q{};
            if constexpr (!std::is_empty_v<typename R::Request>) q = body.get<typename R::Request>();
            return nlohmann::json(handle(q, c));
        });
        if (!fresh) throw std::logic_error("two handlers for the worker request '" + it->first + "'");
    }

    // The answer to one request: the handler's reply, or {"error": ...} for an unknown request or
    // a handler that threw.
    nlohmann::json answer(const nlohmann::json& body, WorkerContext& c) const {
        try {
            const std::string op = body.at("op");
            const auto it = table_.find(op);
            if (it == table_.end()) throw std::runtime_error("unknown request '" + op + "'");
            return it->second(body, c);
        } catch (const std::exception& e) {
            return {{"error", e.what()}};
        }
    }

private:
    std::map<std::string, std::function<nlohmann::json(const nlohmann::json&, WorkerContext&)>, std::less<>> table_;
};

}  // namespace spmma::protocol

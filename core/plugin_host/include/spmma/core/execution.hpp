// One (problem, plugin, kernel) run as plugin calls: create, upload, the timing loop, download of
// D (all of it, or only the elements a sampled check reads), destroy; each call's wall time as a
// phase. The same code runs inside a worker process (worker_main.hpp) and, with --in-process, in
// spmma itself. Everything crossing between the two is plain data; its JSON forms are the worker
// protocol's (worker_protocol.hpp).
#pragma once

#include <spmma/core/clocks.hpp>
#include <spmma/core/job.hpp>
#include <spmma/core/plugins.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spmma {

// Where the results go: D's bytes (download), or the values of `count` elements whose indices lie
// at `indices_offset` (download_elements when the plugin has it, else all of D and a pick).
struct ResultLayout {
    size_t d_offset = 0, d_bytes = 0;  // all of D (also the fallback of a sampled download)
    size_t indices_offset = 0, values_offset = 0;
    size_t count = 0;                  // 0: download all of D
};

struct ExecRequest {
    int device = 0;
    std::string device_uuid;           // whose clocks are sampled (empty: a host device, none)
    spmma_problem problem{};
    std::string kernel;                // empty: the plugin's choice
    int warmup = 0, iterations = 1;
    TimingPolicy timing;
    ResultLayout result;
};

// Wall time of each plugin call, in milliseconds.
struct CallPhases {
    double create = 0, upload = 0, run = 0, download = 0, destroy = 0;
    double prepare_in_upload = 0;  // the plugin's own "prepare_ms" (packing, algorithm search) inside upload
};

// Each timed launch's milliseconds as the plugin reported them, NaN or infinity included (a type of
// its own for the wire, which spells those as strings: worker_protocol.hpp).
struct LaunchTimes : std::vector<double> {
    using std::vector<double>::vector;
};

struct ExecResult {
    bool ok = false;
    std::string stage;                 // failed: the call that failed
    std::string error;                 // failed: the call's message
    spmma_status status = SPMMA_OK;
    std::string kernel;                // what the handle ran
    LaunchTimes times_ms;              // every timed launch
    int launches_warmup = 0;
    CallPhases phases;
    nlohmann::json notes;              // describe_handle's object (null when the plugin has none)
    nlohmann::json clocks;             // ClockSummary::to_json() (null for host devices)
    bool elements_only = false;        // the result holds the sampled elements, not all of D
    bool l2_flushed = false;
    std::string timing_note;           // e.g. "noise 2.1 % above --max-noise 1 % after --max-time 10 s"
    bool lost = false;                 // the worker died or hung (error says how); never sent by a worker
};

// Told the stage before each plugin call (a worker reports it, so a crash names the call).
using StageListener = std::function<void(const std::string& stage)>;

// Runs the request on a loaded plugin with the operands in `ops` and results under `result_base`.
// Never throws for a plugin's failure (the result says it).
ExecResult execute(const Plugin& plugin, const ExecRequest& req, const spmma_operands& ops, uint8_t* result_base,
                   const StageListener& stage = {});

nlohmann::json problem_to_json(const spmma_problem& p);
spmma_problem problem_from_json(const nlohmann::json& j);

}  // namespace spmma

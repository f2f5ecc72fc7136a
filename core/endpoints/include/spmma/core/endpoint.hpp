// A plugin as the runner uses it, wherever it runs: in a worker process (the default: a plugin
// that crashes, aborts, exits or hangs becomes a record, and the sweep goes on) or in spmma
// itself (--in-process, for gdb and Nsight). The plugin cannot tell the difference.
#pragma once

#include <spmma/core/execution.hpp>
#include <spmma/core/operand_set.hpp>
#include <spmma/core/plugins.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spmma {

// A plugin call that did not come back: the worker died or passed its time limit.
class WorkerLost : public std::runtime_error {
public:
    WorkerLost(const std::string& message, std::string stage = {}) : std::runtime_error(message), stage(std::move(stage)) {}
    std::string stage;  // the plugin call it was in
};

class PluginEndpoint {
public:
    virtual ~PluginEndpoint() = default;
    virtual const PluginIdentity& identity() const = 0;
    // The calls of the ABI the runner makes. probe, device_count and unsupported_reason throw
    // WorkerLost when a worker died in them (it is restarted for the next call).
    virtual int device_count() = 0;
    virtual DeviceInfo probe(int device) = 0;
    // Asks for probe(device) without waiting for the answer, so that workers start their drivers
    // side by side; the next probe(device) takes the answer (no-op in-process).
    virtual void begin_probe(int) {}
    virtual std::optional<std::string> unsupported_reason(int device, const spmma_problem& p, const char* kernel) = 0;
    // A whole run (execution.hpp); a lost worker becomes a failed result with stage and reason
    // ("crashed: SIGSEGV in run", "timeout after 60 s in run", "exited with 0 in create").
    virtual ExecResult execute(const ExecRequest& req, const Exchange& ex, double timeout_s) = 0;
    // Maps (and, for a GPU with this UUID, page-locks) the arenas ahead of the first run, so that
    // a worker does it beside the runner's generation rather than inside a timed phase. A worker
    // answers later; the next call waits for it. Failure only means the first run maps them.
    virtual void prepare(const std::vector<Arena*>& arenas, const std::string& device_uuid) = 0;
    // "worker" or "in-process".
    virtual const char* isolation() const = 0;
    // Starts over after a device error that may have poisoned the plugin's context (no-op in-process).
    virtual void restart() {}
    // No request follows: a worker starts its exit now, so that the workers of a run end side by
    // side rather than one after the other as they are destroyed (no-op in-process).
    virtual void close_requests() {}
};

// Ends every worker process this spmma started, at once (SIGKILL), and starts no more: a call in
// flight returns as lost. For a run being interrupted (SIGINT, SIGTERM); safe from any thread.
void end_all_workers();

// close_requests on each of `plugins`.
void close_requests(const std::vector<std::unique_ptr<PluginEndpoint>>& plugins);

struct EndpointOptions {
    bool in_process = false;
    std::filesystem::path worker_exe;  // the spmma binary (its `worker` command)
    double load_timeout_s = 60;        // loading a plugin, probe, supports
};

// Every plugin file in `dirs` (plugin_files order), loaded as the options say, duplicates refused.
// Workers are started together, so slow starts (CUDA init) overlap.
std::vector<std::unique_ptr<PluginEndpoint>> open_plugins(const std::vector<std::filesystem::path>& dirs, const EndpointOptions& o);

// These plugin files, loaded as the options say, duplicates refused (the devices after the first
// of --devices: only the files the run uses).
std::vector<std::unique_ptr<PluginEndpoint>> open_plugin_files(const std::vector<std::filesystem::path>& files, const EndpointOptions& o);

// The usable endpoint named `name`, or nullptr.
PluginEndpoint* find_endpoint(const std::vector<std::unique_ptr<PluginEndpoint>>& eps, const std::string& name);

}  // namespace spmma

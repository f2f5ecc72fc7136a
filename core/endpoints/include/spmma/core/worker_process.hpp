// Internal to the core (endpoints, conformance): one worker process as its parent sees it:
// spawned from the spmma binary, spoken to over a socket (wire.hpp), its stdout and stderr read
// through a pipe and forwarded line by line, and, when a call does not come back, the way it
// ended put into words.
#pragma once

#include <spmma/core/wire.hpp>

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace spmma::detail {

class WorkerProcess {
public:
    // Spawns `exe worker --fd 3`; its output lines are forwarded to stderr after `label`.
    WorkerProcess(const std::filesystem::path& exe, std::string label);
    ~WorkerProcess();
    WorkerProcess(const WorkerProcess&) = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;

    // Sends a request (stage names the plugin call it is, for a failure's message).
    void send(const nlohmann::json& body, const std::vector<int>& fds, const std::string& stage);
    // The reply to the last request. Messages {"stage": S} on the way move the stage on and
    // restart the time limit. Throws WorkerLost with "crashed: SIGSEGV in run" and the like.
    nlohmann::json await(double timeout_s, const std::function<void(const std::string&)>& on_stage = {});
    nlohmann::json call(const nlohmann::json& body, const std::string& stage, double timeout_s, const std::vector<int>& fds = {}) {
        send(body, fds, stage);
        return await(timeout_s);
    }
    bool alive() const { return pid_ > 0; }
    // Ends the requests: the worker sees its socket close and exits; the destructor reaps it.
    void close_requests();

private:
    [[noreturn]] void lost(const std::string& how);
    std::string reap(double wait_s);  // waits for the process; "crashed: SIGSEGV" / "exited with 0"
    void drain(int fd);               // reads the output pipe, forwards whole lines, keeps a tail

    std::string label_;
    pid_t pid_ = -1;
    int sock_ = -1, out_ = -1;
    std::string stage_, partial_, tail_;
};

}  // namespace spmma::detail

// Messages between spmma and its worker processes: JSON objects over a Unix stream socket, each
// framed by its byte count, optionally carrying file descriptors (the shared operand and result
// memory) as SCM_RIGHTS. Sends never raise SIGPIPE; receives wait against a deadline.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spmma::wire {

using Deadline = std::optional<std::chrono::steady_clock::time_point>;  // nullopt: wait forever

struct Message {
    nlohmann::json body;
    std::vector<int> fds;  // received descriptors, owned by the receiver
};

// False when the peer is gone.
bool send(int socket, const nlohmann::json& body, const std::vector<int>& fds = {});

enum class ReceiveStatus { Ok, Closed, TimedOut, Bad };

// Waits for one message. `idle` is called with any other descriptor in `watch` that becomes
// readable while waiting (the worker's stderr pipe), so its output is forwarded as it comes.
// Anything but Ok leaves `out` without descriptors: those that came with a rejected or cut-off
// message are closed.
ReceiveStatus receive(int socket, Message& out, Deadline deadline, const std::vector<int>& watch = {},
                      const std::function<void(int fd)>& idle = {});

}  // namespace spmma::wire

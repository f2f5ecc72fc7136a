// The worker end of the socket: what `spmma worker --fd N` runs in the worker process.
#pragma once

#include <spmma/core/worker_protocol.hpp>

namespace spmma {

// Serves one plugin over the socket `fd` until it closes: the requests of a run
// (worker_protocol.hpp), and those `handlers` holds already (the conformance suite's Check).
int run_worker(int fd, protocol::Handlers handlers = {});

}  // namespace spmma

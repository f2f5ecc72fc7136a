// The worker end of the socket: what `spmma worker --fd N` runs in the worker process.
#pragma once

namespace spmma {

// Serves one plugin over the socket `fd` until it closes.
int run_worker(int fd);

}  // namespace spmma

// Internal to the core: the resident memory of this process (the worker's, for `rss` requests and
// the conformance suite's leak check).
#pragma once

#include <cstddef>

namespace spmma::detail {

// Bytes of this process resident in memory now (/proc/self/statm); 0 where it cannot be read.
size_t resident_bytes();

}  // namespace spmma::detail

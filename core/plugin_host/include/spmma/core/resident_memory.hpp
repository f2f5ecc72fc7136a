// Internal to the core: the resident memory of this process (the conformance suite's leak check
// reads it in the worker).
#pragma once

#include <cstddef>

namespace spmma::detail {

// Bytes of this process resident in memory now (/proc/self/statm); 0 where it cannot be read.
size_t resident_bytes();

}  // namespace spmma::detail

// The host's steady clock in milliseconds: the searches' and the plan choice's own times and a
// GEMM's prepare_ms.
#pragma once

#include <chrono>

namespace spmma_baseline {

inline double host_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace spmma_baseline

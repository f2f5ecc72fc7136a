// Which devices the sm100a plugin's embedded code runs on, and what it says about the others.
// NOTES: the cubins are built for sm_100a only. Architecture-specific ('a') code runs on its own
// compute capability and no other -- not on sm_103 (B300) or sm_110 (Thor), whose tcgen05 needs
// code built for sm_103a / sm_110a, and not on sm_120 (no tensor memory) -- so only 10.0 runs it.
#pragma once

#include <string>

namespace spmma_sm100a {

// Empty when a device of compute capability major.minor runs the plugin's code, else why not.
inline std::string device_reason(int major, int minor) {
    if (major == 10 && minor == 0) return {};
    return "built, needs sm_100a (B200/GB200); device is sm_" + std::to_string(major * 10 + minor);
}

}  // namespace spmma_sm100a

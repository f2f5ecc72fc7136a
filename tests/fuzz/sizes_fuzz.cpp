// Fuzz target: size lists and ranges ("4096", "1000,2000", "1024:8192:*2"). Any input gives
// sizes of 1 or more, at most 100000 of them (each range's values increasing), or
// std::invalid_argument; nothing else may happen.
#include <spmma/core/sizes.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto sizes = spmma::parse_size_list(text);
        if (sizes.empty() || sizes.size() > 100000 + 1) std::abort();
        for (int64_t v : sizes)
            if (v < 1) std::abort();
    } catch (const std::invalid_argument&) {
    }
    return 0;
}

// Size lists as users write them on the command line and in workload files:
// "4096", "1000,2000", "1024:4096:1024" (inclusive, step), "256:8192:*2" (geometric), and
// comma-separated mixtures of these.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace spmma {

// Throws std::invalid_argument naming the bad part.
std::vector<int64_t> parse_size_list(std::string_view text);

// One range "start:end:step" or "start:end:*factor".
std::vector<int64_t> parse_size_range(std::string_view text);

}  // namespace spmma

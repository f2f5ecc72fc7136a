#include <spmma/core/resident_memory.hpp>

#include <unistd.h>

#include <fstream>

namespace spmma::detail {

size_t resident_bytes() {
    std::ifstream in("/proc/self/statm");
    size_t pages = 0, resident = 0;
    in >> pages >> resident;
    return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace spmma::detail

#include <spmma/isa/bulk_copy.hpp>

#include <cstring>

namespace spmma::isa {

std::vector<std::string> bulk_load_1d(SharedMemory& smem, uint32_t dst, const uint8_t* src, size_t bytes) {
    std::vector<std::string> problems;
    if (bytes % 16 != 0) problems.push_back("bulk copy: " + std::to_string(bytes) + " bytes is not a multiple of 16");
    if (dst % 16 != 0) problems.push_back("bulk copy: destination " + std::to_string(dst) + " is not 16-byte aligned");
    if (static_cast<uint64_t>(dst) + bytes > SharedMemory::kBytes)
        problems.push_back("bulk copy: " + std::to_string(bytes) + " bytes at " + std::to_string(dst) +
                           " run past shared memory");
    if (problems.empty()) smem.write(dst, src, bytes);
    return problems;
}

}  // namespace spmma::isa

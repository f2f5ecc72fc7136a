// Model of the tiled TMA load (tma.hpp).
#include <spmma/isa/tma.hpp>

#include <cstring>

namespace spmma::isa {

std::vector<std::string> tma_load_2d(SharedMemory& smem, uint32_t dst, const TmaTensor& t, int box_cols, int box_rows,
                                     int64_t c0, int64_t r0, Swizzle swizzle) {
    std::vector<std::string> problems;
    const int eb = t.elem_bytes;
    const uint32_t row_bytes = static_cast<uint32_t>(box_cols * eb);
    const uint32_t span = static_cast<uint32_t>(swizzle_row_bytes(swizzle));
    if (swizzle == Swizzle::B128_Atom32) problems.push_back("tma: the 128B swizzle with 32B atomicity is not modelled");
    // cuTensorMapEncodeTiled: with a swizzle, the inner box dimension in bytes must not exceed
    // the swizzle span; the copy's destination is 128-byte aligned, a swizzled one to its pattern.
    if (swizzle != Swizzle::None && row_bytes > span)
        problems.push_back("tma: box rows of " + std::to_string(row_bytes) + " bytes exceed the " + name(swizzle) +
                           " swizzle span");
    if (dst % 128 != 0 || (swizzle != Swizzle::None && dst % (8 * span) != 0))
        problems.push_back("tma: destination " + std::to_string(dst) + " is not aligned to the box's swizzle pattern");
    if (static_cast<uint64_t>(dst) + static_cast<uint64_t>(row_bytes) * static_cast<uint64_t>(box_rows) > SharedMemory::kBytes)
        problems.push_back("tma: the box of " + std::to_string(box_rows) + " rows of " + std::to_string(row_bytes) +
                           " bytes at " + std::to_string(dst) + " runs past shared memory");
    if (!problems.empty()) return problems;
    const int64_t tensor_row_bytes = t.cols * eb;
    for (int r = 0; r < box_rows; ++r) {
        const int64_t gr = r0 + r;
        for (uint32_t b = 0; b < row_bytes; ++b) {
            const int64_t gc = c0 + static_cast<int64_t>(b) / eb;
            const bool in = gr >= 0 && gr < t.rows && gc >= 0 && gc < t.cols;
            const uint32_t addr = swizzle_address(swizzle, dst + static_cast<uint32_t>(r) * row_bytes + b);
            smem.bytes[addr] = in ? t.data[gr * tensor_row_bytes + c0 * eb + b] : uint8_t{0};
        }
    }
    return problems;
}

}  // namespace spmma::isa

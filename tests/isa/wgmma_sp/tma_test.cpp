// The tiled TMA load model (spmma/isa/tma.hpp): bytes land row after row from the
// destination, elements outside the tensor read as zero, and a swizzled box puts each 16-byte
// chunk where the matrix descriptors of the same swizzle read it (element (r, c) of a K-major
// operand through OperandLayout). Copies a tensor map or the hardware would reject are refused.
#include <spmma/isa/smem.hpp>
#include <spmma/isa/tma.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace spmma::isa;

namespace {

// A rows x cols tensor of 2-byte elements whose element (r, c) holds 1000 r + c + 1.
std::vector<uint8_t> numbered(int rows, int cols) {
    std::vector<uint8_t> t(static_cast<size_t>(rows * cols * 2));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const int v = 1000 * r + c + 1;
            t[static_cast<size_t>((r * cols + c) * 2)] = static_cast<uint8_t>(v);
            t[static_cast<size_t>((r * cols + c) * 2 + 1)] = static_cast<uint8_t>(v >> 8);
        }
    return t;
}

}  // namespace

TEST_CASE("tma: an unswizzled box is the tensor's rows back to back, zeros past the tensor's edges", "[tma]") {
    const std::vector<uint8_t> t = numbered(5, 7);
    const TmaTensor tensor{t.data(), 7, 5, 2};
    SharedMemory smem;
    // A 4 x 3 box from (column 5, row 3): columns 7.. and rows 5.. are outside.
    REQUIRE(tma_load_2d(smem, 256, tensor, 4, 3, 5, 3, Swizzle::None).empty());
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) {
            const int gr = 3 + r, gc = 5 + c;
            const uint32_t want = gr < 5 && gc < 7 ? static_cast<uint32_t>(1000 * gr + gc + 1) : 0u;
            INFO("box (" << r << ", " << c << ")");
            CHECK(smem.load(256 + static_cast<uint32_t>((r * 4 + c) * 2), 2) == want);
        }
}

TEST_CASE("tma: a 128-byte swizzled box reads back through a K-major 128B-swizzle operand layout", "[tma]") {
    // 16 rows of 64 two-byte elements (128 bytes a row), as a B stage of the sm90a kernels.
    const std::vector<uint8_t> t = numbered(16, 64);
    const TmaTensor tensor{t.data(), 64, 16, 2};
    SharedMemory smem;
    REQUIRE(tma_load_2d(smem, 2048, tensor, 64, 16, 0, 0, Swizzle::B128).empty());
    WgmmaDescriptor d;
    d.start_address = 2048;
    d.leading_byte_offset = 16;
    d.stride_byte_offset = 1024;
    d.swizzle = Swizzle::B128;
    const OperandLayout l = OperandLayout::from(d, Major::K, 16);
    int wrong = 0;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 64; ++c) wrong += load_element(smem, l, r, c) != static_cast<uint32_t>(1000 * r + c + 1);
    CHECK(wrong == 0);
    // and the bytes did move: row 1's first chunk sits in chunk 1 of its 128-byte row
    CHECK(smem.load(2048 + 128 + 16, 2) == 1001u);
}

TEST_CASE("tma: boxes a tensor map could not describe are refused and write nothing", "[tma]") {
    const std::vector<uint8_t> t = numbered(8, 64);
    const TmaTensor tensor{t.data(), 64, 8, 2};
    SharedMemory smem;
    CHECK_FALSE(tma_load_2d(smem, 0, tensor, 64, 8, 0, 0, Swizzle::B64).empty());     // 128-byte rows, 64-byte span
    CHECK_FALSE(tma_load_2d(smem, 512, tensor, 64, 8, 0, 0, Swizzle::B128).empty());  // not at a 1024-byte pattern
    CHECK_FALSE(tma_load_2d(smem, SharedMemory::kBytes - 512, tensor, 64, 8, 0, 0, Swizzle::None).empty());
    CHECK(std::all_of(smem.bytes.begin(), smem.bytes.end(), [](uint8_t b) { return b == 0; }));
}

// The tcgen05.cp model (spmma/isa/tcgen05_cp.hpp) for the two shapes the sm100a kernels use:
// 128x128b puts row r's 16 bytes in lane r, byte b in column b / 4; 32x128b.warpx4 puts the 32
// rows in all four 32-lane partitions. The source rows are read through the no-swizzle K-major
// layout of the descriptor (8-row core matrices SBO apart).
#include <spmma/isa/smem.hpp>
#include <spmma/isa/tcgen05_cp.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace spmma::isa;

namespace {

uint64_t rows16(uint32_t start, uint32_t sbo) {
    UmmaDescriptor d;
    d.start_address = start;
    d.leading_byte_offset = 16;
    d.stride_byte_offset = sbo;
    return d.encode();
}

uint8_t byte_of(int row, int b) { return static_cast<uint8_t>(row * 16 + b + 1); }

}  // namespace

TEST_CASE("tcgen05.cp 128x128b: row r in lane r, 4 columns from the address's column", "[tcgen05][cp]") {
    SharedMemory smem;
    for (int r = 0; r < 128; ++r)
        for (int b = 0; b < 16; ++b) smem.store8(static_cast<uint32_t>(4096 + r * 16 + b), byte_of(r, b));
    TensorMemory tmem;
    REQUIRE(tcgen05_cp(tmem, smem, tmem_address(0, 300), rows16(4096, 128), Tcgen05CpShape::R128x128b).empty());
    int wrong = 0;
    for (int r = 0; r < 128; ++r)
        for (int b = 0; b < 16; ++b) wrong += ((tmem.at(r, 300 + b / 4) >> (8 * (b % 4))) & 0xFFu) != byte_of(r, b);
    CHECK(wrong == 0);
    CHECK(tmem.at(0, 299) == 0u);
    CHECK(tmem.at(0, 304) == 0u);
}

TEST_CASE("tcgen05.cp 32x128b.warpx4: the 32 rows in each 32-lane partition, core matrices placed by SBO", "[tcgen05][cp]") {
    SharedMemory smem;
    // 8-row core matrices 256 bytes apart (SBO 256): row r at (r % 8) * 16 + (r / 8) * 256.
    for (int r = 0; r < 32; ++r)
        for (int b = 0; b < 16; ++b) smem.store8(static_cast<uint32_t>(1024 + (r % 8) * 16 + (r / 8) * 256 + b), byte_of(r, b));
    TensorMemory tmem;
    REQUIRE(tcgen05_cp(tmem, smem, tmem_address(0, 8), rows16(1024, 256), Tcgen05CpShape::R32x128b_Warpx4).empty());
    int wrong = 0;
    for (int q = 0; q < 4; ++q)
        for (int r = 0; r < 32; ++r)
            for (int b = 0; b < 16; ++b) wrong += ((tmem.at(32 * q + r, 8 + b / 4) >> (8 * (b % 4))) & 0xFFu) != byte_of(r, b);
    CHECK(wrong == 0);
}

TEST_CASE("tcgen05.cp: a destination off lane 0 or past column 511, or a bad descriptor, is refused", "[tcgen05][cp]") {
    SharedMemory smem;
    TensorMemory tmem;
    CHECK_FALSE(tcgen05_cp(tmem, smem, tmem_address(32, 0), rows16(0, 128), Tcgen05CpShape::R128x128b).empty());
    CHECK_FALSE(tcgen05_cp(tmem, smem, tmem_address(0, 510), rows16(0, 128), Tcgen05CpShape::R128x128b).empty());
    const uint64_t no_version = rows16(0, 128) & ~(7ull << 46);  // bits 48..46 must be 0b001
    CHECK_FALSE(tcgen05_cp(tmem, smem, tmem_address(0, 0), no_version, Tcgen05CpShape::R128x128b).empty());
    CHECK(std::all_of(tmem.cells.begin(), tmem.cells.end(), [](uint32_t c) { return c == 0u; }));
}

// The 1-D bulk copy model (spmma/isa/bulk_copy.hpp): the bytes land in order from the
// destination, untouched around them; copies the instruction would reject are refused and write
// nothing.
#include <spmma/isa/bulk_copy.hpp>
#include <spmma/isa/smem.hpp>

#include <catch2/catch.hpp>

#include <vector>

using namespace spmma::isa;

TEST_CASE("bulk copy: the bytes land in order from the destination, the bytes around them untouched", "[bulk]") {
    std::vector<uint8_t> src(48);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(3 * i + 1);
    SharedMemory smem;
    smem.store8(1023, 0xEE);
    smem.store8(1024 + 48, 0xEE);
    REQUIRE(bulk_load_1d(smem, 1024, src.data(), src.size()).empty());
    for (uint32_t i = 0; i < 48; ++i) CHECK(smem.load8(1024 + i) == src[i]);
    CHECK(smem.load8(1023) == 0xEE);
    CHECK(smem.load8(1024 + 48) == 0xEE);
}

TEST_CASE("bulk copy: a size or destination off 16 bytes, or a copy past shared memory, is refused and writes nothing",
          "[bulk]") {
    std::vector<uint8_t> src(64, 0x5A);
    SharedMemory smem;
    CHECK(bulk_load_1d(smem, 1024, src.data(), 40).size() == 1);
    CHECK(bulk_load_1d(smem, 1032, src.data(), 32).size() == 1);
    CHECK(bulk_load_1d(smem, SharedMemory::kBytes - 32, src.data(), 64).size() == 1);
    for (uint32_t a : {1024u, 1032u, SharedMemory::kBytes - 32}) CHECK(smem.load8(a) == 0);
}

// Canonical shared-memory layouts (PTX ISA 9.7.15.5.1.2): byte addresses of single elements,
// worked out by hand from the swizzle-atom description (8 rows of R bytes; within each
// 128-byte line the 16-byte chunk index is XORed with the line index, log2(R/16) bits of it),
// and the per-mode XOR tables.
#include <spmma/isa/smem.hpp>

#include <catch2/catch.hpp>

using namespace spmma::isa;

namespace {
OperandLayout lay(Swizzle s, Major m, int bits, uint32_t start, uint32_t lbo, uint32_t sbo) {
    OperandLayout l;
    l.start_address = start;
    l.leading_byte_offset = lbo;
    l.stride_byte_offset = sbo;
    l.swizzle = s;
    l.major = m;
    l.elem_bits = bits;
    return l;
}
}  // namespace

TEST_CASE("swizzle: chunk permutation of each mode over one 1024-byte pattern", "[layout][swizzle]") {
    // Expected physical chunk (0..7) of logical chunk c in 128-byte line L, from the atom tables:
    // 32B: c ^ (L & 1); 64B: c ^ (L & 3); 128B: c ^ L.
    for (uint32_t line = 0; line < 8; ++line)
        for (uint32_t c = 0; c < 8; ++c) {
            const uint32_t a = line * 128 + c * 16 + 5;
            CHECK(swizzle_address(Swizzle::None, a) == a);
            CHECK(swizzle_address(Swizzle::B32, a) == line * 128 + (c ^ (line & 1)) * 16 + 5);
            CHECK(swizzle_address(Swizzle::B64, a) == line * 128 + (c ^ (line & 3)) * 16 + 5);
            CHECK(swizzle_address(Swizzle::B128, a) == line * 128 + (c ^ line) * 16 + 5);
            // 32-byte atomicity: 32-byte granules permuted by the line index (2 bits).
            CHECK(swizzle_address(Swizzle::B128_Atom32, a) == line * 128 + (((c / 2) ^ (line & 3)) * 2 + c % 2) * 16 + 5);
        }
}

TEST_CASE("layout K-major no swizzle: core matrices placed by LBO (along K) and SBO (along MN)", "[layout]") {
    // f16, core matrix = 8 rows x 16 B; LBO 128, SBO 256.
    const auto l = lay(Swizzle::None, Major::K, 16, 0, 128, 256);
    CHECK(element_address(l, 0, 0) == 0);
    CHECK(element_address(l, 1, 0) == 16);
    CHECK(element_address(l, 0, 7) == 14);
    CHECK(element_address(l, 0, 8) == 128);         // next core matrix along K
    CHECK(element_address(l, 10, 12) == 256 + 128 + 2 * 16 + 4 * 2);  // = 424
    CHECK(element_address(l, 10, 12) == 424);
}

TEST_CASE("layout K-major 32B swizzle: rows 4..7 of an atom have their two chunks swapped", "[layout][swizzle]") {
    const auto l = lay(Swizzle::B32, Major::K, 16, 0, 0, 256);
    CHECK(element_address(l, 2, 9) == 82);    // line 0: unswizzled, 2*32 + 16 + 2
    CHECK(element_address(l, 5, 3) == 182);   // linear 166 in line 1: chunk 2 -> 3
    CHECK(element_address(l, 9, 0) == 288);   // next atom (SBO), line 2: unswizzled
    CHECK(element_address(l, 12, 0) == 256 + 128 + 16);  // row 4 of atom 1, line 3: chunk 0 -> 1
}

TEST_CASE("layout K-major 64B and 128B swizzle", "[layout][swizzle]") {
    const auto l64 = lay(Swizzle::B64, Major::K, 16, 0, 0, 512);
    CHECK(element_address(l64, 3, 17) == 242);  // linear 226: line 1, chunk 6 -> 7
    CHECK(element_address(l64, 0, 31) == 62);
    const auto l128 = lay(Swizzle::B128, Major::K, 16, 1024, 0, 1024);
    CHECK(element_address(l128, 6, 5) == 1898);  // linear 1802: line 14, chunk 0 -> 6
    CHECK(element_address(l128, 0, 63) == 1024 + 126);
    CHECK(element_address(l128, 7, 63) == 1024 + 7 * 128 + (7 ^ 7) * 16 + 14);
    // 8-bit and 32-bit elements: T = 16 and 4 per chunk.
    const auto b8 = lay(Swizzle::B128, Major::K, 8, 0, 0, 1024);
    CHECK(element_address(b8, 1, 17) == 128 + (1 ^ 1) * 16 + 1);
    const auto b32 = lay(Swizzle::B128, Major::K, 32, 0, 0, 1024);
    CHECK(element_address(b32, 2, 5) == 256 + (1 ^ 2) * 16 + 4);
}

TEST_CASE("layout MN-major: LBO/SBO roles swap between no swizzle and swizzled", "[layout][swizzle]") {
    // No swizzle: 16-byte MN chunks at SBO, 8-k groups at LBO, k rows 16 B apart.
    const auto ln = lay(Swizzle::None, Major::MN, 16, 0, 512, 128);
    CHECK(element_address(ln, 13, 10) == 128 + 512 + 2 * 16 + 5 * 2);
    CHECK(element_address(ln, 13, 10) == 682);
    // 128B: one 128-byte row holds 64 f16 of MN; k rows 128 B apart; 8-k groups at SBO.
    const auto l128 = lay(Swizzle::B128, Major::MN, 16, 0, 8192, 1024);
    CHECK(element_address(l128, 20, 3) == 408);  // linear 416: line 3, chunk 2 -> 1
    // 64B: 32 f16 of MN per row; next 32 at LBO; 8-k groups at SBO.
    const auto l64 = lay(Swizzle::B64, Major::MN, 16, 0, 1024, 512);
    CHECK(element_address(l64, 37, 9) == 1610);
    CHECK(element_address(l64, 10, 2) == 132);  // linear 144: line 1, chunk 1 -> 0
    // 32B: 16 f16 of MN per row.
    const auto l32 = lay(Swizzle::B32, Major::MN, 16, 0, 256, 2048);
    CHECK(element_address(l32, 17, 4) == 256 + 4 * 32 + (0 ^ 1) * 16 + 2);  // linear 384: line 3, chunk 0 -> 1
    CHECK(element_address(l32, 17, 4) == 402);
}

TEST_CASE("layout: 4-bit elements two per byte, lower index in bits 3..0", "[layout]") {
    const auto l = lay(Swizzle::B128, Major::K, 4, 0, 0, 1024);
    int nib = -1;
    CHECK(element_address(l, 0, 33, &nib) == 16 + 0);
    CHECK(nib == 1);
    CHECK(element_address(l, 0, 32, &nib) == 16);
    CHECK(nib == 0);
    SharedMemory s;
    store_element(s, l, 0, 32, 0x3);
    store_element(s, l, 0, 33, 0xA);
    CHECK(s.load8(16) == 0xA3);
    CHECK(load_element(s, l, 0, 33) == 0xA);
}

TEST_CASE("layout checks: operands past the end of shared memory, unmodelled modes, K too wide for the atom", "[layout][undefined]") {
    auto l = lay(Swizzle::None, Major::K, 16, 0x38C00, 128, 256);
    CHECK(check_operand(l, 64, 16, "A").size() == 1);  // 0x38C00 + 2048 > 228 KiB
    l.start_address = 0;
    CHECK(check_operand(l, 64, 16, "A").empty());
    auto s = lay(Swizzle::B128, Major::K, 16, 0, 0, 1024);
    s.base_offset = 3;
    CHECK(check_operand(s, 64, 16, "A").size() == 1);
    auto w = lay(Swizzle::B32, Major::K, 16, 0, 0, 256);
    CHECK(check_operand(w, 8, 32, "B").size() == 1);  // 64 bytes of K in a 32-byte atom
    auto a32 = lay(Swizzle::B128_Atom32, Major::MN, 32, 0, 0, 0);
    CHECK(check_operand(a32, 8, 8, "B").size() == 1);
}

// The host packing scaffolding: padded sizes, the thread split, padded rows, canonical element
// reads, C widened for a one-type epilogue, metadata nibbles and the index-byte check.
#include <spmma_plugin/host_pack.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace spmma_plugin::host;

TEST_CASE("round_up and ceil_div pad to whole multiples", "[plugin_kit]") {
    CHECK(ceil_div(1, 64) == 1);
    CHECK(ceil_div(128, 64) == 2);
    CHECK(round_up(129, 64) == 192);
    CHECK(round_up(192, 64) == 192);
}

TEST_CASE("parallel_for covers every index once, whatever the thread count", "[plugin_kit]") {
    for (int threads : {1, 3, 8, 100}) {
        std::vector<std::atomic<int>> seen(37);
        parallel_for(37, threads, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) seen[static_cast<size_t>(i)]++;
        });
        for (auto& s : seen) CHECK(s == 1);
    }
}

TEST_CASE("pad_rows copies each row into a longer zeroed one and zeroes the extra rows", "[plugin_kit]") {
    const uint8_t src[] = {1, 2, 3, 4, 5, 6};  // 3 rows of 2 bytes
    std::vector<uint8_t> dst(4 * 3, 0xEE);
    pad_rows(src, 3, 2, 4, 3, dst.data(), 2);
    CHECK(dst == std::vector<uint8_t>{1, 2, 0, 3, 4, 0, 5, 6, 0, 0, 0, 0});
    CHECK_THROWS_AS(pad_rows(src, 3, 2, 3, 1, dst.data()), std::invalid_argument);
    CHECK_THROWS_AS(pad_rows(src, 3, 2, 2, 3, dst.data()), std::invalid_argument);
}

TEST_CASE("canonical_code reads 4-bit (low nibble first), 8-, 16- and 32-bit elements", "[plugin_kit]") {
    const uint8_t nibbles[] = {0x21, 0x43};
    CHECK(canonical_code(SPMMA_E2M1, nibbles, 0) == 1);
    CHECK(canonical_code(SPMMA_S4, nibbles, 3) == 4);
    CHECK(canonical_code(SPMMA_E4M3, nibbles, 1) == 0x43);
    const uint16_t h[] = {0x3C00, 0xC000};
    CHECK(canonical_code(SPMMA_F16, h, 1) == 0xC000);
    const uint32_t f[] = {0x3F800000u, 7u};
    CHECK(canonical_code(SPMMA_F32, f, 1) == 7u);
}

TEST_CASE("widen_c turns f16 and bf16 into exact f32, copies f32 and s32, refuses the rest", "[plugin_kit]") {
    const uint16_t h[] = {0x3C00, 0xC000, 0x0001, 0x7C00, 0x8000};  // 1, -2, smallest subnormal, inf, -0
    float out[5];
    widen_c(SPMMA_F16, h, 5, out);
    CHECK(out[0] == 1.0f);
    CHECK(out[1] == -2.0f);
    CHECK(out[2] == 0x1p-24f);
    CHECK(out[3] == std::numeric_limits<float>::infinity());
    CHECK(std::signbit(out[4]));
    const uint16_t bf[] = {0x3FC0};  // 1.5
    widen_c(SPMMA_BF16, bf, 1, out);
    CHECK(out[0] == 1.5f);
    const int32_t s[] = {-7, 1 << 30};
    int32_t so[2];
    widen_c(SPMMA_S32, s, 2, so);
    CHECK(so[0] == -7);
    CHECK(so[1] == 1 << 30);
    CHECK_THROWS_WITH(widen_c(SPMMA_E4M3, s, 1, so), "C of type e4m3 is not supported");
    CHECK(f16_to_f32(0x03FF) == 1023 * 0x1p-24f);  // largest subnormal
}

TEST_CASE("metadata nibbles: 2:4 and 4:8 bytes as they are, 1:2 as halves, padding outside", "[plugin_kit]") {
    CHECK(metadata_nibble(SPMMA_PATTERN_2_4, 0x9) == 0x9);
    CHECK(metadata_nibble(SPMMA_PATTERN_4_8_PAIRWISE, 0xE) == 0xE);
    CHECK(metadata_nibble(SPMMA_PATTERN_1_2, 0) == 0x4);
    CHECK(metadata_nibble(SPMMA_PATTERN_1_2, 1) == 0xE);
    const uint8_t idx[] = {0x4, 0x9, 0xE, 0x8};  // 2 rows of 2 groups
    const IndexNibbles n{SPMMA_PATTERN_2_4, idx, 2, 2};
    CHECK(n(1, 0) == 0xE);
    CHECK(n(0, 1) == 0x9);
    CHECK(n(2, 0) == kPadMetadataNibble);  // row past m
    CHECK(n(0, 2) == kPadMetadataNibble);  // group past k
}

TEST_CASE("first_undefined_index names the first byte that is not two increasing positions", "[plugin_kit]") {
    const uint8_t good[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    CHECK(first_undefined_index(4, 2, 12, good, "rule").empty());
    for (uint8_t bad : {uint8_t(0x0), uint8_t(0x5), uint8_t(0x1), uint8_t(0x14)}) {
        const uint8_t idx[] = {0x4, 0x4, 0x4, 0x4, bad, 0x4};
        INFO(int(bad));
        const std::string why = first_undefined_index(4, 2, 12, idx, "needs two increasing positions");
        CHECK(why.rfind("index byte of row 1, group 1 is 0x", 0) == 0);
        CHECK(why.find(": needs two increasing positions") != std::string::npos);
    }
    const uint8_t tf32[] = {0, 1, 1, 0};
    CHECK(first_undefined_index(2, 1, 8, tf32, "rule").empty());  // 1:2: every byte is defined
}

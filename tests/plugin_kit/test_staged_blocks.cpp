// The shared pieces of the sm80 / sm120a packings: a problem's padded shape in CTA tiles and k
// stages, the walk over A's (tile, stage) blocks, and the kept columns of an index byte.
#include <spmma_plugin/host_pack.hpp>
#include <spmma_plugin/staged_shape.hpp>

#include <catch2/catch.hpp>

#include <vector>

using namespace spmma_plugin::host;

TEST_CASE("staged_shape pads m and n to whole tiles and sizes the packed buffers per tile and stage", "[plugin_kit]") {
    // 130 x 65 x 200 on 64 x 32 tiles, 3 stages of 64 elements (128 bytes of a B column), A
    // blocks of 4096 bytes and 256 metadata words.
    const StagedShape s = staged_shape(130, 65, 200, 64, 32, 3, {64, 128, 4096, 256});
    CHECK(s.m == 130);
    CHECK(s.n == 65);
    CHECK(s.k == 200);
    CHECK(s.m_pad == 192);
    CHECK(s.n_pad == 96);
    CHECK(s.k_stages == 3);
    CHECK(s.k_pad == 192);
    CHECK(s.ldb == 384);
    CHECK(s.a_bytes == 3 * 3 * 4096);
    CHECK(s.e_words == 3 * 3 * 256);
    CHECK(s.b_bytes == 96 * 384);
}

TEST_CASE("for_each_stage_block visits every (tile, stage) block once, at its offset, metadata zeroed", "[plugin_kit]") {
    const int64_t tiles = 5, stages = 3, a_block = 4, e_block = 2;
    for (int threads : {1, 2, 8}) {
        std::vector<uint8_t> a(static_cast<size_t>(tiles * stages * a_block), 0);
        std::vector<uint32_t> e(static_cast<size_t>(tiles * stages * e_block), 0xFFFFFFFFu);
        for_each_stage_block(tiles, stages, a_block, e_block, a.data(), e.data(), threads,
                             [&](int64_t mt, int64_t ks, uint8_t* a_blk, uint32_t* e_blk) {
                                 CHECK(a_blk == a.data() + (mt * stages + ks) * a_block);
                                 CHECK(e_blk == e.data() + (mt * stages + ks) * e_block);
                                 for (int64_t i = 0; i < a_block; ++i) a_blk[i] = static_cast<uint8_t>(a_blk[i] + 1);
                                 e_blk[0] |= static_cast<uint32_t>(mt * stages + ks);
                             });
        for (uint8_t v : a) CHECK(v == 1);
        for (int64_t b = 0; b < tiles * stages; ++b) {
            CHECK(e[static_cast<size_t>(b * e_block)] == static_cast<uint32_t>(b));
            CHECK(e[static_cast<size_t>(b * e_block + 1)] == 0u);
        }
    }
}

TEST_CASE("kept_columns: the columns an index byte keeps, 0 for an invalid byte or pattern", "[plugin_kit]") {
    int c[4] = {};
    CHECK(kept_columns(SPMMA_PATTERN_1_2, 1, c) == 1);
    CHECK(c[0] == 1);
    CHECK(kept_columns(SPMMA_PATTERN_1_2, 2, c) == 0);
    CHECK(kept_columns(SPMMA_PATTERN_2_4, 0xD, c) == 2);  // positions 1 and 3
    CHECK((c[0] == 1 && c[1] == 3));
    CHECK(kept_columns(SPMMA_PATTERN_2_4, 0x7, c) == 0);  // 3 then 1: not increasing
    CHECK(kept_columns(SPMMA_PATTERN_2_4, 0x14, c) == 0);  // a bit above the two positions
    CHECK(kept_columns(SPMMA_PATTERN_4_8_PAIRWISE, 0x8, c) == 4);  // pairs 0 and 2
    CHECK((c[0] == 0 && c[1] == 1 && c[2] == 4 && c[3] == 5));
    CHECK(kept_columns(static_cast<spmma_pattern>(99), 0x4, c) == 0);
}

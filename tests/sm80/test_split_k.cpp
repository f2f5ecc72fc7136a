// Split-K of the sm80 kernels (include/spmma_sm80/split_k.hpp), checked on the host against
// hand-computed grids: which grids split and into how many ranges, the CTAs an SM holds, and
// that the kernel's ranges cover a tile's k stages once.
#include <catch2/catch.hpp>

#include <spmma_sm80/split_k.hpp>

#include <vector>

using namespace spmma_sm80;

TEST_CASE("sm80 split-K leaves a grid that fills the device's CTA slots unsplit", "[sm80][split_k]") {
    CHECK(k_splits(1024, 64, 264) == 1);  // 4096^2 in 128x128 tiles, 2 CTAs an SM on 132 SMs
    CHECK(k_splits(264, 512, 264) == 1);
    CHECK(k_splits(224, 64, 396) == 1);   // 28672 rows in 128-row tiles, 3 CTAs an SM: not split (224 * 2 > 396)
}

TEST_CASE("sm80 split-K fills the slots with ranges of at least 8 stages, at most 16", "[sm80][split_k]") {
    CHECK(k_splits(32, 64, 396) == 8);    // 4096 x 4096 f16: 64 stages of 64 k, at most 8 ranges of 8
    CHECK(k_splits(32, 512, 396) == 12);  // k = 32768: the 396 slots hold 12 CTAs a tile
    CHECK(k_splits(2, 4096, 396) == 16);  // never more than 16
    CHECK(k_splits(32, 15, 396) == 1);    // under 16 stages no range would keep 8
    CHECK(k_splits(64, 16, 396) == 2);
}

TEST_CASE("sm80 CTAs an SM holds, by shared memory and threads", "[sm80][split_k]") {
    const int h100 = 227 * 1024 + 1024;  // sm_90's shared memory an SM (227 KB a block opted in, 1 KB reserved)
    // 128x16, 6 stages, f16: 6 x (8192 A + 2048 B + 1024 metadata) = 67584 bytes -> 229376 / 68608 = 3
    CHECK(resident_ctas_per_sm(Tile{128, 16, 32, 16, 6}, kFamilyF16, h100) == 3);
    // 256x128, 4 stages, f16: 4 x (16384 + 16384 + 2048) = 139264 bytes -> 1
    CHECK(resident_ctas_per_sm(Tile{256, 128, 64, 64, 4}, kFamilyF16, h100) == 1);
    // 128x32, 6 stages, 8-bit: 6 x (8192 + 4096 + 2048) = 86016 -> 2
    CHECK(resident_ctas_per_sm(Tile{128, 32, 32, 32, 6}, kFamily8, h100) == 2);
    // 128x128, 4 stages, f16: 4 x 25600 = 102400 bytes -> 2 by shared memory; 128 threads at 255 registers -> 2
    CHECK(resident_ctas_per_sm(Tile{128, 128, 64, 64, 4}, kFamilyF16, h100) == 2);
    // 128x16 in 2 stages: shared memory for 9, registers for 3 (the decode tiles' launch bound)
    CHECK(resident_ctas_per_sm(Tile{128, 16, 32, 16, 2}, kFamilyF16, h100) == 3);
    CHECK(resident_ctas_per_sm(Tile{256, 128, 64, 64, 4}, kFamilyF16, 100 * 1024) == 1);
}

TEST_CASE("sm80 split-K ranges cover a tile's k stages once, each at least 8 stages", "[sm80][split_k]") {
    for (int64_t stages : {16, 17, 64, 100, 513, 4096})
        for (int64_t resident : {132, 396, 528})
            for (int64_t tiles : {1, 7, 32, 100}) {
                const int splits = k_splits(tiles, stages, resident);
                INFO("stages " << stages << ", " << splits << " ranges");
                CHECK(k_split_begin(stages, 0, splits) == 0);
                CHECK(k_split_begin(stages, splits, splits) == stages);
                for (int s = 0; s < splits; ++s)
                    CHECK(k_split_begin(stages, s + 1, splits) - k_split_begin(stages, s, splits) >= kMinStagesPerSplit);
            }
}

TEST_CASE("sm80 split-K: only the decode tiles split, on the device's slots", "[sm80][split_k]") {
    const int h100 = 227 * 1024 + 1024;
    // 4096 x 4096 f16 at n = 16: 32 tiles of 128x16, 396 slots (3 an SM), 64 stages -> 8 ranges
    CHECK(k_splits_on(Tile{128, 16, 32, 16, 6}, kFamilyF16, 32, 64, 132, h100) == 8);
    // the same grid of 256x128 tiles stays whole: the 128-wide tiles never split
    CHECK(k_splits_on(Tile{256, 128, 64, 64, 4}, kFamilyF16, 16, 64, 132, h100) == 1);
    CHECK(k_splits_on(Tile{128, 128, 64, 64, 4}, kFamilyF16, 1, 4096, 132, h100) == 1);
}

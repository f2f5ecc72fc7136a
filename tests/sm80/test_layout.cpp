// The sm80 kernels' shared-memory and thread layouts (include/spmma_sm80/layout.hpp), checked on
// the host: the B swizzle read back through an emulated ldmatrix gives each lane its mma.sp B
// registers without bank conflicts, the copy maps fill every stage byte exactly once, the
// metadata positions tile each word exactly, and the CTA raster visits every tile once.
#include <catch2/catch.hpp>

#include <spmma_sm80/layout.hpp>
#include <spmma_sm80/op_tags.hpp>

#include "kernel_list.hpp"

#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace spmma_sm80;

using spmma_sm80_test::listed_kernels;

// ldmatrix .x4 (PTX 9.7.14.5.15) on a byte image of shared memory: lane l gives the row
// address of row l%8 of matrix l/8; register q of lane l = 4 bytes at row l/4 of matrix q,
// offset 4*(l%4).
void ldmatrix_x4(const std::vector<uint8_t>& smem, const int (&addr)[32], uint32_t (&out)[32][4]) {
    for (int lane = 0; lane < 32; ++lane)
        for (int q = 0; q < 4; ++q) std::memcpy(&out[lane][q], &smem[static_cast<size_t>(addr[8 * q + lane / 4] + 4 * (lane % 4))], 4);
}

}  // namespace

TEST_CASE("sm80 B swizzle: ldmatrix at b_ldsm_offset returns the mma.sp B registers, conflict-free",
          "[sm80][layout]") {
    const int bn = 128;
    // B stage in global order: column n, byte j of its 128 bytes of k -> a recognisable value.
    auto gval = [](int n, int j) { return static_cast<uint8_t>(n * 131 + j * 7 + (n >> 3)); };
    std::vector<uint8_t> smem(static_cast<size_t>(bn * kStageKBytes), 0);
    std::vector<int> written(smem.size() / 16, 0);
    for (int n = 0; n < bn; ++n)
        for (int chunk = 0; chunk < 8; ++chunk) {
            const int off = b_smem_offset(n, chunk);
            REQUIRE(off % 16 == 0);
            ++written[static_cast<size_t>(off / 16)];
            for (int i = 0; i < 16; ++i) smem[static_cast<size_t>(off + i)] = gval(n, 16 * chunk + i);
        }
    for (int w : written) REQUIRE(w == 1);  // the swizzle is a bijection on the stage

    for (int col0 = 0; col0 < bn; col0 += 8)
        for (int step = 0; step < kStepsPerStage; ++step) {
            int addr[32];
            for (int lane = 0; lane < 32; ++lane) addr[lane] = b_ldsm_offset(col0, step, lane);
            // Each matrix's 8 rows fall in 8 different 16-byte bank groups.
            for (int q = 0; q < 4; ++q) {
                std::set<int> groups;
                for (int r = 0; r < 8; ++r) groups.insert((addr[8 * q + r] / 16) % 8);
                CHECK(groups.size() == 8);
            }
            uint32_t regs[32][4];
            ldmatrix_x4(smem, addr, regs);
            for (int lane = 0; lane < 32; ++lane)
                for (int r = 0; r < 4; ++r) {
                    uint8_t want[4];
                    for (int i = 0; i < 4; ++i) want[i] = gval(col0 + b_frag_col(lane), step * kStepBytes + b_frag_byte(lane, r) + i);
                    uint32_t w;
                    std::memcpy(&w, want, 4);
                    INFO("col0 " << col0 << " step " << step << " lane " << lane << " reg " << r);
                    CHECK(regs[lane][r] == w);
                }
        }
}

TEST_CASE("sm80 A fragments: each quarter warp's LDS.128 reads 128 contiguous bytes", "[sm80][layout]") {
    for (int atom = 0; atom < 4; ++atom)
        for (int step = 0; step < kStepsPerStage; ++step)
            for (int lane = 0; lane < 32; ++lane)
                CHECK(a_stage_offset(atom, step, lane) == a_stage_offset(atom, step, 0) + 16 * lane);
    CHECK(a_stage_offset(1, 0, 0) == 2 * kAAtomBytes);
    CHECK(a_stage_bytes(128) == 128 * 64);
}

TEST_CASE("sm80 metadata positions fill each 32-bit word of the warp exactly once", "[sm80][layout]") {
    for (const Family& f : {kFamilyF16, kFamilyTF32, kFamily8, kFamily4}) {
        INFO("bits " << f.bits);
        // (word, lane, nibble) -> how often a (step, row, chunk) lands there.
        std::vector<int> used(static_cast<size_t>(f.e_words_per_stage() * 32 * 8), 0);
        for (int step = 0; step < kStepsPerStage; ++step)
            for (int row = 0; row < 16; ++row)
                for (int c = 0; c < f.chunks_per_step(); ++c) {
                    const MetaPos p = meta_position(f, f.selector_of_step(step), row, c);
                    REQUIRE(p.lane >= 0);
                    REQUIRE(p.lane < 32);
                    REQUIRE(p.nibble >= 0);
                    REQUIRE(p.nibble < 8);
                    ++used[static_cast<size_t>((f.e_word_of_step(step) * 32 + p.lane) * 8 + p.nibble)];
                }
        for (int u : used) CHECK(u == 1);
    }
}

TEST_CASE("sm80 kernel list: tiles fit sm_90's shared memory and the copy maps cover each stage once",
          "[sm80][layout]") {
    const auto ks = listed_kernels();
    REQUIRE(ks.size() > 50);
    std::set<std::string> names;
    for (const auto& k : ks) {
        INFO(k.name);
        CHECK(names.insert(k.name).second);
        const Tile& t = k.tile;
        const Family& f = k.op->family;
        CHECK(t.smem_bytes(f) <= 227 * 1024);
        CHECK(t.bm % t.wm == 0);
        CHECK(t.bn % t.wn == 0);
        CHECK(t.threads() % 64 == 0);
        CHECK(smem_b_region(t) % 128 == 0);
        CHECK(smem_e_region(t) == smem_b_region(t) + t.b_stage_bytes());
        CHECK(t.stage_bytes(f) == smem_e_region(t) + e_stage_words(f, t.bm) * 4);
        // B: thread tid copies chunk tid % 8 of columns tid / 8 + j * threads / 8 (sm80_spgemm.cuh).
        std::vector<int> hit(static_cast<size_t>(t.b_stage_bytes() / 16), 0);
        for (int tid = 0; tid < t.threads(); ++tid)
            for (int j = 0; j < t.bn * 8 / t.threads(); ++j) {
                const int col = tid / 8 + j * (t.threads() / 8);
                ++hit[static_cast<size_t>(b_smem_offset(col, tid % 8) / 16)];
            }
        for (int h : hit) CHECK(h == 1);
        // The A and metadata chunks divide over the threads as the kernel assumes.
        CHECK(a_stage_bytes(t.bm) / 16 % t.threads() == 0);
        // The register budgets intended: the 128-wide tiles 64x64 a warp (128 accumulators in
        // f32); the decode tiles 4 warps of 32 rows across the tile's 16-64 columns.
        if (t.bn >= 128) {
            CHECK(t.wm * t.wn == 64 * 64);
        } else {
            CHECK(t.bm == 128);
            CHECK(t.wm == 32);
            CHECK(t.wn == t.bn);
        }
    }
}

TEST_CASE("sm80 CTA raster visits every tile exactly once", "[sm80][layout]") {
    for (int tiles_m : {1, 3, 8, 13, 43})
        for (int tiles_n : {1, 2, 7, 32})
            for (int group : {1, 4, 8, 16}) {
                std::vector<int> seen(static_cast<size_t>(tiles_m * tiles_n), 0);
                for (int pid = 0; pid < tiles_m * tiles_n; ++pid) {
                    const TileCoord c = raster(pid, tiles_m, tiles_n, group);
                    REQUIRE(c.m >= 0);
                    REQUIRE(c.m < tiles_m);
                    REQUIRE(c.n >= 0);
                    REQUIRE(c.n < tiles_n);
                    ++seen[static_cast<size_t>(c.m * tiles_n + c.n)];
                }
                for (int s : seen) CHECK(s == 1);
            }
}

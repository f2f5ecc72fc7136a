// Host-side packing of the sm90a plugin (plugins/sm90a/pack, layout.hpp): runs without a GPU.
#include <catch2/catch.hpp>

#include <spmma_sm90a/layout.hpp>
#include <spmma_sm90a/pack.hpp>
#include <spmma_sm90a/tile_config.hpp>

#include <cstring>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace spmma_sm90a;

namespace {

const Family kFamilies[] = {Family::B16, Family::B32, Family::B8};

// Random canonical index bytes for m rows of k columns: 2:4 (two sorted distinct positions) or
// 1:2 (one position).
std::vector<uint8_t> random_indices(Family f, int64_t m, int64_t k, std::mt19937& rng) {
    const int g = traits(f).group;
    std::vector<uint8_t> idx(static_cast<size_t>(m * (k / g)));
    static const uint8_t pairs[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    for (auto& b : idx) b = g == 2 ? static_cast<uint8_t>(rng() & 1u) : pairs[rng() % 6];
    return idx;
}

}  // namespace

TEST_CASE("sm90a metadata: every (row, group) of a unit is held by exactly one lane nibble", "[sm90a][pack]") {
    for (Family f : kFamilies) {
        std::set<std::pair<int, int>> seen;
        for (int lane = 0; lane < 32; ++lane)
            for (int j = 0; j < 8; ++j) {
                const MetaPos p = meta_position(f, lane, j);
                REQUIRE(p.row >= 0);
                REQUIRE(p.row < 16);
                REQUIRE(p.group >= 0);
                REQUIRE(p.group < 16);
                seen.insert({p.row, p.group});
            }
        CHECK(seen.size() == 256);
    }
}

TEST_CASE("sm90a metadata: 16- and 32-bit units give sp-sel 0 to lanes t<2 and sp-sel 1 to lanes t>=2", "[sm90a][pack]") {
    for (Family f : {Family::B16, Family::B32}) {
        CHECK(meta_selector(f, 0) == 0);
        CHECK(meta_selector(f, 1) == 1);
        CHECK(meta_unit_of_step(f, 0) == 0);
        CHECK(meta_unit_of_step(f, 1) == 0);
        for (int lane = 0; lane < 32; ++lane)
            for (int j = 0; j < 8; ++j) {
                const MetaPos p = meta_position(f, lane, j);
                // instruction 0 reads groups 0..7, instruction 1 groups 8..15
                CHECK((p.group / 8) == ((lane & 3) >> 1));
                CHECK(p.row == (lane >> 2) + 8 * (j >> 2));
            }
    }
    CHECK(meta_selector(Family::B8, 1) == 0);
    CHECK(meta_unit_of_step(Family::B8, 1) == 1);
}

TEST_CASE("sm90a metadata: nibbles are the canonical index bytes, 1:2 as 16-bit halves", "[sm90a][pack]") {
    CHECK(meta_nibble(Family::B16, 0x9) == 0x9);
    CHECK(meta_nibble(Family::B8, 0xE) == 0xE);
    CHECK(meta_nibble(Family::B32, 0) == 0x4);  // keeps halves 0,1
    CHECK(meta_nibble(Family::B32, 1) == 0xE);  // keeps halves 2,3
    CHECK(kMetaPadNibble == 0x4);
}

TEST_CASE("sm90a pack_metadata round-trips random index bytes and pads with 0b0100", "[sm90a][pack]") {
    std::mt19937 rng(12345);
    for (Family f : kFamilies) {
        const int g = traits(f).group;
        for (int64_t m : {1, 17, 64, 100}) {
            for (int64_t k : {int64_t(g), int64_t(5 * g), int64_t(stage_k(f)), int64_t(3 * stage_k(f) + 2 * g)}) {
                const int64_t kp = padded_k(f, k), rows = padded_rows(m, 64);
                const auto idx = random_indices(f, m, k, rng);
                std::vector<uint32_t> packed(packed_meta_words(f, rows, kp), 0xDEADBEEFu);
                pack_metadata(f, idx.data(), m, k, rows, kp, packed.data());
                for (int64_t r = 0; r < rows; ++r)
                    for (int64_t grp = 0; grp < kp / g; ++grp) {
                        const uint32_t want =
                            (r < m && grp < k / g) ? meta_nibble(f, idx[static_cast<size_t>(r * (k / g) + grp)]) : kMetaPadNibble;
                        REQUIRE(packed_meta_nibble(f, packed.data(), kp, r, grp) == want);
                    }
            }
        }
    }
}

TEST_CASE("sm90a pack_a_values and pack_b keep each row and zero the k padding", "[sm90a][pack]") {
    std::mt19937 rng(7);
    for (Family f : kFamilies) {
        const int eb = traits(f).elem_bytes;
        const int64_t m = 5, n = 3, k = stage_k(f) + 2 * traits(f).group;
        const int64_t kp = padded_k(f, k);
        REQUIRE(kp == 2 * stage_k(f));
        std::vector<uint8_t> a(static_cast<size_t>(m * k / 2 * eb)), b(static_cast<size_t>(n * k * eb));
        for (auto& x : a) x = static_cast<uint8_t>(rng() | 1u);
        for (auto& x : b) x = static_cast<uint8_t>(rng() | 1u);
        std::vector<uint8_t> pa(packed_a_bytes(f, m, kp), 0xAA), pb(packed_b_bytes(f, n, kp), 0xAA);
        pack_a_values(f, a.data(), m, k, kp, pa.data());
        pack_b(f, b.data(), n, k, kp, pb.data());
        for (int64_t r = 0; r < m; ++r) {
            CHECK(std::memcmp(&pa[r * kp / 2 * eb], &a[r * k / 2 * eb], k / 2 * eb) == 0);
            for (int64_t c = k / 2 * eb; c < kp / 2 * eb; ++c) CHECK(pa[r * kp / 2 * eb + c] == 0);
        }
        for (int64_t r = 0; r < n; ++r) {
            CHECK(std::memcmp(&pb[r * kp * eb], &b[r * k * eb], k * eb) == 0);
            for (int64_t c = k * eb; c < kp * eb; ++c) CHECK(pb[r * kp * eb + c] == 0);
        }
    }
}

TEST_CASE("sm90a pack_a_stages: a block per (tile row, stage), each row's 16-byte chunks where the 64-byte swizzle puts them, zeros past m and k",
          "[sm90a][pack]") {
    std::mt19937 rng(11);
    for (Family f : kFamilies) {
        const int eb = traits(f).elem_bytes;
        const int64_t m = 70, k = stage_k(f) + 2 * traits(f).group, kp = padded_k(f, k);
        const int slice = 64;
        std::vector<uint8_t> a(static_cast<size_t>(m * k / 2 * eb));
        for (auto& x : a) x = static_cast<uint8_t>(rng() | 1u);
        // Two tile rows (70 rows in tiles of 64), two stages each.
        REQUIRE(packed_a_stages_bytes(f, m, kp, slice) == size_t(2 * 2 * slice * kStageARowBytes));
        std::vector<uint8_t> out(packed_a_stages_bytes(f, m, kp, slice), 0xAA);
        pack_a_stages(f, a.data(), m, k, kp, slice, out.data());
        const int64_t row_bytes = k / 2 * eb;
        for (int64_t row = 0; row < 2 * slice; ++row)
            for (int64_t st = 0; st < 2; ++st)
                for (int64_t byte = 0; byte < kStageARowBytes; ++byte) {
                    const int64_t t = row / slice, r = row % slice, from = st * kStageARowBytes + byte;
                    // Row r's chunk c goes to chunk c ^ ((r / 2) % 4) of its 64 bytes.
                    const int64_t chunk = (byte / 16) ^ ((r / 2) % 4);
                    const uint8_t got = out[static_cast<size_t>((t * 2 + st) * slice * kStageARowBytes + r * kStageARowBytes +
                                                                chunk * 16 + byte % 16)];
                    const uint8_t want = row < m && from < row_bytes ? a[static_cast<size_t>(row * row_bytes + from)] : 0;
                    if (got != want) FAIL_CHECK("row " << row << " stage " << st << " byte " << byte);
                }
    }
    std::vector<uint8_t> a(64), out(4096);
    CHECK_THROWS(pack_a_stages(Family::B16, a.data(), 1, 64, 64, 24, out.data()));
}

TEST_CASE("sm90a a_stage_source names the canonical row and byte of every packed byte (the device packer's inverse), and "
          "pack_a_stages_params sizes the device pack",
          "[sm90a][pack]") {
    std::mt19937 rng(13);
    for (Family f : kFamilies)
        for (int slice : {64, 128, 256}) {
            const int eb = traits(f).elem_bytes;
            const int64_t m = slice + 19, k = 3 * stage_k(f) + 2 * traits(f).group, kp = padded_k(f, k);
            const int64_t row_bytes = k / 2 * eb;
            std::vector<uint8_t> a(static_cast<size_t>(m * row_bytes));
            for (auto& x : a) x = static_cast<uint8_t>(rng() | 1u);
            std::vector<uint8_t> out(packed_a_stages_bytes(f, m, kp, slice), 0xAA);
            pack_a_stages(f, a.data(), m, k, kp, slice, out.data());
            int64_t mismatches = 0;
            for (int64_t off = 0; off < static_cast<int64_t>(out.size()); ++off) {
                const AStageSource s = a_stage_source(off, kp / stage_k(f), slice);
                const uint8_t want = s.row < m && s.byte < row_bytes ? a[static_cast<size_t>(s.row * row_bytes + s.byte)] : 0;
                mismatches += out[static_cast<size_t>(off)] != want;
            }
            CAPTURE(static_cast<int>(f), slice);
            CHECK(mismatches == 0);
            const PackAStagesParams p = pack_a_stages_params(f, a.data(), m, k, kp, slice, out.data());
            CHECK(p.chunks * 16 == static_cast<int64_t>(out.size()));
            CHECK(p.row_bytes == row_bytes);
            CHECK(p.k_tiles == kp / stage_k(f));
            CHECK(p.m == m);
            CHECK(p.slice_rows == slice);
        }
    std::vector<uint8_t> a(64), out(4096);
    CHECK_THROWS(pack_a_stages_params(Family::B16, a.data(), 1, 64, 64, 24, out.data()));
}

TEST_CASE("sm90a pack_c converts f16 and bf16 exactly, copies f32 and s32", "[sm90a][pack]") {
    const uint16_t h[] = {0x3C00, 0xC000, 0x0001, 0x7BFF, 0x8000, 0x0400};  // 1, -2, 2^-24, 65504, -0, 2^-14
    float out[6];
    pack_c(SPMMA_F16, h, 6, out);
    CHECK(out[0] == 1.0f);
    CHECK(out[1] == -2.0f);
    CHECK(out[2] == std::ldexp(1.0f, -24));
    CHECK(out[3] == 65504.0f);
    CHECK(std::signbit(out[4]));
    CHECK(out[5] == std::ldexp(1.0f, -14));
    const uint16_t bf[] = {0x3F80, 0xC040};  // 1, -3
    pack_c(SPMMA_BF16, bf, 2, out);
    CHECK(out[0] == 1.0f);
    CHECK(out[1] == -3.0f);
    const int32_t s[] = {-7, 123456789};
    int32_t so[2];
    pack_c(SPMMA_S32, s, 2, so);
    CHECK(so[0] == -7);
    CHECK(so[1] == 123456789);
    CHECK_THROWS_AS(pack_c(SPMMA_E4M3, s, 1, so), std::invalid_argument);
}

TEST_CASE("sm90a swizzle XORs the 16-byte chunk with the row inside the 8-row pattern", "[sm90a][pack]") {
    // 128-byte rows: chunk c of row r lands at chunk c ^ (r % 8).
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < 8; ++c) CHECK(swizzle(r * 128 + c * 16 + 3, 128) == r * 128 + ((c ^ (r % 8)) * 16) + 3);
    // 64-byte rows: chunk c of row r lands at chunk c ^ ((r / 2) % 4).
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < 4; ++c) CHECK(swizzle(r * 64 + c * 16, 64) == r * 64 + ((c ^ ((r / 2) % 4)) * 16));
    CHECK(swizzle(1234, 0) == 1234);
}

TEST_CASE("sm90a kmajor_desc encodes start, 16-byte LBO, 8-row SBO and the swizzle mode", "[sm90a][pack]") {
    const uint64_t d = kmajor_desc(0x4000, 128, 64, 32);
    CHECK((d & 0x3FFF) == (0x4000 + 64 * 128 + 32) >> 4);
    CHECK(((d >> 16) & 0x3FFF) == 1);
    CHECK(((d >> 32) & 0x3FFF) == 1024 >> 4);
    CHECK(((d >> 49) & 7) == 0);
    CHECK((d >> 62) == 1);
    CHECK((kmajor_desc(0, 64, 0, 0) >> 62) == 2);
    CHECK(((kmajor_desc(0, 64, 0, 0) >> 32) & 0x3FFF) == 512 >> 4);
}

TEST_CASE("sm90a family_of takes the sm_90a sparse pairs only", "[sm90a][pack]") {
    CHECK(family_of(SPMMA_F16, SPMMA_F16) == Family::B16);
    CHECK(family_of(SPMMA_BF16, SPMMA_BF16) == Family::B16);
    CHECK(!family_of(SPMMA_F16, SPMMA_BF16));
    CHECK(family_of(SPMMA_TF32, SPMMA_TF32) == Family::B32);
    CHECK(family_of(SPMMA_E4M3, SPMMA_E5M2) == Family::B8);
    CHECK(family_of(SPMMA_U8, SPMMA_S8) == Family::B8);
    CHECK(!family_of(SPMMA_E4M3, SPMMA_S8));
    CHECK(!family_of(SPMMA_E2M1, SPMMA_E2M1));
}

TEST_CASE("sm90a tile configurations of the plugin satisfy the kernel invariants", "[sm90a][pack]") {
    int count = 0;
    auto check = [&](Family f, int bm, int bn, int bk, int cm, int cn, int s) {
        const TileConfig c{f, bm, bn, cm, cn, s};
        INFO("bm " << bm << " bn " << bn << " cm " << cm << " cn " << cn << " stages " << s);
        CHECK(c.valid());
        CHECK(c.bk() == bk);
        CHECK(c.smem_bytes() <= kMaxSmemPerCta);
        // slices tile the stage
        CHECK(c.a_slice_rows() * cn == bm);
        CHECK(c.b_slice_rows() * cm == bn);
        CHECK(c.e_slice_blocks() * cn * 16 == bm);
        ++count;
    };
#define fam_f16 Family::B16
#define fam_bf16 Family::B16
#define fam_tf32 Family::B32
#define fam_e4m3 Family::B8
#define fam_e5m2 Family::B8
#define fam_s8 Family::B8
#define fam_u8 Family::B8
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S) check(fam_##A, BM, BN, BK, CM, CN, S);
#include <spmma_sm90a/kernels/all.inc>
#undef SPMMA_SM90A_KERNEL
    CHECK(count > 20);
}

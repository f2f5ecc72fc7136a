// Hand-made mma.sp cases: a few known A elements at known columns, written into the registers by
// hand from the PTX fragment formulas (9.7.14.6.2: "row = groupID for ai ...", "firstcol =
// threadID_in_group * ..."), metadata nibbles written by hand (bits 1..0 first index, bits 3..2
// second), B a one-hot matrix picking 8 columns of A, and the exact D registers asserted.
// Every A element and metadata nibble not named holds zeros / 0b0100 (keeps columns 0,1 with
// value 0); lanes that do not contribute metadata hold invalid nibbles, so reading them would be
// reported and would move values.
#include "ptx_fragments.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace spmma::isa;
using spmma::DType;
using Kind = MmaSp::Kind;

namespace {

// B[k][n] = one iff k == n + 8*j: D[m][n] = C[m][n] + A[m][n + 8j] (times scales).
// Placed with the PTX B formulas ("row = ... for bi, col = groupID"), see ptx_fragments.hpp.
void one_hot_b(MmaSpWarp& w, const MmaSp& f, int j, uint32_t one_bits) {
    for (auto& lane : w.b) lane = {};
    const int bb = ptxfrag::bits_of(f, f.b);
    const int per_reg = 32 / bb;
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < f.k * 8 / 32; ++i)
            if (ptxfrag::b_row(f, lane, i) == (lane >> 2) + 8 * j)
                w.b[lane][i / per_reg] |= one_bits << ((i % per_reg) * bb);
}

using Regs = std::map<std::pair<int, int>, uint32_t>;  // (lane, register) -> bits; all others 0

void require_d(const MmaSpResult& r, const Regs& expected, int regs) {
    REQUIRE(r.undefined.empty());
    for (int lane = 0; lane < 32; ++lane)
        for (int reg = 0; reg < regs; ++reg) {
            INFO("lane " << lane << " d" << reg);
            const auto it = expected.find({lane, reg});
            REQUIRE(r.d[lane][reg] == (it == expected.end() ? 0u : it->second));
        }
}

void fill_metadata(MmaSpWarp& w, uint32_t contributing, uint32_t others, auto is_contributing) {
    for (int lane = 0; lane < 32; ++lane) w.e[lane] = is_contributing(lane) ? contributing : others;
}

}  // namespace

TEST_CASE("mma.sp hand-made: m16n8k16 f16, selector 0, row 1 keeps {1,3} and {8,10}, row 9 keeps {13,14}") {
    const MmaSp f{16, DType::F16, DType::F16, DType::F32, DType::F32, true};
    MmaSpWarp w{};
    w.selector = 0;
    // lane 4: groupID 1, threadID_in_group 0: a0,a1 = row 1, columns 0..3 (kept 1, 3): 1.0, 2.0
    w.a[4][0] = 0x4000'3c00;
    // lane 6: threadID_in_group 2: a0,a1 = row 1, columns 8..11 (kept 8, 10): 3.0, 4.0
    w.a[6][0] = 0x4400'4200;
    // lane 7: threadID_in_group 3: a2,a3 = row 9, columns 12..15 (kept 13, 14): -1.0, 0.5
    w.a[7][1] = 0x3800'bc00;
    // metadata: with selector 0, lane 4g holds row g in bits 15..0 and row g+8 in bits 31..16
    fill_metadata(w, 0x4444'4444, 0xffff'ffff, [](int lane) { return lane % 4 == 0; });
    // lane 4: row 1: chunk 0 = {1,3} 0b1101, chunk 2 = {0,2} 0b1000; row 9: chunk 3 = {1,2} 0b1001
    w.e[4] = 0x9444'484d;
    w.c[4][1] = 0x3e80'0000;  // C[1][1] = 0.25 (c1 of lane 4: row groupID, col 2*0 + 1)

    one_hot_b(w, f, 0, 0x3c00);  // D[m][n] = C + A[m][n]
    require_d(mma_sp(f, w), {{{4, 1}, 0x3fa0'0000},    // D[1][1] = 1.0 + 0.25
                             {{5, 1}, 0x4000'0000}},   // D[1][3] = 2.0 (lane 5: cols 2,3)
              4);
    one_hot_b(w, f, 1, 0x3c00);  // D[m][n] = C + A[m][n + 8]
    require_d(mma_sp(f, w), {{{4, 0}, 0x4040'0000},    // D[1][0] = A[1][8] = 3
                             {{4, 1}, 0x3e80'0000},    // D[1][1] = C only
                             {{5, 0}, 0x4080'0000},    // D[1][2] = A[1][10] = 4
                             {{6, 3}, 0xbf80'0000},    // D[9][5] = A[9][13] = -1 (c3: row g+8, col 2*2+1)
                             {{7, 2}, 0x3f00'0000}},   // D[9][6] = A[9][14] = 0.5
              4);
}

TEST_CASE("mma.sp hand-made: m16n8k32 bf16, selector 1 (lanes 4g+2, 4g+3 hold the metadata)") {
    const MmaSp f{32, DType::BF16, DType::BF16, DType::F32, DType::F32, true};
    MmaSpWarp w{};
    w.selector = 1;
    // lane 1 (g 0, t 1): a4,a5 = row 0, columns 4*1+16 .. +3 = 20..23 (kept 21, 23): 1.5, -2.0
    w.a[1][2] = 0xc000'3fc0;
    // lane 2 (g 0, t 2): a2,a3 = row 8, columns 8..11 (kept 8, 11): 0.5, 3.0
    w.a[2][1] = 0x4040'3f00;
    // selector 1: lane 4g+2 covers columns 0..15, lane 4g+3 columns 16..31; low 16 bits row g,
    // high 16 bits row g+8
    fill_metadata(w, 0x4444'4444, 0x0000'0000, [](int lane) { return lane % 4 >= 2; });
    w.e[3] = 0x4444'44d4;  // row 0, chunk 5 (second nibble of lane 3): {1,3} = 0b1101
    w.e[2] = 0x4c44'4444;  // row 8, chunk 2 (bits 27..24): {0,3} = 0b1100

    one_hot_b(w, f, 2, 0x3f80);  // columns 16..23
    require_d(mma_sp(f, w), {{{2, 1}, 0x3fc0'0000},    // D[0][5] = A[0][21] = 1.5
                             {{3, 1}, 0xc000'0000}},   // D[0][7] = A[0][23] = -2
              4);
    one_hot_b(w, f, 1, 0x3f80);  // columns 8..15
    require_d(mma_sp(f, w), {{{0, 2}, 0x3f00'0000},    // D[8][0] = A[8][8] = 0.5
                             {{1, 3}, 0x4040'0000}},   // D[8][3] = A[8][11] = 3
              4);
}

TEST_CASE("mma.sp hand-made: m16n8k8 tf32, selector 3, 0b1110 keeps column 1, 0b0100 column 0, low 13 bits dropped") {
    const MmaSp f{8, DType::TF32, DType::TF32, DType::F32, DType::F32, false};
    MmaSpWarp w{};
    w.selector = 3;
    w.a[8][0] = 0x3fc0'1abc;  // lane 8 (g 2, t 0): a0 = row 2, columns 0..1: 1.5 (+ junk in bits 12..0)
    w.a[8][1] = 0xc080'0fff;  // a1 = row 10, columns 0..1: -4.0 (+ junk)
    fill_metadata(w, 0x4444'4444, 0xffff'ffff, [](int lane) { return lane % 4 == 3; });
    w.e[11] = 0x4444'444e;  // lane 4*2+3: row 2 chunk 0 = 0b1110 (column 1); row 10 chunk 0 = 0b0100 (column 0)
    one_hot_b(w, f, 0, 0x3f80'0000);
    require_d(mma_sp(f, w), {{{8, 1}, 0x3fc0'0000},    // D[2][1] = 1.5
                             {{8, 2}, 0xc080'0000}},   // D[10][0] = -4
              4);
}

TEST_CASE("mma.sp hand-made: m16n8k32 s8 x u8, selector 1, one metadata lane per row (g and g+8)") {
    const MmaSp f{32, DType::S8, DType::U8, DType::S32, DType::S32, true};
    MmaSpWarp w{};
    w.selector = 1;
    // lane 13 (g 3, t 1): a0..a3 = row 3, columns 8..15: kept 9, 10 (chunk 2), 12, 15 (chunk 3)
    w.a[13][0] = 0x8064'07fb;  // -5, 7, 100, -128
    // lane 15 (g 3, t 3): a4..a7 = row 11, columns 24..31: kept 25, 27, 28, 29
    w.a[15][1] = 0x0403'0201;  // 1, 2, 3, 4
    // selector 1: lane 4g+2 holds row g, lane 4g+3 row g+8, nibble c for chunk c (columns 4c..4c+3)
    fill_metadata(w, 0x4444'4444, 0x5555'5555, [](int lane) { return lane % 4 >= 2; });
    w.e[14] = 0x4444'c944;  // row 3: chunk 2 = {1,2} 0b1001, chunk 3 = {0,3} 0b1100
    w.e[15] = 0x4d44'4444;  // row 11: chunk 6 = {1,3} 0b1101, chunk 7 = {0,1} 0b0100
    w.c[12][1] = 1000;      // C[3][1]

    one_hot_b(w, f, 1, 0x01);  // columns 8..15
    require_d(mma_sp(f, w), {{{12, 1}, 995},           // D[3][1] = 1000 + A[3][9]
                             {{13, 0}, 7},             // D[3][2] = A[3][10]
                             {{14, 0}, 100},           // D[3][4] = A[3][12]
                             {{15, 1}, 0xffff'ff80}},  // D[3][7] = A[3][15] = -128
              4);
    one_hot_b(w, f, 3, 0x01);  // columns 24..31
    require_d(mma_sp(f, w), {{{12, 1}, 1000},
                             {{12, 3}, 1}, {{13, 3}, 2}, {{14, 2}, 3}, {{14, 3}, 4}},  // D[11][1,3,4,5]
              4);
}

TEST_CASE("mma.sp hand-made: m16n8k64 u4 x s4, 4:8 pairwise, metadata indices name pairs") {
    const MmaSp f{64, DType::U4, DType::S4, DType::S32, DType::S32, true};
    MmaSpWarp w{};
    w.selector = 0;
    // lane 1 (g 0, t 1): a0..a7 = row 0, columns 16..31: pairs 1 and 3 of chunk 2 (cols 18,19,22,23),
    // pairs 0 and 2 of chunk 3 (cols 24,25,28,29)
    w.a[1][0] = 0xf765'4321;  // 1, 2, 3, 4, 5, 6, 7, 15
    fill_metadata(w, 0x4444'4444, 0xaaaa'aaaa, [](int lane) { return lane % 4 <= 1; });
    w.e[0] = 0x4444'8d44;  // row 0: chunk 2 = pairs {1,3} 0b1101, chunk 3 = pairs {0,2} 0b1000
    one_hot_b(w, f, 2, 0xf);  // B = -1 on columns 16..23
    require_d(mma_sp(f, w), {{{1, 0}, static_cast<uint32_t>(-1)}, {{1, 1}, static_cast<uint32_t>(-2)},   // D[0][2,3]
                             {{3, 0}, static_cast<uint32_t>(-3)}, {{3, 1}, static_cast<uint32_t>(-4)}},  // D[0][6,7]
              4);
    one_hot_b(w, f, 3, 0xf);  // columns 24..31
    require_d(mma_sp(f, w), {{{0, 0}, static_cast<uint32_t>(-5)}, {{0, 1}, static_cast<uint32_t>(-6)},
                             {{2, 0}, static_cast<uint32_t>(-7)}, {{2, 1}, static_cast<uint32_t>(-15)}},
              4);
}

TEST_CASE("mma.sp hand-made: m16n8k64 e4m3 x e5m2, all four lanes of a group hold metadata") {
    const MmaSp f{64, DType::E4M3, DType::E5M2, DType::F32, DType::F32, false};
    MmaSpWarp w{};
    // lane 21 (g 5, t 1): a8..a11 = row 5, columns 8+32 .. 15+32 = 40..47: kept 41, 42, 44, 47
    w.a[21][2] = 0x017e'c430;  // 0.5, -3, 448, 2^-9
    // lane 20 (g 5, t 0): a4..a7 = row 13, columns 0..7: kept 2, 3, 4, 5
    w.a[20][1] = 0x28b8'4038;  // 1, 2, -1, 0.25
    // lane 4g: row g columns 0..31, 4g+1: row g+8 columns 0..31, 4g+2: row g columns 32..63, 4g+3: row g+8 32..63
    for (auto& e : w.e) e = 0x4444'4444;
    w.e[22] = 0x4444'c944;  // row 5: chunk 10 = {1,2}, chunk 11 = {0,3}
    w.e[21] = 0x4444'444e;  // row 13: chunk 0 = {2,3}, chunk 1 = {0,1}
    one_hot_b(w, f, 5, 0x3c);  // columns 40..47, e5m2 1.0
    require_d(mma_sp(f, w), {{{20, 1}, 0x3f00'0000}, {{21, 0}, 0xc040'0000},   // D[5][1] = 0.5, D[5][2] = -3
                             {{22, 0}, 0x43e0'0000}, {{23, 1}, 0x3b00'0000}},  // D[5][4] = 448, D[5][7] = 2^-9
              4);
    one_hot_b(w, f, 0, 0x3c);
    require_d(mma_sp(f, w), {{{21, 2}, 0x3f80'0000}, {{21, 3}, 0x4000'0000},   // D[13][2] = 1, D[13][3] = 2
                             {{22, 2}, 0xbf80'0000}, {{22, 3}, 0x3e80'0000}},  // D[13][4] = -1, D[13][5] = 0.25
              4);
}

TEST_CASE("mma.sp hand-made: kind::f8f6f4 e2m1 in the middle of its byte, e3m2 B, f16 accumulator") {
    const MmaSp f{64, DType::E2M1, DType::E3M2, DType::F16, DType::F16, true, false, Kind::F8F6F4};
    MmaSpWarp w{};
    // lane 0: a0..a3 = row 0, columns 0..7: kept 0, 3 (chunk 0) and 5, 6 (chunk 1);
    // e2m1 codes 1.5 = 0b0011, -6 = 0b1111, 0.5 = 0b0001, 4 = 0b0110 shifted into bits 5..2
    w.a[0][0] = 0x1804'3c0c;
    for (auto& e : w.e) e = 0x4444'4444;
    w.e[0] = 0x4444'449c;    // row 0: chunk 0 = {0,3} 0b1100, chunk 1 = {1,2} 0b1001
    w.c[0][0] = 0x3800;      // C[0][0] = 0.5 (f16, low half of c register 0)
    one_hot_b(w, f, 0, 0x0c);  // e3m2 1.0 = 0b001100
    require_d(mma_sp(f, w), {{{0, 0}, 0x0000'4000},    // D[0][0] = 1.5 + 0.5, D[0][1] = 0
                             {{1, 0}, 0xc600'0000},    // D[0][3] = -6 (high half)
                             {{2, 0}, 0x3800'0000},    // D[0][5] = 0.5
                             {{3, 0}, 0x0000'4400}},   // D[0][6] = 4
              2);
}

TEST_CASE("mma.sp hand-made: kind::mxf4 k128, scale_vec::2X, thread-id and byte-id pick the scales") {
    const MmaSp f{128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4, 2, DType::UE8M0};
    MmaSpWarp w{};
    // lane 4 (g 1, t 0): a24..a31 = row 9, columns 0*16+64 .. +15 = 64..79:
    // chunk 8 keeps pairs {1,2} (cols 66..69), chunk 9 pairs {0,3} (cols 72,73,78,79)
    w.a[4][3] = 0xe31a'7542;  // e2m1: 1, 2, 3, 6, -1, 0.5, 1.5, -4
    for (auto& e : w.e) e = 0x4444'4444;
    w.e[7] = 0x4444'44c9;  // lane 4g+1+2 holds row g+8 columns 64..127: chunk 8 = {1,2}, chunk 9 = {0,3}
    // thread-id-a 1: lanes 4g+2 (row g) and 4g+3 (row g+8) give SF_A; byte-id-a 2: bytes 2 (block 0)
    // and 3 (block 1, columns 64..127). Everything not selected holds 0xff (NaN) and must not be read.
    w.thread_id_a = 1; w.byte_id_a = 2;
    w.thread_id_b = 3; w.byte_id_b = 0;
    for (int lane = 0; lane < 32; ++lane) {
        w.scale_a[lane] = lane % 4 >= 2 ? 0x7f7f'ffff : 0xffff'ffff;   // 2^0 in bytes 2, 3
        w.scale_b[lane] = lane % 4 == 3 ? 0xffff'7e7f : 0xffff'ffff;   // block 0: 1, block 1: 0.5
    }
    w.scale_a[7] = 0x817f'ffff;  // SF_A[9][1] = 2^2
    one_hot_b(w, f, 8, 0x2);  // columns 64..71, e2m1 1.0; scale 4 * 0.5 = 2
    require_d(mma_sp(f, w), {{{5, 2}, 0x4000'0000}, {{5, 3}, 0x4080'0000},   // D[9][2] = 2, D[9][3] = 4
                             {{6, 2}, 0x40c0'0000}, {{6, 3}, 0x4140'0000}},  // D[9][4] = 6, D[9][5] = 12
              4);
    one_hot_b(w, f, 9, 0x2);  // columns 72..79
    require_d(mma_sp(f, w), {{{4, 2}, 0xc000'0000}, {{4, 3}, 0x3f80'0000},   // D[9][0] = -2, D[9][1] = 1
                             {{7, 2}, 0x4040'0000}, {{7, 3}, 0xc100'0000}},  // D[9][6] = 3, D[9][7] = -8
              4);
}

TEST_CASE("mma.sp hand-made: kind::mxf4nvf4 k128, scale_vec::4X ue4m3, block 3 = columns 96..127") {
    const MmaSp f{128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4NVF4, 4, DType::UE4M3};
    MmaSpWarp w{};
    // lane 2 (g 0, t 2): a16..a23 = row 0, columns 2*16+64 .. +15 = 96..111:
    // chunk 12 keeps pairs {0,1} (cols 96..99), chunk 13 pairs {2,3} (cols 108..111)
    w.a[2][2] = 0x1111'6542;  // 1, 2, 3, 4, 0.5, 0.5, 0.5, 0.5
    for (auto& e : w.e) e = 0x4444'4444;
    w.e[2] = 0x44e4'4444;  // lane 4g+2 holds row g columns 64..127: chunk 12 = {0,1}, chunk 13 = {2,3}
    w.thread_id_a = 0; w.thread_id_b = 2;
    for (int lane = 0; lane < 32; ++lane) {
        w.scale_a[lane] = lane % 4 <= 1 ? 0x3838'3838 : 0x7f7f'7f7f;  // ue4m3 1.0; 0x7f (NaN) where not selected
        w.scale_b[lane] = lane % 4 == 2 ? 0x3838'3838 : 0x7f7f'7f7f;
    }
    w.scale_a[0] = 0x4038'3838;  // SF_A[0][3] = 2.0 (byte 3)
    w.scale_b[4 * 0 + 2] = 0x3438'3838;  // SF_B[3][0] = 0.75
    w.scale_b[4 * 4 + 2] = 0x3438'3838;  // SF_B[3][4] = 0.75
    one_hot_b(w, f, 12, 0x2);  // columns 96..103; SF_B[3][n] is 0.75 for n = 0, 4 and 1 elsewhere
    require_d(mma_sp(f, w), {{{0, 0}, 0x3fc0'0000},    // D[0][0] = 1 * 2 * 0.75
                             {{0, 1}, 0x4080'0000},    // D[0][1] = 2 * 2 * 1
                             {{1, 0}, 0x40c0'0000},    // D[0][2] = 3 * 2 * 1
                             {{1, 1}, 0x4100'0000}},   // D[0][3] = 4 * 2 * 1
              4);
    one_hot_b(w, f, 13, 0x2);  // columns 104..111
    require_d(mma_sp(f, w), {{{2, 0}, 0x3f40'0000},    // D[0][4] = 0.5 * 2 * 0.75
                             {{2, 1}, 0x3f80'0000},    // D[0][5] = 0.5 * 2
                             {{3, 0}, 0x3f80'0000},    // D[0][6]
                             {{3, 1}, 0x3f80'0000}},   // D[0][7]
              4);
}

// The wgmma.mma_async.sp model on hand-made tiles: a literal 2:4 row worked out by hand, every
// type, both majornesses and every swizzle mode against a dense product, the accumulation and
// integer rules, and the reporting of undefined inputs.
#include "wgmma_tile.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace wgtest;

namespace {

constexpr uint32_t kA = 0, kB = 32768;

struct Case {
    WgmmaSp op;
    SparseA a;
    std::vector<uint32_t> b;  // N x K codes
    SharedMemory smem;
    WgmmaSpWarpgroup wg;
};

Case make_case(const WgmmaSp& op, Swizzle sa, Swizzle sb, std::mt19937& rng, int sel = 0, bool unordered = true) {
    Case c{op, random_a(op.a, rng, unordered), {}, {}, {}};
    const int k = wgmma_sp_k(op.a), kc = k / 2, bits = info(op.a).storage_bits;
    const Placement pa = make_placement(sa, op.trans_a, bits, 64, kc, kA);
    const Placement pb = make_placement(sb, op.trans_b, info(op.b).storage_bits, op.n, k, kB);
    for (int m = 0; m < 64; ++m)
        for (int j = 0; j < kc; ++j) put(c.smem, pa, m, j, c.a.code[m * kc + j]);
    std::uniform_int_distribution<int> v(-4, 4), u(0, 9);
    c.b.resize(size_t(op.n) * k);
    for (int n = 0; n < op.n; ++n)
        for (int kk = 0; kk < k; ++kk) {
            const uint32_t code = encode(op.b, op.b == DType::U8 ? u(rng) : v(rng));
            c.b[n * k + kk] = code;
            put(c.smem, pb, n, kk, code);
        }
    c.wg.a_desc = descriptor(pa).encode();
    c.wg.b_desc = descriptor(pb).encode();
    c.wg.selector = sel;
    c.wg.meta = build_meta(c.a, sel, 0);  // non-contributing threads hold 0 (invalid if read)
    for (auto& d : c.wg.d) d.assign(wgmma_d_registers(op), 0);
    return c;
}

// Compares the model's D with the dense reference (exact for these integers).
void check_against_reference(const Case& c, const std::vector<double>& d_in) {
    const WgmmaSpResult r = wgmma_sp(c.op, c.smem, c.wg);
    INFO((r.undefined.empty() ? std::string() : r.undefined.front()));
    REQUIRE(r.undefined.empty());
    const auto ref = reference(c.a, c.op.b, c.b, c.op.n, d_in, c.op.scale_a, c.op.scale_b);
    const auto got = wgmma_d_to_matrix(c.op, r.d);
    int bad = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        double g;
        if (c.op.d == DType::S32) g = static_cast<int32_t>(got[i]);
        else g = decode(c.op.d, got[i]);
        if (g != ref[i] && bad++ < 5) FAIL_CHECK("D(" << i / c.op.n << "," << i % c.op.n << ") = " << g << ", expected " << ref[i]);
    }
    CHECK(bad == 0);
}

uint32_t f32(float f) { return spmma::f32_bits(f); }

}  // namespace

TEST_CASE("wgmma.sp: one f16 row worked out by hand lands in the documented thread and register", "[wgmma][model]") {
    // Row 5 of A (K = 32): chunk 0 = [0, 2, 0, -1] (indices 1, 3: metadata 0b1101),
    // chunk 1 = [0.5, 0, 3, 0] (indices 0, 2: 0b1000); every other element 0 (indices 0,1).
    // B(k, n) = k + 1 + 100 n. D(5, 0) = 2*2 - 1*4 + 0.5*5 + 3*7 = 23.5;
    // D(5, 1) = 2*102 - 104 + 0.5*105 + 3*107 = 473.5.
    WgmmaSp op;
    op.n = 8;
    SharedMemory smem;
    const Placement pa = make_placement(Swizzle::None, false, 16, 64, 16, kA);
    const Placement pb = make_placement(Swizzle::None, false, 16, 8, 32, kB);
    put(smem, pa, 5, 0, encode(DType::F16, 2.0));
    put(smem, pa, 5, 1, encode(DType::F16, -1.0));
    put(smem, pa, 5, 2, encode(DType::F16, 0.5));
    put(smem, pa, 5, 3, encode(DType::F16, 3.0));
    for (int n = 0; n < 8; ++n)
        for (int k = 0; k < 32; ++k) put(smem, pb, n, k, encode(DType::F16, k + 1 + 100 * n));
    WgmmaSpWarpgroup wg;
    wg.a_desc = descriptor(pa).encode();
    wg.b_desc = descriptor(pb).encode();
    wg.selector = 0;
    // Every contributing thread: all chunks 0b0100 (indices 0, 1). Row 5 is group 5 of warp 0,
    // K 0..15 in thread 4*5 + 0 = 20, bits 15..0 (row 5 < 8): chunk 0 bits 3..0, chunk 1 7..4.
    for (int t = 0; t < 128; ++t) wg.meta[t] = 0x44444444;
    wg.meta[20] = 0x44444400 | 0x8D;
    for (auto& d : wg.d) d.assign(4, 0);
    const WgmmaSpResult r = wgmma_sp(op, smem, wg);
    REQUIRE(r.undefined.empty());
    // D(5, 0): warp 0, lane 4*5 + 0 = 20, register 0; D(5, 1): same thread, register 1.
    CHECK(r.d[20][0] == f32(23.5f));
    CHECK(r.d[20][1] == f32(473.5f));
    // D(5, 2..3) are registers 0..1 of lane 21; D(13, 0) (row g + 8) is register 2 of lane 20.
    CHECK(r.d[21][0] == f32(923.5f));  // D(5, 2) = 2*202 - 204 + 0.5*205 + 3*207
    CHECK(r.d[20][2] == 0);
    int nonzero_threads = 0;
    for (int t = 0; t < 128; ++t)
        for (uint32_t x : r.d[t]) nonzero_threads += x != 0;
    CHECK(nonzero_threads == 8);  // row 5, eight columns: lanes 20..23, registers 0 and 1
}

TEST_CASE("wgmma.sp: the D fragment map matches the dense wgmma figure", "[wgmma][fragment]") {
    CHECK(wgmma_d_coord(0, 0).row == 0);
    CHECK(wgmma_d_coord(0, 1).col == 1);
    CHECK(wgmma_d_coord(0, 2).row == 8);
    CHECK(wgmma_d_coord(0, 4).col == 8);
    CHECK(wgmma_d_coord(5, 0).col == 2);   // threadID_in_group 1 -> columns 2, 3
    CHECK(wgmma_d_coord(5, 0).row == 1);   // groupID 1
    CHECK(wgmma_d_coord(37, 3).row == 16 + 1 + 8);
    CHECK(wgmma_d_coord(37, 3).col == 2 + 1);
    CHECK(wgmma_d_coord(127, 127).row == 48 + 7 + 8);
    CHECK(wgmma_d_coord(127, 127).col == 8 * 31 + 6 + 1);
    WgmmaSp op;
    op.n = 16;
    op.d = DType::F16;
    std::vector<uint32_t> m(64 * 16);
    for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<uint32_t>(i);
    const auto d = wgmma_d_from_matrix(op, m);
    CHECK(d[0].size() == 4);
    CHECK(d[0][0] == (0u | (1u << 16)));             // D(0,0) low half, D(0,1) high half
    CHECK(d[0][1] == ((8u * 16) | ((8u * 16 + 1) << 16)));  // D(8,0), D(8,1)
    CHECK(wgmma_d_to_matrix(op, d) == m);
}

TEST_CASE("wgmma.sp: every type and swizzle mode, K-major, against the dense product", "[wgmma][model]") {
    std::mt19937 rng(1234);
    struct T { DType a, b, d; };
    const T types[] = {{DType::F16, DType::F16, DType::F32}, {DType::F16, DType::F16, DType::F16},
                       {DType::BF16, DType::BF16, DType::F32}, {DType::TF32, DType::TF32, DType::F32},
                       {DType::E4M3, DType::E5M2, DType::F32}, {DType::E5M2, DType::E4M3, DType::F16},
                       {DType::E4M3, DType::E4M3, DType::F32}, {DType::S8, DType::U8, DType::S32},
                       {DType::U8, DType::S8, DType::S32}, {DType::S8, DType::S8, DType::S32}};
    // B is 64 bytes along K: the 32-byte swizzle cannot hold it K-major.
    const Swizzle a_modes[] = {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128};
    const Swizzle b_modes[] = {Swizzle::None, Swizzle::B64, Swizzle::B128};
    for (const T& t : types)
        for (Swizzle sa : a_modes)
            for (Swizzle sb : b_modes)
                for (int n : {8, 48, 256}) {
                    WgmmaSp op;
                    op.a = t.a; op.b = t.b; op.d = t.d; op.n = n;
                    for (int sel : {0, 1}) {
                        if (sel == 1 && info(t.a).bits == 8) continue;
                        DYNAMIC_SECTION(name(t.a) << "." << name(t.b) << "->" << name(t.d) << " A " << name(sa) << " B " << name(sb)
                                                  << " N " << n << " sel " << sel) {
                            Case c = make_case(op, sa, sb, rng, sel);
                            check_against_reference(c, {});
                        }
                    }
                }
}

TEST_CASE("wgmma.sp: MN-major A and B (imm-trans) in every swizzle mode", "[wgmma][model]") {
    std::mt19937 rng(99);
    const Swizzle modes[] = {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128};
    for (DType t : {DType::F16, DType::BF16})
        for (Swizzle sa : modes)
            for (Swizzle sb : modes)
                for (int ta : {0, 1})
                    for (int tb : {0, 1}) {
                        if (!ta && !tb) continue;
                        if (!tb && sb == Swizzle::B32) continue;
                        WgmmaSp op;
                        op.a = op.b = t;
                        op.n = 64;
                        op.trans_a = ta;
                        op.trans_b = tb;
                        DYNAMIC_SECTION(name(t) << " trans " << ta << tb << " A " << name(sa) << " B " << name(sb)) {
                            Case c = make_case(op, sa, sb, rng);
                            check_against_reference(c, {});
                        }
                    }
}

TEST_CASE("wgmma.sp: scale-d adds the input D, imm-scale negates", "[wgmma][model]") {
    std::mt19937 rng(5);
    WgmmaSp op;
    op.n = 16;
    op.scale_a = -1;
    op.scale_b = -1;
    Case c = make_case(op, Swizzle::B128, Swizzle::B128, rng);
    check_against_reference(c, {});
    op.scale_b = 1;
    c.op = op;
    check_against_reference(c, {});
    std::vector<double> d_in(64 * 16);
    std::vector<uint32_t> din_codes(64 * 16);
    for (size_t i = 0; i < d_in.size(); ++i) {
        d_in[i] = static_cast<double>(static_cast<int>(i % 13) - 6);
        din_codes[i] = f32(static_cast<float>(d_in[i]));
    }
    c.wg.d = wgmma_d_from_matrix(op, din_codes);
    check_against_reference(c, d_in);
    c.op.scale_d = false;  // D = A*B: the input is ignored
    check_against_reference(c, {});
}

TEST_CASE("wgmma.sp: f32 accumulation is one rounding of the exact sum", "[wgmma][arith]") {
    // D(0,0) = 1 + 2^-24 + 2^-24 = 1 + 2^-23 exactly (representable); adding in order with a
    // rounding after each step would give 1.
    WgmmaSp op;
    op.n = 8;
    SharedMemory smem;
    const Placement pa = make_placement(Swizzle::None, false, 16, 64, 16, kA);
    const Placement pb = make_placement(Swizzle::None, false, 16, 8, 32, kB);
    put(smem, pa, 0, 0, encode(DType::F16, 0x1p-12));
    put(smem, pa, 0, 1, encode(DType::F16, 0x1p-12));
    put(smem, pb, 0, 0, encode(DType::F16, 0x1p-12));
    put(smem, pb, 0, 1, encode(DType::F16, 0x1p-12));
    WgmmaSpWarpgroup wg;
    wg.a_desc = descriptor(pa).encode();
    wg.b_desc = descriptor(pb).encode();
    wg.meta.fill(0x44444444);
    for (auto& d : wg.d) d.assign(4, 0);
    wg.d[0][0] = f32(1.0f);
    const WgmmaSpResult r = wgmma_sp(op, smem, wg);
    REQUIRE(r.undefined.empty());
    CHECK(r.d[0][0] == f32(1.0f + 0x1p-23f));
}

TEST_CASE("wgmma.sp: tf32 drops the low 13 bits of its operands", "[wgmma][arith]") {
    WgmmaSp op;
    op.a = op.b = DType::TF32;
    op.n = 8;
    SharedMemory smem;
    const Placement pa = make_placement(Swizzle::B32, false, 32, 64, 8, kA);
    const Placement pb = make_placement(Swizzle::B64, false, 32, 8, 16, kB);
    put(smem, pa, 0, 0, 0x3f801fffu);  // 1 + (2^13 - 1) 2^-23: 1.0 after the drop
    put(smem, pb, 0, 1, 0x40002000u);  // 2 + 2^-9 (bit 13 is kept)
    WgmmaSpWarpgroup wg;
    wg.a_desc = descriptor(pa).encode();
    wg.b_desc = descriptor(pb).encode();
    wg.meta.fill(0x44444444);
    wg.meta[0] = 0x4444444E;  // row 0 chunk 0: position 1 -> A(0,1) = 1.0
    for (auto& d : wg.d) d.assign(4, 0);
    const WgmmaSpResult r = wgmma_sp(op, smem, wg);
    REQUIRE(r.undefined.empty());
    CHECK(r.d[0][0] == f32(2.0f + 0x1p-9f));
}

TEST_CASE("wgmma.sp: s32 wraps, or clamps with .satfinite", "[wgmma][arith]") {
    WgmmaSp op;
    op.a = op.b = DType::S8;
    op.d = DType::S32;
    op.n = 8;
    SharedMemory smem;
    const Placement pa = make_placement(Swizzle::None, false, 8, 64, 32, kA);
    const Placement pb = make_placement(Swizzle::None, false, 8, 8, 64, kB);
    put(smem, pa, 0, 0, encode(DType::S8, 1));
    put(smem, pb, 0, 0, encode(DType::S8, 2));
    WgmmaSpWarpgroup wg;
    wg.a_desc = descriptor(pa).encode();
    wg.b_desc = descriptor(pb).encode();
    wg.meta.fill(0x44444444);
    for (auto& d : wg.d) d.assign(4, 0);
    wg.d[0][0] = 0x7fffffffu;
    WgmmaSpResult r = wgmma_sp(op, smem, wg);
    REQUIRE(r.undefined.empty());
    CHECK(r.d[0][0] == 0x80000001u);
    op.satfinite = true;
    r = wgmma_sp(op, smem, wg);
    CHECK(r.d[0][0] == 0x7fffffffu);
}

TEST_CASE("wgmma.sp: threads the selector does not name are ignored, named ones are checked", "[wgmma][undefined]") {
    std::mt19937 rng(3);
    WgmmaSp op;
    op.n = 8;
    Case c = make_case(op, Swizzle::B64, Swizzle::B64, rng, 1);
    // Threads 0, 1 of each group hold 0 (all-invalid metadata) but selector 1 names threads 2, 3.
    check_against_reference(c, {});
    // Make one named thread's chunk invalid (both indices equal): reported once.
    c.wg.meta[2] = (c.wg.meta[2] & ~0xf0u) | 0x50u;
    const WgmmaSpResult r = wgmma_sp(c.op, c.smem, c.wg);
    REQUIRE(r.undefined.size() == 1);
    CHECK(r.undefined[0].find("thread 2") != std::string::npos);
}

TEST_CASE("wgmma.sp: each invalid 2:4 metadata value is reported, and every tf32 value but two", "[wgmma][undefined]") {
    std::mt19937 rng(4);
    WgmmaSp op;
    op.n = 8;
    Case c = make_case(op, Swizzle::None, Swizzle::None, rng, 0);
    for (uint32_t bad : {0x0u, 0x5u, 0xAu, 0xFu}) {
        auto wg = c.wg;
        wg.meta[0] = (wg.meta[0] & ~0xfu) | bad;
        CHECK(wgmma_sp(c.op, c.smem, wg).undefined.size() == 1);
    }
    for (uint32_t ok : {0x1u, 0x4u, 0x6u, 0x9u, 0xBu, 0xEu}) {  // distinct indices, either order
        auto wg = c.wg;
        wg.meta[0] = (wg.meta[0] & ~0xfu) | ok;
        CHECK(wgmma_sp(c.op, c.smem, wg).undefined.empty());
    }
    WgmmaSp tf;
    tf.a = tf.b = DType::TF32;
    tf.n = 8;
    Case t = make_case(tf, Swizzle::None, Swizzle::None, rng, 0);
    for (uint32_t v = 0; v < 16; ++v) {
        auto wg = t.wg;
        wg.meta[0] = (wg.meta[0] & ~0xfu) | v;
        CHECK(wgmma_sp(t.op, t.smem, wg).undefined.size() == ((v == 0x4 || v == 0xE) ? 0u : 1u));
    }
}

TEST_CASE("wgmma.sp: a selector the shape forbids is reported and nothing is computed", "[wgmma][undefined]") {
    std::mt19937 rng(8);
    WgmmaSp op;
    op.n = 8;
    Case c = make_case(op, Swizzle::None, Swizzle::None, rng, 0);
    for (auto& d : c.wg.d) d.assign(4, 0x12345678u);
    for (int sel : {2, 3}) {
        c.wg.selector = sel;
        const WgmmaSpResult r = wgmma_sp(c.op, c.smem, c.wg);
        CHECK(r.undefined.size() == 1);
        CHECK(r.d == c.wg.d);
    }
    WgmmaSp i8;
    i8.a = i8.b = DType::S8;
    i8.d = DType::S32;
    i8.n = 8;
    Case ci = make_case(i8, Swizzle::None, Swizzle::None, rng, 0);
    ci.wg.selector = 1;
    CHECK(wgmma_sp(ci.op, ci.smem, ci.wg).undefined.size() == 1);
}

TEST_CASE("wgmma.sp: illegal qualifier combinations and descriptors are reported", "[wgmma][undefined]") {
    std::mt19937 rng(9);
    WgmmaSp base;
    base.a = base.b = DType::TF32;
    base.n = 8;
    Case c = make_case(base, Swizzle::None, Swizzle::None, rng, 0);
    auto bad = [&](WgmmaSp op) { return !wgmma_sp(op, c.smem, c.wg).undefined.empty(); };
    WgmmaSp op = base;
    op.trans_a = 1;  // transpose only for f16/bf16
    CHECK(bad(op));
    op = base;
    op.d = DType::F16;  // tf32 accumulates in f32 only
    CHECK(bad(op));
    op = base;
    op.satfinite = true;
    CHECK(bad(op));
    op = base;
    op.scale_a = 2;
    CHECK(bad(op));
    CHECK_FALSE(bad(base));
    // The integer shapes skip N = 40, 56, 72, ...
    WgmmaSp i8;
    i8.a = i8.b = DType::U8;
    i8.d = DType::S32;
    i8.n = 40;
    Case ci = make_case(i8, Swizzle::None, Swizzle::None, rng, 0);
    CHECK_FALSE(wgmma_sp(ci.op, ci.smem, ci.wg).undefined.empty());
    // Reserved descriptor bits and an operand that runs past shared memory.
    auto wg = c.wg;
    wg.a_desc |= 1ull << 15;
    CHECK(wgmma_sp(base, c.smem, wg).undefined.size() == 1);
    wg = c.wg;
    WgmmaDescriptor d = WgmmaDescriptor::decode(wg.b_desc);
    d.start_address = 0x38F00;
    wg.b_desc = d.encode();
    CHECK_FALSE(wgmma_sp(base, c.smem, wg).undefined.empty());
}

TEST_CASE("wgmma.sp: a descriptor advanced along K inside a 128B swizzle row reads the next K slice", "[wgmma][model]") {
    // A tile 64 x 64 stored (f16, 128-byte rows, 128B swizzle) holds two k32 instructions' worth
    // of A; the second instruction's descriptor starts 32 bytes further (stored columns 16..31),
    // the swizzle still taken from the absolute address.
    std::mt19937 rng(21);
    WgmmaSp op;
    op.n = 16;
    Case c = make_case(op, Swizzle::B128, Swizzle::B128, rng);
    SparseA wide = random_a(DType::F16, rng, true);  // stored columns 16..31 of the wide tile
    const Placement pw = make_placement(Swizzle::B128, false, 16, 64, 32, kA);
    for (int m = 0; m < 64; ++m)
        for (int j = 0; j < 16; ++j) {
            put(c.smem, pw, m, j, c.a.code[m * 16 + j] ^ 0x0400u);  // columns 0..15: not read
            put(c.smem, pw, m, 16 + j, wide.code[m * 16 + j]);
        }
    WgmmaDescriptor d = descriptor(pw);
    d.start_address += 32;
    c.wg.a_desc = d.encode();
    c.a = wide;
    c.wg.meta = build_meta(wide, 0, 0);
    check_against_reference(c, {});
}

// The tcgen05.mma.sp model on hand-made tiles: one row worked out by hand at literal lanes,
// every kind (block-scaled ones included), swizzle mode and majorness against a dense product
// written in the test, the accumulate options, and the reporting of undefined inputs.
#include "tcgen05_tile.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tctest;

namespace {

constexpr uint32_t kA = 0, kB = 32768;
constexpr int kMetaCol = 256, kSfaCol = 300, kSfbCol = 310;

struct Config {
    Tcgen05Kind kind = Tcgen05Kind::F16;
    DType a = DType::F16, b = DType::F16, d = DType::F32;
    int n = 8;
    Swizzle sa = Swizzle::None, sb = Swizzle::None;
    bool ta = false, tb = false;
    ScaleVec sv = ScaleVec::None;
    DType scale = DType::UE8M0;
    int sfa_id = 0, sfb_id = 0;
    int selector = 0;
    bool saturate = false;
};

struct Case {
    Config cfg;
    SparseA a;
    std::vector<uint32_t> b;  // N x K codes
    std::vector<uint8_t> sfa, sfb;
    int nsf = 0;
    SharedMemory smem;
    TensorMemory tmem;
    uint64_t a_desc = 0, b_desc = 0;
    uint32_t idesc = 0;
    Tcgen05MmaSp op;
};

int nsf_of(ScaleVec v) { return v == ScaleVec::X1 ? 1 : v == ScaleVec::X2 ? 2 : v == ScaleVec::X4 ? 4 : 0; }

Case make_case(const Config& cfg, std::mt19937& rng) {
    Case c{cfg, random_a(cfg.kind, cfg.a, rng), {}, {}, {}, nsf_of(cfg.sv), {}, {}, 0, 0, 0, {}};
    const int k = tcgen05_sp_k(cfg.kind), kc = k / 2;
    const Placement pa = make_placement(cfg.kind, cfg.a, cfg.sa, cfg.ta, 128, kc, kA);
    const Placement pb = make_placement(cfg.kind, cfg.b, cfg.sb, cfg.tb, cfg.n, k, kB);
    for (int m = 0; m < 128; ++m)
        for (int j = 0; j < kc; ++j) put(c.smem, pa, m, j, c.a.code[m * kc + j]);
    c.b.resize(size_t(cfg.n) * k);
    for (int n = 0; n < cfg.n; ++n)
        for (int kk = 0; kk < k; ++kk) {
            const uint32_t code = encode(cfg.b, small_int(cfg.b, rng));
            c.b[n * k + kk] = code;
            put(c.smem, pb, n, kk, code);
        }
    c.a_desc = descriptor(pa);
    c.b_desc = descriptor(pb);
    write_meta(c.tmem, c.a, kMetaCol + cfg.selector);
    if (c.nsf) {
        auto scale_code = [&]() -> uint8_t {
            if (cfg.scale == DType::UE8M0) return static_cast<uint8_t>(125 + rng() % 5);  // 2^-2 .. 2^2
            static const double v[] = {0.5, 1.0, 1.5, 2.0};
            return static_cast<uint8_t>(encode(DType::UE4M3, v[rng() % 4]));
        };
        c.sfa.resize(128 * c.nsf);
        c.sfb.resize(size_t(cfg.n) * c.nsf);
        for (auto& x : c.sfa) x = scale_code();
        for (auto& x : c.sfb) x = scale_code();
        write_scales(c.tmem, c.sfa, 128, c.nsf, kSfaCol, cfg.sfa_id);
        write_scales(c.tmem, c.sfb, cfg.n, c.nsf, kSfbCol, cfg.sfb_id);
    }
    InstrDescriptor id;
    id.sparse = true;
    id.sparsity_selector = is_block_scaled(cfg.kind) ? 0 : cfg.selector;
    id.a = cfg.a;
    id.b = cfg.b;
    id.d = cfg.d;
    id.n = cfg.n;
    id.m = 128;
    id.transpose_a = cfg.ta;
    id.transpose_b = cfg.tb;
    id.saturate = cfg.saturate;
    id.scale_type = cfg.scale;
    id.scale_a_id = cfg.sfa_id;
    id.scale_b_id = cfg.sfb_id;
    c.idesc = id.encode(cfg.kind);
    c.op.kind = cfg.kind;
    c.op.scale_vec = cfg.sv;
    return c;
}

std::vector<std::string> run(Case& c) {
    return tcgen05_mma_sp(c.op, c.smem, c.tmem, tmem_address(0, 0), c.a_desc, c.b_desc, tmem_address(0, kMetaCol), c.idesc,
                          tmem_address(0, kSfaCol), tmem_address(0, kSfbCol));
}

// Dense reference: D(m,n) = sum_k A(m,k) sA(m, k/bk) B(k,n) sB(n, k/bk) (+ D_in 2^-s), with A
// expanded from its stored values and positions.
struct Dense {
    int k = 0, n = 0, nsf = 0;
    std::vector<double> a, b, sa, sb;  // 128 x k, n x k, 128 x nsf, n x nsf
};

Dense dense_of(const Case& c) {
    Dense d;
    d.k = c.a.k;
    d.n = c.cfg.n;
    d.nsf = c.nsf;
    const int kc = d.k / 2;
    d.a.assign(size_t(128) * d.k, 0.0);
    for (int m = 0; m < 128; ++m)
        for (int j = 0; j < kc; ++j) d.a[size_t(m) * d.k + c.a.pos[m * kc + j]] = decode(c.a.type, c.a.code[m * kc + j]);
    d.b.resize(c.b.size());
    for (size_t i = 0; i < c.b.size(); ++i) d.b[i] = decode(c.cfg.b, c.b[i]);
    for (uint8_t x : c.sfa) d.sa.push_back(decode(c.cfg.scale, x));
    for (uint8_t x : c.sfb) d.sb.push_back(decode(c.cfg.scale, x));
    return d;
}

double reference(const Dense& d, int m, int n, double d_in) {
    double s = d_in;
    for (int kk = 0; kk < d.k; ++kk) {
        double t = d.a[size_t(m) * d.k + kk] * d.b[size_t(n) * d.k + kk];
        if (d.nsf) {
            const int i = kk / (d.k / d.nsf);
            t *= d.sa[size_t(m) * d.nsf + i] * d.sb[size_t(n) * d.nsf + i];
        }
        s += t;
    }
    return s;
}

double reference(const Case& c, int m, int n, double d_in) { return reference(dense_of(c), m, n, d_in); }

void check_d(const Case& c, const std::vector<double>& d_in = {}) {
    const Dense dense = dense_of(c);
    int bad = 0;
    for (int m = 0; m < 128; ++m)
        for (int n = 0; n < c.cfg.n; ++n) {
            const uint32_t cell = c.tmem.at(m, n);
            double got;
            if (c.cfg.d == DType::S32) got = static_cast<int32_t>(cell);
            else if (c.cfg.d == DType::F16) {
                got = decode(DType::F16, cell & 0xffff);
                if (cell >> 16) ++bad;
            } else got = decode(DType::F32, cell);
            const double want = reference(dense, m, n, d_in.empty() ? 0.0 : d_in[m * c.cfg.n + n]);
            if (got != want && bad++ < 5) FAIL_CHECK("D(" << m << "," << n << ") = " << got << ", expected " << want);
        }
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("tcgen05.sp: one f16 row worked out by hand, metadata at literal lanes and bits", "[tcgen05][model]") {
    // Row 37, chunk 0 = [0, 2, 0, -1] (indices 1, 3 -> 0b1101), chunk 5 = [0, 0, 3, 0.5]... stored as
    // 0.5 at k = 22 then 3 at k = 21 (indices 2, 1 -> 0b0110, a listed meaningful value).
    // Metadata of row 37 (16*2 + 5): chunks 0..3 in lane 5 + 0 + 32 = 37, chunks 4..7 in lane 45;
    // row 37 is in the low half ((37/8)%2 == 0): chunk c at bits 4*(c%4).
    // B(k, n) = k + 1 + 10 n: D(37, 0) = 2*2 - 4 + 0.5*23 + 3*22 = 77.5; D(37, 1) = 122.5.
    Config cfg;
    cfg.n = 8;
    Case c;
    c.cfg = cfg;
    const Placement pa = make_placement(cfg.kind, DType::F16, Swizzle::None, false, 128, 16, kA);
    const Placement pb = make_placement(cfg.kind, DType::F16, Swizzle::None, false, 8, 32, kB);
    put(c.smem, pa, 37, 0, encode(DType::F16, 2.0));
    put(c.smem, pa, 37, 1, encode(DType::F16, -1.0));
    put(c.smem, pa, 37, 10, encode(DType::F16, 0.5));
    put(c.smem, pa, 37, 11, encode(DType::F16, 3.0));
    for (int n = 0; n < 8; ++n)
        for (int k = 0; k < 32; ++k) put(c.smem, pb, n, k, encode(DType::F16, k + 1 + 10 * n));
    for (int lane = 0; lane < 128; ++lane) c.tmem.at(lane, kMetaCol) = 0x44444444;
    c.tmem.at(37, kMetaCol) = 0x4444444D;
    c.tmem.at(45, kMetaCol) = 0x44444464;
    c.a_desc = descriptor(pa);
    c.b_desc = descriptor(pb);
    c.idesc = 0x08000000u | (1u << 17) | (1u << 4) | 0x4u;  // M 128, N 8, f32 <- f16 x f16, sparse
    c.op.kind = Tcgen05Kind::F16;
    c.tmem.at(37, 2) = 0xdeadbeef;  // overwritten: enable-input-d is false
    REQUIRE(run(c).empty());
    CHECK(c.tmem.at(37, 0) == f32_bits(77.5f));
    CHECK(c.tmem.at(37, 1) == f32_bits(122.5f));
    CHECK(c.tmem.at(37, 2) == f32_bits(167.5f));
    CHECK(c.tmem.at(36, 0) == 0);
    CHECK(c.tmem.at(37, 8) == 0);  // N = 8: column 8 untouched
}

TEST_CASE("tcgen05.sp: every kind, type and swizzle mode, K-major, against the dense product", "[tcgen05][model]") {
    std::mt19937 rng(2024);
    std::vector<Config> cfgs;
    auto add = [&](Tcgen05Kind k, DType a, DType b, DType d, ScaleVec sv = ScaleVec::None, DType sc = DType::UE8M0, int ida = 0, int idb = 0) {
        Config c;
        c.kind = k; c.a = a; c.b = b; c.d = d; c.sv = sv; c.scale = sc; c.sfa_id = ida; c.sfb_id = idb;
        cfgs.push_back(c);
    };
    add(Tcgen05Kind::F16, DType::F16, DType::F16, DType::F32);
    add(Tcgen05Kind::F16, DType::F16, DType::F16, DType::F16);
    add(Tcgen05Kind::F16, DType::BF16, DType::BF16, DType::F32);
    add(Tcgen05Kind::TF32, DType::TF32, DType::TF32, DType::F32);
    add(Tcgen05Kind::F8F6F4, DType::E4M3, DType::E5M2, DType::F32);
    add(Tcgen05Kind::F8F6F4, DType::E2M1, DType::E3M2, DType::F16);
    add(Tcgen05Kind::F8F6F4, DType::E2M3, DType::E2M1, DType::F32);
    add(Tcgen05Kind::I8, DType::S8, DType::U8, DType::S32);
    add(Tcgen05Kind::I8, DType::U8, DType::S8, DType::S32);
    add(Tcgen05Kind::MXF8F6F4, DType::E4M3, DType::E2M1, DType::F32, ScaleVec::X1, DType::UE8M0, 3, 1);
    add(Tcgen05Kind::MXF8F6F4, DType::E3M2, DType::E2M3, DType::F32, ScaleVec::X1, DType::UE8M0, 0, 2);
    add(Tcgen05Kind::MXF4, DType::E2M1, DType::E2M1, DType::F32, ScaleVec::X2, DType::UE8M0, 2, 0);
    add(Tcgen05Kind::MXF4NVF4, DType::E2M1, DType::E2M1, DType::F32, ScaleVec::X4, DType::UE4M3);
    add(Tcgen05Kind::MXF4NVF4, DType::E2M1, DType::E2M1, DType::F32, ScaleVec::X4, DType::UE8M0);
    add(Tcgen05Kind::MXF4NVF4, DType::E2M1, DType::E2M1, DType::F32, ScaleVec::X2, DType::UE8M0, 0, 2);
    const Swizzle a_modes[] = {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128};
    const Swizzle b_modes[] = {Swizzle::None, Swizzle::B64, Swizzle::B128};
    for (Config cfg : cfgs)
        for (Swizzle sa : a_modes)
            for (Swizzle sb : b_modes)
                for (int n : {8, 48, 256})
                    for (int sel : {0, 1}) {
                        if (sel && !(cfg.kind == Tcgen05Kind::F16 || cfg.kind == Tcgen05Kind::TF32)) continue;
                        cfg.sa = sa; cfg.sb = sb; cfg.n = n; cfg.selector = sel;
                        DYNAMIC_SECTION(name(cfg.kind) << " " << name(cfg.a) << "x" << name(cfg.b) << "->" << name(cfg.d) << " A " << name(sa)
                                                       << " B " << name(sb) << " N " << n << " sel " << sel) {
                            Case c = make_case(cfg, rng);
                            const auto u = run(c);
                            INFO((u.empty() ? std::string() : u.front()));
                            REQUIRE(u.empty());
                            check_d(c);
                        }
                    }
}

TEST_CASE("tcgen05.sp: MN-major A and B (idesc transpose) for 16- and 8-bit types", "[tcgen05][model]") {
    std::mt19937 rng(77);
    struct T { Tcgen05Kind k; DType a, b, d; };
    const T types[] = {{Tcgen05Kind::F16, DType::BF16, DType::BF16, DType::F32},
                       {Tcgen05Kind::I8, DType::S8, DType::S8, DType::S32},
                       {Tcgen05Kind::F8F6F4, DType::E4M3, DType::E5M2, DType::F32},
                       {Tcgen05Kind::MXF8F6F4, DType::E5M2, DType::E4M3, DType::F32}};
    const Swizzle modes[] = {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128};
    for (const T& t : types)
        for (Swizzle sa : modes)
            for (Swizzle sb : modes)
                for (int tr = 1; tr < 4; ++tr) {
                    Config cfg;
                    cfg.kind = t.k; cfg.a = t.a; cfg.b = t.b; cfg.d = t.d;
                    cfg.n = 128;
                    cfg.sa = sa; cfg.sb = sb;
                    cfg.ta = tr & 1; cfg.tb = tr & 2;
                    if (!cfg.tb && sb == Swizzle::B32) continue;  // 64 bytes of K in a 32-byte row
                    if (t.k == Tcgen05Kind::MXF8F6F4) cfg.sv = ScaleVec::X1;
                    DYNAMIC_SECTION(name(t.k) << " " << name(t.a) << " trans " << tr << " A " << name(sa) << " B " << name(sb)) {
                        Case c = make_case(cfg, rng);
                        const auto u = run(c);
                        INFO((u.empty() ? std::string() : u.front()));
                        REQUIRE(u.empty());
                        check_d(c);
                    }
                }
}

TEST_CASE("tcgen05.sp: enable-input-d, scale-input-d, saturate, disable-output-lane", "[tcgen05][model]") {
    std::mt19937 rng(5);
    Config cfg;
    cfg.n = 16;
    Case c = make_case(cfg, rng);
    std::vector<double> d_in(128 * 16);
    for (int m = 0; m < 128; ++m)
        for (int n = 0; n < 16; ++n) {
            d_in[m * 16 + n] = (m * 7 + n) % 11 - 5;
            c.tmem.at(m, n) = f32_bits(static_cast<float>(d_in[m * 16 + n]));
        }
    c.op.enable_input_d = true;
    c.op.scale_input_d = 2;  // D = A*B + D / 4
    REQUIRE(run(c).empty());
    for (auto& v : d_in) v /= 4;
    check_d(c, d_in);
    // Lanes 3 and 100 are not written.
    c.op.enable_input_d = false;
    c.op.scale_input_d = 0;
    c.op.disable_output_lane[0] = 1u << 3;
    c.op.disable_output_lane[3] = 1u << 4;
    for (int n = 0; n < 16; ++n) c.tmem.at(3, n) = c.tmem.at(100, n) = 0x11111111u;
    REQUIRE(run(c).empty());
    CHECK(c.tmem.at(3, 5) == 0x11111111u);
    CHECK(c.tmem.at(100, 15) == 0x11111111u);
    CHECK(c.tmem.at(4, 5) == f32_bits(static_cast<float>(reference(c, 4, 5, 0))));
    // s32 saturation.
    Config i8;
    i8.kind = Tcgen05Kind::I8; i8.a = DType::S8; i8.b = DType::S8; i8.d = DType::S32; i8.n = 8; i8.saturate = true;
    Case s = make_case(i8, rng);
    for (int m = 0; m < 128; ++m) s.tmem.at(m, 0) = 0x7fffff00u;
    s.op.enable_input_d = true;
    REQUIRE(run(s).empty());
    for (int m = 0; m < 128; ++m) {
        const double want = reference(s, m, 0, 0x7fffff00);
        CHECK(s.tmem.at(m, 0) == static_cast<uint32_t>(static_cast<int32_t>(std::min(want, 2147483647.0))));
    }
}

TEST_CASE("tcgen05.sp: the sparsity selector moves kind::f16 metadata by whole columns", "[tcgen05][undefined]") {
    std::mt19937 rng(6);
    Config cfg;
    cfg.selector = 1;  // metadata written at kMetaCol + 1
    Case c = make_case(cfg, rng);
    REQUIRE(run(c).empty());
    check_d(c);
    // Selector 0 reads column kMetaCol, which holds zeros: 0b0000 is not meaningful.
    InstrDescriptor id = InstrDescriptor::decode(c.idesc, cfg.kind);
    id.sparsity_selector = 0;
    c.idesc = id.encode(cfg.kind);
    const auto u = run(c);
    CHECK_FALSE(u.empty());
}

TEST_CASE("tcgen05.sp: only the metadata values the PTX text lists are accepted", "[tcgen05][undefined]") {
    std::mt19937 rng(7);
    Config cfg;
    Case c = make_case(cfg, rng);
    const uint32_t saved = c.tmem.at(0, kMetaCol);
    for (uint32_t v = 0; v < 16; ++v) {
        c.tmem.at(0, kMetaCol) = (saved & ~0xfu) | v;
        const bool meaningful = v == 0x4 || v == 0x8 || v == 0xC || v == 0x9 || v == 0xD || v == 0x6 || v == 0xE;
        CHECK(run(c).empty() == meaningful);
    }
    Config tf;
    tf.kind = Tcgen05Kind::TF32; tf.a = tf.b = DType::TF32;
    Case t = make_case(tf, rng);
    const uint32_t ts = t.tmem.at(0, kMetaCol);
    for (uint32_t v = 0; v < 16; ++v) {
        t.tmem.at(0, kMetaCol) = (ts & ~0xfu) | v;
        CHECK(run(t).empty() == (v == 0x4 || v == 0xE));
    }
}

TEST_CASE("tcgen05.sp: scales missing from a 32-lane partition are reported", "[tcgen05][undefined]") {
    std::mt19937 rng(8);
    Config cfg;
    cfg.kind = Tcgen05Kind::MXF8F6F4; cfg.a = DType::E4M3; cfg.b = DType::E4M3; cfg.sv = ScaleVec::X1;
    Case c = make_case(cfg, rng);
    REQUIRE(run(c).empty());
    c.tmem.at(64 + 5, kSfbCol) ^= 1u;  // partition 2's copy of scale_B column 5
    CHECK(run(c).size() == 1);
}

TEST_CASE("tcgen05.sp: unmodelled and illegal operands are reported, nothing is written", "[tcgen05][undefined]") {
    std::mt19937 rng(9);
    Config cfg;
    Case c = make_case(cfg, rng);
    auto reported_untouched = [&](Case& x) {
        const auto saved = x.tmem.cells;
        const auto u = run(x);
        return !u.empty() && x.tmem.cells == saved;
    };
    Case m64 = c;  // M = 64 (layout F)
    InstrDescriptor id = InstrDescriptor::decode(c.idesc, cfg.kind);
    id.m = 64;
    m64.idesc = id.encode(cfg.kind);
    CHECK(reported_untouched(m64));
    Case dense = c;
    dense.idesc &= ~4u;
    CHECK_FALSE(run(dense).empty());
    Case i8sel;  // selector must be 0 for kind::i8
    Config ci;
    ci.kind = Tcgen05Kind::I8; ci.a = DType::S8; ci.b = DType::S8; ci.d = DType::S32;
    i8sel = make_case(ci, rng);
    i8sel.idesc |= 1u;
    CHECK_FALSE(run(i8sel).empty());
    Case v0 = c;  // descriptor without the fixed 0b001
    v0.a_desc &= ~(7ull << 46);
    CHECK_FALSE(run(v0).empty());
    Case far = c;  // B past the end of shared memory
    UmmaDescriptor bd = UmmaDescriptor::decode(c.b_desc);
    bd.start_address = 0x38F00;
    far.b_desc = bd.encode();
    CHECK(reported_untouched(far));
    Case atom = c;  // 128B swizzle with 32B atomicity: no canonical layout in the text
    UmmaDescriptor ad = UmmaDescriptor::decode(c.a_desc);
    ad.swizzle = Swizzle::B128_Atom32;
    atom.a_desc = ad.encode();
    CHECK(reported_untouched(atom));
    Case nvf = c;  // mxf4nvf4 without .scale_vec
    Config cn;
    cn.kind = Tcgen05Kind::MXF4NVF4; cn.a = cn.b = DType::E2M1; cn.sv = ScaleVec::X4; cn.scale = DType::UE4M3;
    nvf = make_case(cn, rng);
    nvf.op.scale_vec = ScaleVec::None;
    CHECK(reported_untouched(nvf));
    nvf.op.scale_vec = ScaleVec::X2;  // 2X needs ue8m0 scales
    CHECK_FALSE(run(nvf).empty());
    Case sid = c;
    sid.op.scale_input_d = 3;
    sid.op.kind = Tcgen05Kind::F16;
    CHECK(run(sid).empty());
}

TEST_CASE("tcgen05.sp: padded 6- and 4-bit elements in shared memory (16 per 16-byte chunk)", "[tcgen05][layout]") {
    // e3m2, K-major, no swizzle, LBO 128: element k of a chunk starts at bit 6k of the chunk.
    OperandLayout l;
    l.elem_bits = 6;
    l.padded16 = true;
    l.leading_byte_offset = 128;
    l.stride_byte_offset = 256;
    SharedMemory s;
    store_element(s, l, 0, 5, 0x2B);  // bits 35..30: byte 3 bits 7..6 = 0b11, byte 4 bits 3..0 = 0b1010
    CHECK(s.bytes[3] == 0xC0);
    CHECK(s.bytes[4] == 0x0A);
    CHECK(load_element(s, l, 0, 5) == 0x2B);
    store_element(s, l, 0, 15, 0x3F);  // bits 95..90: the last of the 12 data bytes
    CHECK(s.bytes[11] == 0xFC);
    CHECK(element_address(l, 0, 16) == 128);  // the next 16 elements: next chunk along K (LBO)
    CHECK(element_address(l, 1, 0) == 16);
    // e2m1 of kind::f8f6f4: 16 nibbles in bytes 0..7, bytes 8..15 padding.
    l.elem_bits = 4;
    CHECK(element_address(l, 0, 15) == 7);
    CHECK(element_address(l, 0, 16) == 128);
}

TEST_CASE("tcgen05.sp: one mxf4nvf4 row with 4X ue4m3 scales worked out by hand", "[tcgen05][model]") {
    // Row 0: chunk 0 (k 0..7) keeps pairs 0 and 3 (0b1100): A(0,0..1) = 1, 2; A(0,6..7) = -1, 0.5.
    // Chunk 4 (k 32..39) keeps pairs 1 and 2 (0b1001): A(0,34) = 3, the rest 0.
    // Scales (block of 32 K): sA(0) = [2, 0.5, 1, 1]; sB(col 0) = [1.5, 1, 1, 1], sB(col 1) = 1.
    // B(k, 0) = 1, B(k, 1) = 2. D(0,0) = (1+2-1+0.5)*2*1.5 + 3*0.5 = 9; D(0,1) = 2.5*2*2 + 3*0.5*2 = 13.
    Case c;
    c.cfg.kind = Tcgen05Kind::MXF4NVF4;
    c.cfg.a = c.cfg.b = DType::E2M1;
    const Placement pa = make_placement(Tcgen05Kind::MXF4NVF4, DType::E2M1, Swizzle::B128, false, 128, 64, kA);
    const Placement pb = make_placement(Tcgen05Kind::MXF4NVF4, DType::E2M1, Swizzle::B128, false, 8, 128, kB);
    const double a_vals[] = {1, 2, -1, 0.5};
    for (int j = 0; j < 4; ++j) put(c.smem, pa, 0, j, encode(DType::E2M1, a_vals[j]));
    put(c.smem, pa, 0, 16, encode(DType::E2M1, 3));
    for (int k = 0; k < 128; ++k) {
        put(c.smem, pb, 0, k, encode(DType::E2M1, 1));
        put(c.smem, pb, 1, k, encode(DType::E2M1, 2));
    }
    for (int lane = 0; lane < 128; ++lane) c.tmem.at(lane, kMetaCol) = c.tmem.at(lane, kMetaCol + 1) = 0x44444444;
    c.tmem.at(0, kMetaCol) = 0x4449444C;
    const uint32_t sa = encode(DType::UE4M3, 2) | (encode(DType::UE4M3, 0.5) << 8) | (encode(DType::UE4M3, 1) << 16) | (encode(DType::UE4M3, 1) << 24);
    const uint32_t sb0 = encode(DType::UE4M3, 1.5) | (encode(DType::UE4M3, 1) << 8) | (encode(DType::UE4M3, 1) << 16) | (encode(DType::UE4M3, 1) << 24);
    const uint32_t sb1 = encode(DType::UE4M3, 1) * 0x01010101u;
    for (int p = 0; p < 4; ++p) {  // duplicated to every 32-lane partition
        c.tmem.at(32 * p, kSfaCol) = sa;
        c.tmem.at(32 * p, kSfbCol) = sb0;
        c.tmem.at(32 * p + 1, kSfbCol) = sb1;
    }
    c.a_desc = descriptor(pa);
    c.b_desc = descriptor(pb);
    c.idesc = 0x4u | (1u << 7) | (1u << 10) | (1u << 17) | (1u << 27);  // sparse, e2m1 x e2m1, N 8, ue4m3, M 128
    c.op.kind = Tcgen05Kind::MXF4NVF4;
    c.op.scale_vec = ScaleVec::X4;
    REQUIRE(run(c).empty());
    CHECK(c.tmem.at(0, 0) == f32_bits(9.0f));
    CHECK(c.tmem.at(0, 1) == f32_bits(13.0f));
    CHECK(c.tmem.at(0, 2) == 0);
    CHECK(c.tmem.at(1, 0) == 0);
}

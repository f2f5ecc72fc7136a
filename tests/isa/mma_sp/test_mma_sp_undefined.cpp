// Undefined inputs PTX names are reported; inputs the instruction does not read are ignored.
#include "ptx_fragments.hpp"

#include <catch2/catch.hpp>

using namespace spmma::isa;
using spmma::DType;
using Kind = MmaSp::Kind;

namespace {

// The lanes that contribute metadata, as sparse-matrix-storage (9.7.14.6.1) lists them:
// one thread of each quad (m16n8k16 f16/bf16, m16n8k8 tf32), a thread pair T0,T1 / T2,T3
// (m16n8k32 16-bit, m16n8k16 tf32, m16n8k32 8-bit, m16n8k64 4-bit), or all four.
bool contributes(const MmaSp& f, int sel, int lane) {
    const int t = lane % 4;
    const bool one = (f.a == DType::F16 || f.a == DType::BF16) ? f.k == 16 : f.a == DType::TF32 ? f.k == 8 : false;
    const bool pair = (f.a == DType::F16 || f.a == DType::BF16) ? f.k == 32
                      : f.a == DType::TF32                     ? f.k == 16
                      : (f.a == DType::S8 || f.a == DType::U8) ? f.k == 32
                      : (f.a == DType::S4 || f.a == DType::U4) ? f.k == 64
                                                               : false;
    if (one) return t == sel;
    if (pair) return t / 2 == sel;
    return true;
}

bool mentions(const std::vector<std::string>& lines, const std::string& what) {
    for (const auto& l : lines)
        if (l.find(what) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("mma.sp undefined: metadata of lanes that do not contribute is ignored, whatever it holds") {
    std::mt19937 rng(3);
    int forms_with_idle_lanes = 0;
    for (const MmaSp& f : all_forms()) {
        INFO(ptx_name(f));
        const ptxfrag::Tile tl = ptxfrag::random_tile(f, rng);
        MmaSpWarp w = ptxfrag::pack(tl);
        const MmaSpResult clean = mma_sp(f, w);
        bool any = false;
        for (uint32_t garbage : {0x0000'0000u, 0xffff'ffffu, 0x5a5a'5a5au})
            for (int lane = 0; lane < 32; ++lane)
                if (!contributes(f, tl.selector, lane)) {
                    w.e[lane] = garbage ^ static_cast<uint32_t>(rng());
                    any = true;
                }
        if (any) ++forms_with_idle_lanes;
        const MmaSpResult r = mma_sp(f, w);
        REQUIRE(r.undefined.empty());
        REQUIRE(r.d == clean.d);
    }
    // f16 (4), bf16 (2), tf32 (2), 8-bit k32 (8), 4-bit k64 (8), each as .sp and ::ordered_metadata
    REQUIRE(forms_with_idle_lanes == 48);
}

TEST_CASE("mma.sp undefined: a contributing lane's invalid metadata is reported") {
    MmaSp f{16, DType::F16, DType::F16, DType::F32, DType::F32, false};
    std::mt19937 rng(5);
    ptxfrag::Tile tl = ptxfrag::random_tile(f, rng);
    tl.selector = 2;
    MmaSpWarp w = ptxfrag::pack(tl);
    for (uint32_t bad : {0b0000u, 0b0101u, 0b1010u, 0b1111u}) {
        MmaSpWarp x = w;
        x.e[4 * 3 + 2] = (x.e[14] & ~0xf00u) | (bad << 8);  // row 3, chunk 2
        const MmaSpResult r = mma_sp(f, x);
        REQUIRE(r.undefined.size() == 1);
        CHECK(mentions(r.undefined, "lane 14 bits 11..8 (row 3, columns 8..11)"));
        CHECK(mentions(r.undefined, "equal indices"));
    }
}

TEST_CASE("mma.sp undefined: unordered indices are reported for ::ordered_metadata only") {
    MmaSp f{32, DType::S8, DType::S8, DType::S32, DType::S32, true};
    std::mt19937 rng(9);
    ptxfrag::Tile tl = ptxfrag::random_tile(f, rng);
    tl.selector = 0;
    MmaSpWarp w = ptxfrag::pack(tl);
    w.e[1] = (w.e[1] & ~0xfu) | 0b0001u;  // lane 1 = row 8, chunk 0: indices 1 then 0
    const MmaSpResult ordered = mma_sp(f, w);
    REQUIRE(ordered.undefined.size() == 1);
    CHECK(mentions(ordered.undefined, "increasing"));
    CHECK(mentions(ordered.undefined, "row 8"));
    f.ordered_metadata = false;
    REQUIRE(mma_sp(f, w).undefined.empty());
}

TEST_CASE("mma.sp undefined: tf32 metadata other than 0b0100 and 0b1110 is reported") {
    for (bool ordered : {false, true}) {
        MmaSp f{16, DType::TF32, DType::TF32, DType::F32, DType::F32, ordered};
        std::mt19937 rng(13);
        ptxfrag::Tile tl = ptxfrag::random_tile(f, rng);
        tl.selector = 1;
        for (uint32_t bad : {0b1000u, 0b0001u, 0b1101u, 0b0000u}) {
            MmaSpWarp w = ptxfrag::pack(tl);
            w.e[4 * 5 + 3] = (w.e[23] & ~0xf0000u) | (bad << 16);  // lane 23: row 13, chunk 4
            const MmaSpResult r = mma_sp(f, w);
            REQUIRE(r.undefined.size() == 1);
            CHECK(mentions(r.undefined, "tf32 metadata"));
            CHECK(mentions(r.undefined, "row 13, columns 8..9"));
        }
    }
}

TEST_CASE("mma.sp undefined: a selector the shape does not allow is reported") {
    struct Case { MmaSp f; int sel; };
    const Case cases[] = {
        {{32, DType::F16, DType::F16, DType::F32, DType::F32, true}, 2},     // pair: 0 or 1
        {{16, DType::TF32, DType::TF32, DType::F32, DType::F32, true}, 3},
        {{64, DType::U8, DType::U8, DType::S32, DType::S32, true}, 1},       // all four lanes: 0 only
        {{128, DType::S4, DType::S4, DType::S32, DType::S32, false}, 2},
        {{64, DType::E4M3, DType::E4M3, DType::F32, DType::F32, true, false, Kind::F8F6F4}, 1},
        {{16, DType::F16, DType::F16, DType::F16, DType::F16, true}, 4},     // 0..3
    };
    for (const Case& c : cases) {
        INFO(ptx_name(c.f));
        MmaSpWarp w{};
        for (auto& e : w.e) e = 0x4444'4444;
        w.selector = c.sel;
        const MmaSpResult r = mma_sp(c.f, w);
        REQUIRE(r.undefined.size() == 1);
        CHECK(mentions(r.undefined, "sparsity selector " + std::to_string(c.sel)));
    }
}

TEST_CASE("mma.sp undefined: block-scale selectors outside PTX Table 37 are reported") {
    const MmaSp x1{64, DType::E4M3, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF8F6F4, 1, DType::UE8M0};
    const MmaSp x2{128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4, 2, DType::UE8M0};
    const MmaSp x4{128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4NVF4, 4, DType::UE4M3};
    auto report = [](const MmaSp& f, uint16_t bida, uint16_t tida, uint16_t bidb, uint16_t tidb) {
        MmaSpWarp w{};
        for (auto& e : w.e) e = 0x4444'4444;
        w.byte_id_a = bida; w.thread_id_a = tida; w.byte_id_b = bidb; w.thread_id_b = tidb;
        return mma_sp(f, w).undefined;
    };
    CHECK(report(x1, 3, 1, 3, 3).empty());
    CHECK(report(x2, 2, 0, 0, 2).empty());
    CHECK(report(x4, 0, 1, 0, 1).empty());
    CHECK(mentions(report(x1, 0, 2, 0, 0), "thread-id-a 2"));
    CHECK(mentions(report(x1, 4, 0, 0, 0), "byte-id-a 4"));
    CHECK(mentions(report(x2, 1, 0, 0, 0), "byte-id-a 1"));
    CHECK(mentions(report(x2, 0, 0, 3, 0), "byte-id-b 3"));
    CHECK(mentions(report(x4, 0, 0, 2, 0), "byte-id-b 2"));
    CHECK(mentions(report(x4, 0, 0, 0, 4), "thread-id-b 4"));
}

TEST_CASE("mma.sp undefined: registers and scale lanes the form does not read are ignored") {
    std::mt19937 rng(17);
    for (const MmaSp& f : all_forms()) {
        INFO(ptx_name(f));
        const ptxfrag::Tile tl = ptxfrag::random_tile(f, rng);
        MmaSpWarp w = ptxfrag::pack(tl);
        const MmaSpResult clean = mma_sp(f, w);
        for (int lane = 0; lane < 32; ++lane) {
            for (int r = a_registers(f); r < 4; ++r) w.a[lane][r] = static_cast<uint32_t>(rng());
            for (int r = b_registers(f); r < 4; ++r) w.b[lane][r] = static_cast<uint32_t>(rng());
            for (int r = c_registers(f); r < 4; ++r) w.c[lane][r] = static_cast<uint32_t>(rng());
            if (!is_block_scaled(f)) {
                w.scale_a[lane] = static_cast<uint32_t>(rng());
                w.scale_b[lane] = static_cast<uint32_t>(rng());
                continue;
            }
            // SF_A comes from the lane pair thread-id-a selects, SF_B from lane thread-id-b of
            // each quad; bytes outside [byte-id, byte-id + scale_vec) are not read either.
            const int t = lane % 4;
            const uint32_t used_a = f.scale_vec == 4 ? 0xffffffffu : ((1u << (8 * f.scale_vec)) - 1) << (8 * tl.bida);
            const uint32_t used_b = f.scale_vec == 4 ? 0xffffffffu : ((1u << (8 * f.scale_vec)) - 1) << (8 * tl.bidb);
            if (t / 2 != tl.tida) w.scale_a[lane] = static_cast<uint32_t>(rng());
            else w.scale_a[lane] = (w.scale_a[lane] & used_a) | (static_cast<uint32_t>(rng()) & ~used_a);
            if (t != tl.tidb) w.scale_b[lane] = static_cast<uint32_t>(rng());
            else w.scale_b[lane] = (w.scale_b[lane] & used_b) | (static_cast<uint32_t>(rng()) & ~used_b);
        }
        const MmaSpResult r = mma_sp(f, w);
        REQUIRE(r.undefined.empty());
        REQUIRE(r.d == clean.d);
    }
}

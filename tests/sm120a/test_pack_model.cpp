// The sm120a plugin's host packing, proven on the mma.sp instruction model: random canonical
// operands -> the plugin's packer -> the kernel's data path (kernel_emulator.hpp, offsets from
// the header the kernel uses) -> the model -> compared with the exact product of the canonical
// operands. Every form and A/B pairing the plugin has a kernel for; odd m, n and k tails.
#include "kernel_emulator.hpp"

#include <spmma/types.hpp>
#include <spmma_sm120a/kernel_tiles.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace sm120a_test;
namespace L = spmma_sm120a;

namespace {

struct Entry {
    std::string name;
    Form form;
    Tile tile;
};

std::vector<Entry> all_kernels() {
    std::vector<Entry> v;
#define SPMMA_SM120A_KERNEL(name, KIND, A, B, ACC, SV, SCALE, bm, bn, wm, wn, stages) \
    v.push_back(Entry{#name, SPMMA_SM120A_FORM(KIND, A, B, ACC, SV, SCALE), Tile{bm, bn, wm, wn, stages}});
#include <spmma_sm120a/kernels/f8f6f4.inc>
#include <spmma_sm120a/kernels/mxf8f6f4.inc>
#include <spmma_sm120a/kernels/mxf4.inc>
#include <spmma_sm120a/kernels/mxf4nvf4.inc>
#undef SPMMA_SM120A_KERNEL
    return v;
}

// The forms of the kernel lists, each once, with the main tile (the first listed).
std::vector<Entry> forms_of(L::Kind kind) {
    std::vector<Entry> out;
    std::set<std::string> seen;
    for (const Entry& e : all_kernels()) {
        if (e.form.kind != kind) continue;
        const std::string key = spmma::isa::ptx_name(model_form(e.form));
        if (seen.insert(key).second) out.push_back(e);
    }
    return out;
}

std::string label(const Form& f) { return spmma::isa::ptx_name(model_form(f)); }

// The emulated kernel's D against the exact product: within the accumulator's rounding (one
// rounding per mma step, of at most the sum of |terms|), and no model-reported problem.
void require_matches(const Form& f, const Tile& t, const Operands& o) {
    const Packed packed = pack(f, t, o);
    const Emulation em = emulate(f, t, o, packed);
    INFO("first problems: " << (em.errors.empty() ? std::string("none") : em.errors.front()));
    REQUIRE(em.error_count == 0);
    std::vector<double> abs_sum;
    const std::vector<double> want = reference(f, o, &abs_sum);
    const double eps = f.acc == SPMMA_F16 ? 0x1p-11 : 0x1p-24;
    const double steps = std::ceil(double(o.k) / f.mma_k());
    int64_t bad = 0, first = -1;
    for (size_t i = 0; i < want.size(); ++i) {
        const double tol = (steps + 1) * eps * abs_sum[i];
        if (!(std::fabs(em.d[i] - want[i]) <= tol)) {
            if (first < 0) first = int64_t(i);
            ++bad;
        }
    }
    INFO("first mismatch at " << first << ": got " << (first >= 0 ? em.d[first] : 0) << ", want "
                              << (first >= 0 ? want[first] : 0));
    REQUIRE(bad == 0);
    REQUIRE(em.mmas > 0);
}

}  // namespace

TEST_CASE("sm120a kernel lists: every kernel is a valid mma.sp form, uniquely named, with a tile the kernel accepts", "[sm120a]") {
    const auto all = all_kernels();
    REQUIRE(all.size() == 2 * (25 * 2 + 25 + 1 + 2));
    std::set<std::string> names;
    for (const Entry& e : all) {
        INFO(e.name);
        REQUIRE(names.insert(e.name).second);
        REQUIRE_FALSE(spmma::isa::invalid_reason(model_form(e.form)).has_value());
        REQUIRE(e.form.scale_block() == (e.form.scaled() ? e.form.mma_k() / e.form.scale_vec : 0));
        // The kernel's static_asserts (device/sm120a_spgemm.cuh), restated.
        REQUIRE(e.tile.bm % e.tile.wm == 0);
        REQUIRE(e.tile.bn % e.tile.wn == 0);
        REQUIRE(e.tile.wm % 32 == 0);
        REQUIRE(e.tile.wn % 32 == 0);
        REQUIRE(e.tile.threads() % 64 == 0);
        REQUIRE(e.tile.stage_bytes(e.form) % 128 == 0);
        REQUIRE(e.tile.smem_bytes(e.form) <= 99 * 1024);
        REQUIRE(e.tile.bm * (e.tile.bn + 8) * 4 <= e.tile.smem_bytes(e.form));
    }
}

TEST_CASE("sm120a packing through the mma.sp model: kind::f8f6f4, all 25 A x B pairs, f32 accumulation, alpha and beta", "[sm120a]") {
    std::mt19937 rng(1201);
    int forms = 0;
    for (const Entry& e : forms_of(L::Kind::F8F6F4)) {
        if (e.form.acc != SPMMA_F32) continue;
        INFO(label(e.form));
        // m and n past one tile, k = 200: 3 full mma steps and one of 8 of 64 (2 stages).
        require_matches(e.form, e.tile, random_operands(e.form, 144, 72, 200, 1.5, -0.5, rng));
        ++forms;
    }
    REQUIRE(forms == 25);
}

TEST_CASE("sm120a packing through the mma.sp model: kind::f8f6f4, all 25 A x B pairs, f16 accumulation", "[sm120a]") {
    std::mt19937 rng(1202);
    int forms = 0;
    for (const Entry& e : forms_of(L::Kind::F8F6F4)) {
        if (e.form.acc != SPMMA_F16) continue;
        INFO(label(e.form));
        require_matches(e.form, e.tile, random_operands(e.form, 40, 24, 136, 1.0, 0.0, rng));
        ++forms;
    }
    REQUIRE(forms == 25);
}

TEST_CASE("sm120a packing through the mma.sp model: kind::mxf8f6f4 scale_vec::1X ue8m0, all 25 A x B pairs", "[sm120a]") {
    std::mt19937 rng(1203);
    int forms = 0;
    for (const Entry& e : forms_of(L::Kind::MXF8F6F4)) {
        INFO(label(e.form));
        REQUIRE(e.form.scale_block() == 64);
        // k = 192: three 64-element scale blocks, the third stage half padded.
        require_matches(e.form, e.tile, random_operands(e.form, 144, 72, 192, 1.0, 0.75, rng));
        ++forms;
    }
    REQUIRE(forms == 25);
}

TEST_CASE("sm120a packing through the mma.sp model: kind::mxf4 scale_vec::2X ue8m0, packed e2m1, pairwise 4:8", "[sm120a]") {
    std::mt19937 rng(1204);
    const auto forms = forms_of(L::Kind::MXF4);
    REQUIRE(forms.size() == 1);
    const Entry& e = forms.front();
    INFO(label(e.form));
    REQUIRE(e.form.scale_block() == 64);
    // k = 320: five 64-element blocks, 2.5 mma steps.
    require_matches(e.form, e.tile, random_operands(e.form, 144, 72, 320, 1.0, -1.0, rng));
}

TEST_CASE("sm120a packing through the mma.sp model: kind::mxf4nvf4 scale_vec::2X ue8m0 and scale_vec::4X ue4m3", "[sm120a]") {
    std::mt19937 rng(1205);
    const auto forms = forms_of(L::Kind::MXF4NVF4);
    REQUIRE(forms.size() == 2);
    for (const Entry& e : forms) {
        INFO(label(e.form));
        REQUIRE(e.form.scale_block() == (e.form.scale_vec == 4 ? 32 : 64));
        // 4X: k = 352, eleven 32-element blocks (2.75 mma steps); 2X: k = 320.
        const int64_t k = e.form.scale_vec == 4 ? 352 : 320;
        require_matches(e.form, e.tile, random_operands(e.form, 144, 72, k, 2.0, 0.5, rng));
    }
}

TEST_CASE("sm120a packing through the mma.sp model: the 128x64 tile of each kind, one CTA column short of n", "[sm120a]") {
    std::mt19937 rng(1206);
    int checked = 0;
    for (const Entry& e : all_kernels()) {
        const bool pick = (e.form.kind == L::Kind::F8F6F4 && e.form.a == SPMMA_E2M1 && e.form.b == SPMMA_E3M2) ||
                          (e.form.kind == L::Kind::MXF8F6F4 && e.form.a == SPMMA_E5M2 && e.form.b == SPMMA_E2M1) ||
                          e.form.kind == L::Kind::MXF4 || e.form.kind == L::Kind::MXF4NVF4;
        if (!pick || e.tile.bn != 64) continue;
        INFO(e.name);
        const int64_t k = e.form.packed() ? 512 : 256;  // 2 full stages
        require_matches(e.form, e.tile, random_operands(e.form, 200, 100, k, 1.0, 1.0, rng));
        ++checked;
    }
    REQUIRE(checked == 6);
}

TEST_CASE("sm120a packing through the mma.sp model: a corrupted metadata word, scale word or B byte is caught", "[sm120a]") {
    // Negative controls: the same harness must fail when the packed data is wrong.
    std::mt19937 rng(1207);
    const Form nv = L::mxf4nvf4_form(4, SPMMA_UE4M3);
    const Tile t{128, 64, 64, 32, 4};
    const Operands o = random_operands(nv, 64, 40, 256, 1.0, 0.0, rng);
    {
        Packed p = pack(nv, t, o);
        REQUIRE(emulate(nv, t, o, p).error_count == 0);
    }
    {
        Packed p = pack(nv, t, o);
        p.e[5] ^= 0x00F0u;  // one nibble: (0, 1) -> another pair, or an invalid pair
        REQUIRE(emulate(nv, t, o, p).error_count > 0);
    }
    {
        Packed p = pack(nv, t, o);
        std::swap(p.sa[3], p.sa[4]);  // two lanes' scale-a words
        if (p.sa[3] != p.sa[4]) REQUIRE(emulate(nv, t, o, p).error_count > 0);
    }
    {
        Packed p = pack(nv, t, o);
        p.sb[0] = (p.sb[0] & 0xFFFFFF00u) | ((p.sb[0] + 1) & 0xFFu);  // one scale-b byte
        REQUIRE(emulate(nv, t, o, p).error_count > 0);
    }
    {
        Packed p = pack(nv, t, o);
        p.b[17] ^= 0x11;  // two nibbles of B
        REQUIRE(emulate(nv, t, o, p).error_count > 0);
    }
}

TEST_CASE("sm120a packing: containers, unit scales, sizes and index checks agree with the ABI and the codecs", "[sm120a]") {
    for (spmma_dtype t : {SPMMA_E4M3, SPMMA_E5M2, SPMMA_E3M2, SPMMA_E2M3, SPMMA_E2M1}) {
        const spmma::DType d = static_cast<spmma::DType>(t);
        for (uint32_t c = 0; c < (1u << spmma::info(d).bits); ++c) REQUIRE(L::f8f6f4_container(t, c) == spmma::to_f8f6f4_container(d, c));
    }
    REQUIRE(spmma::decode(spmma::DType::UE8M0, L::unit_scale(SPMMA_UE8M0)) == 1.0);
    REQUIRE(spmma::decode(spmma::DType::UE4M3, L::unit_scale(SPMMA_UE4M3)) == 1.0);

    const Form mx = L::mxf8f6f4_form(SPMMA_E2M1, SPMMA_E4M3);
    REQUIRE(L::canonical_a_values_bytes(mx, 10, 64) == 10 * 32 / 2);  // e2m1: two per byte
    REQUIRE(L::canonical_b_bytes(mx, 3, 64) == 3 * 64);                // e4m3: one per byte
    REQUIRE(L::canonical_a_indices_bytes(mx, 10, 64) == 10 * 16);
    REQUIRE(L::canonical_scale_bytes(mx, 10, 128) == 10 * 2);
    REQUIRE_THROWS(L::packed_shape(mx, Tile{128, 128, 64, 32, 3}, 10, 10, 96));  // k not a multiple of 64
    REQUIRE_THROWS(L::packed_shape(L::mxf4_form(), Tile{128, 128, 64, 32, 3}, 10, 10, 68));  // not a multiple of 8
    const L::PackedShape s = L::packed_shape(L::mxf4_form(), Tile{128, 64, 64, 32, 4}, 130, 65, 320);
    REQUIRE(s.m_pad == 256);
    REQUIRE(s.n_pad == 128);
    REQUIRE(s.k_stages == 2);
    REQUIRE(s.ldb == 256);
    REQUIRE(s.scale_blocks == 5);

    const uint8_t good[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE, 0x4, 0x4};
    REQUIRE(L::check_indices(mx, 2, 16, good).empty());
    for (uint8_t bad : {uint8_t(0x0), uint8_t(0x5), uint8_t(0x6), uint8_t(0xF), uint8_t(0x14)}) {
        uint8_t idx[8] = {0x4, 0x4, 0x4, 0x4, 0x4, 0x4, 0x4, bad};
        const std::string why = L::check_indices(mx, 2, 16, idx);
        INFO(int(bad));
        REQUIRE_THAT(why, Catch::Contains("row 1, group 3"));
    }
}

// The emulated sm100a kernels (plugins/emu/emu_sm100a.cpp): every cta_group::1 kernel of the
// sm100a plugin has one; whole problems with m, n and k tails run through the plugin's packing,
// TMA boxes, tcgen05.cp of metadata and scales, descriptors and idesc and the tcgen05.mma.sp
// model and verify against the reference for every kind, block scaling included; a corrupted
// metadata word fails the verification; problems the plugin refuses are refused with its reasons.
#include "emu_cli.hpp"

#include <spmma_sm100a/problem_check.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace emu_test;

namespace {

struct GpuKernel {
    std::string name;
    int cta_group;
};

// The kernels the sm100a plugin builds (include/spmma_sm100a/kernels/*.inc).
std::vector<GpuKernel> sm100a_kernels() {
    std::vector<GpuKernel> v;
#define SPMMA_SM100A_KERNEL(TOK, KIND, SV, ACC, BM, BN, BK, CG, S) \
    v.push_back({"sm100a_" #TOK "_" #ACC "_" #BM "x" #BN "x" #BK "_cg" #CG "_s" #S, CG});
#include <spmma_sm100a/kernels/f16.inc>
#include <spmma_sm100a/kernels/f8f6f4.inc>
#include <spmma_sm100a/kernels/i8.inc>
#include <spmma_sm100a/kernels/mxf4.inc>
#include <spmma_sm100a/kernels/mxf4nvf4.inc>
#include <spmma_sm100a/kernels/mxf8f6f4.inc>
#include <spmma_sm100a/kernels/tf32.inc>
#undef SPMMA_SM100A_KERNEL
    return v;
}

// What each kernel of the plugin computes, as its problem_unsupported_reason weighs them.
std::vector<spmma_sm100a::KernelKind> plugin_kinds() {
    using spmma_sm100a::Kind;
    using spmma_sm100a::ScaleVec;
    constexpr spmma_dtype acc_f32 = SPMMA_F32, acc_f16 = SPMMA_F16, acc_s32 = SPMMA_S32;
    std::vector<spmma_sm100a::KernelKind> v;
#define SPMMA_SM100A_KERNEL(TOK, KIND, SV, ACC, BM, BN, BK, CG, S) v.push_back({Kind::KIND, ScaleVec::SV, acc_##ACC});
#include <spmma_sm100a/kernels/f16.inc>
#include <spmma_sm100a/kernels/tf32.inc>
#include <spmma_sm100a/kernels/f8f6f4.inc>
#include <spmma_sm100a/kernels/i8.inc>
#include <spmma_sm100a/kernels/mxf8f6f4.inc>
#include <spmma_sm100a/kernels/mxf4.inc>
#include <spmma_sm100a/kernels/mxf4nvf4.inc>
#undef SPMMA_SM100A_KERNEL
    return v;
}

// The emulated kernels whose GPU name starts with `token` (kind token and accumulator, e.g.
// "f8f6f4_f16").
int kernels_of(const std::string& token) { return static_cast<int>(emu_kernels("emu_sm100a_" + token + "_").size()); }

// 200x136x256, and 333x77 with a k of one and a half stages or so (m, n and k tails: padded
// metadata rows and stages, neutral scales past k).
void check_kind(int kernels, const std::string& args, const std::string& odd_k) {
    INFO(args << ": " << kernels << " emulated kernels");
    REQUIRE(kernels > 0);
    require_all_verified(emulate("sm100a", "--m 200 --n 136 --k 256 " + args), kernels);
    require_all_verified(emulate("sm100a", "--m 333 --n 77 --k " + odd_k + " " + args), kernels);
}

}  // namespace

TEST_CASE("sm100a: every cta_group::1 kernel of the sm100a plugin has an emulated twin named emu_ + its name",
          "[emu][sm100a]") {
    std::vector<std::string> want;
    int pairs = 0;
    for (const GpuKernel& k : sm100a_kernels()) {
        if (k.cta_group == 1) want.push_back("emu_" + k.name);
        pairs += k.cta_group == 2;
    }
    std::vector<std::string> got = emu_kernels("emu_sm100a_");
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    CHECK(got == want);
    CHECK(pairs > 0);  // the CTA-pair kernels exist and are the ones left out (the model has cta_group::1 only)
}

TEST_CASE("sm100a kind::f16: f16, bf16, f16 accumulation verify on 200x136x256 and 333x77x96", "[emu][sm100a]") {
    check_kind(kernels_of("f16bf16_f32"), "--dtype f16", "96");
    check_kind(kernels_of("f16bf16_f32"), "--dtype bf16 --beta 1", "96");
    check_kind(kernels_of("f16bf16_f16"), "--dtype f16 --acc f16 --out f16", "96");
}

TEST_CASE("sm100a kind::tf32 (1:2) verifies on 200x136x256 and 333x77x52", "[emu][sm100a]") {
    check_kind(kernels_of("tf32_f32"), "--dtype tf32", "52");
}

TEST_CASE("sm100a kind::f8f6f4: 8-, 6- and 4-bit types (padded formats), f32 and f16 accumulation", "[emu][sm100a]") {
    check_kind(kernels_of("f8f6f4_f32"), "--dtype e4m3 --b-type e2m1", "196");
    check_kind(kernels_of("f8f6f4_f32"), "--dtype e2m3 --b-type e5m2", "196");
    check_kind(kernels_of("f8f6f4_f16"), "--dtype e3m2 --b-type e2m3 --acc f16 --out f16", "196");
}

TEST_CASE("sm100a kind::i8: s8/u8, wrap and satfinite", "[emu][sm100a]") {
    check_kind(kernels_of("i8_s32"), "--dtype s8 --b-type u8", "196");
    check_kind(kernels_of("i8_s32"), "--dtype u8 --satfinite --alpha 2 --beta 1", "196");
}

TEST_CASE("sm100a kind::mxf8f6f4 (ue8m0 per 64 k) verifies on 200x136x256 and 333x77x192", "[emu][sm100a]") {
    check_kind(kernels_of("mxf8f6f4_f32"), "--dtype e4m3 --b-type e2m1 --scale-type ue8m0 --scale-block 64", "192");
    check_kind(kernels_of("mxf8f6f4_f32"), "--dtype e2m1 --pattern 2:4 --scale-type ue8m0 --scale-block 64", "192");
}

TEST_CASE("sm100a kind::mxf4 and mxf4nvf4 scale_vec::2X (e2m1 4:8, ue8m0 per 64 k) verify on 200x136x256 and 333x77x320",
          "[emu][sm100a]") {
    check_kind(kernels_of("mxf4_f32") + kernels_of("mxf4nvf4x2_f32"), "--dtype e2m1 --scale-type ue8m0 --scale-block 64", "320");
}

TEST_CASE("sm100a kind::mxf4nvf4 scale_vec::4X (ue4m3 and ue8m0 per 32 k) verifies on 200x136x256 and 333x77x288",
          "[emu][sm100a]") {
    check_kind(kernels_of("mxf4nvf4x4_f32"), "--dtype e2m1 --scale-type ue4m3 --scale-block 32", "288");
    check_kind(kernels_of("mxf4nvf4x4_f32"), "--dtype e2m1 --scale-type ue8m0 --scale-block 32", "288");
}

TEST_CASE("sm100a: a corrupted metadata word (SPMMA_EMU_FAULT=meta) fails the verification of every kernel",
          "[emu][sm100a]") {
    for (const auto& [n, args] : {std::pair<int, std::string>{kernels_of("tf32_f32"), "--dtype tf32"},
                                  {kernels_of("i8_s32"), "--dtype s8"},
                                  {kernels_of("mxf4nvf4x4_f32"), "--dtype e2m1 --scale-type ue4m3 --scale-block 32"}}) {
        const CliResult r = emulate("sm100a", "--m 70 --n 40 --k 256 " + args, "meta");
        INFO(args << "\n" << r.out);
        CHECK(r.code == 1);
        CHECK_THAT(r.out, Catch::Contains("0 verified, " + std::to_string(n) + " failed, 0 errors"));
        require_all_verified(emulate("sm100a", "--m 70 --n 40 --k 256 " + args), n);
    }
}

TEST_CASE("sm100a: refuses what the sm100a plugin refuses, with its reasons", "[emu][sm100a]") {
    const std::string kernel = "emu_sm100a_mxf4_f32_128x256x256_cg1_s5";
    spmma_problem p = problem(128, 128, 256, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_PATTERN_4_8_PAIRWISE);
    p.scale_type = SPMMA_UE8M0;
    p.scale_block = 64;
    CHECK(emu_reason(p, kernel).empty());
    p.scale_block = 16;  // no sparse tcgen05 form scales per 16 k
    const std::string why = emu_reason(p, kernel);
    CHECK_THAT(why, Catch::Contains("unsupported: scale block 16"));
    CHECK(why == spmma_sm100a::problem_unsupported_reason(plugin_kinds(), p));
    // the reason the plugin gives (the most specific over its kinds), from every emulated kernel
    CHECK(emu_reason(p, "emu_sm100a_f16bf16_f32_128x256x64_cg1_s5") == why);
    p = problem(128, 128, 256, SPMMA_S4, SPMMA_S4, SPMMA_S32, SPMMA_PATTERN_4_8_PAIRWISE);
    CHECK_THAT(emu_reason(p, kernel), Catch::Contains("(sm100a: f16/bf16 2:4"));
    p = problem(128, 128, 256, SPMMA_BF16, SPMMA_BF16, SPMMA_F16, SPMMA_PATTERN_2_4);
    CHECK(emu_reason(p, kernel) == spmma_sm100a::problem_unsupported_reason(plugin_kinds(), p));
    CHECK_THAT(emu_reason(p, kernel), Catch::Contains("f16 accumulation"));
    // a problem some kernel takes, asked of another: that kernel's own mismatch, as the plugin says it
    p = problem(128, 128, 256, SPMMA_E4M3, SPMMA_E4M3, SPMMA_F16, SPMMA_PATTERN_2_4);
    CHECK(emu_reason(p, "emu_sm100a_f8f6f4_f16_128x256x128_cg1_s5").empty());
    CHECK(emu_reason(p, "emu_sm100a_f8f6f4_f32_128x256x128_cg1_s5") ==
          spmma_sm100a::kernel_mismatch(spmma_sm100a::Kind::F8F6F4, spmma_sm100a::ScaleVec::None, SPMMA_F32, p) +
              " [kernel sm100a_f8f6f4_f32_128x256x128_cg1_s5]");
    p = problem(128, 128, 256, SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_PATTERN_2_4);
    CHECK_THAT(emu_reason(p, "emu_sm100a_f16bf16_f32_256x256x64_cg2_s8"), Catch::Contains("no kernel"));
    p = problem(4096, 4096, 4096, SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_PATTERN_2_4);
    CHECK_THAT(emu_reason(p, "emu_sm100a_f16bf16_f32_128x256x64_cg1_s5"), Catch::Contains("at most 2^31 sparse multiply-adds"));
}

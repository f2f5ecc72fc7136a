// The emulated sm90a kernels (plugins/emu/emu_sm90a.cpp): every kernel of the sm90a plugin has
// one; whole problems with m, n and k tails run through the plugin's packing, TMA boxes,
// metadata words and descriptors and the wgmma.mma_async.sp model and verify against the
// reference for every type family; a corrupted metadata word fails the verification; problems
// the plugin refuses are refused with its reasons.
#include "emu_cli.hpp"

#include <spmma_sm90a/problem_check.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace emu_test;

namespace {

// The kernels the sm90a plugin builds (include/spmma_sm90a/kernels/*.inc), by name.
std::vector<std::string> sm90a_kernel_names() {
    std::vector<std::string> v;
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S) \
    v.push_back("sm90a_" #A #B "_" #ACC "_" #BM "x" #BN "x" #BK "_c" #CM "x" #CN "_s" #S);
#include <spmma_sm90a/kernels/all.inc>
#undef SPMMA_SM90A_KERNEL
    return v;
}

// How many emulated kernels compute a x b -> acc (the name's type token, e.g. "e4m3e5m2_f16").
int kernels_of(const std::string& types) { return static_cast<int>(emu_kernels("emu_sm90a_" + types + "_").size()); }

// The two problem shapes every family runs: 200x136x256 (k whole stages for 16-bit types) and
// 333x77 with a k that is no multiple of any stage (m, n and k tails, padded metadata rows).
void check_family(const std::string& types, const std::string& args, const std::string& odd_k) {
    const int n = kernels_of(types);
    INFO(types << ": " << n << " emulated kernels");
    REQUIRE(n > 0);
    require_all_verified(emulate("sm90a", "--m 200 --n 136 --k 256 " + args), n);
    require_all_verified(emulate("sm90a", "--m 333 --n 77 --k " + odd_k + " " + args), n);
}

}  // namespace

TEST_CASE("sm90a: every kernel of the sm90a plugin has an emulated twin named emu_ + its name", "[emu][sm90a]") {
    std::vector<std::string> want;
    for (const std::string& k : sm90a_kernel_names()) want.push_back("emu_" + k);
    std::vector<std::string> got = emu_kernels("emu_sm90a_");
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    CHECK(got == want);
}

TEST_CASE("sm90a f16: f32 and f16 accumulation verify on 200x136x256 and 333x77x200", "[emu][sm90a]") {
    check_family("f16f16_f32", "--dtype f16", "200");
    check_family("f16f16_f16", "--dtype f16 --acc f16 --out f16", "200");
}

TEST_CASE("sm90a bf16 verifies on 200x136x256 and 333x77x200, with beta", "[emu][sm90a]") {
    check_family("bf16bf16_f32", "--dtype bf16 --out f32 --beta 0.5", "200");
}

TEST_CASE("sm90a tf32 (1:2) verifies on 200x136x256 and 333x77x100", "[emu][sm90a]") {
    check_family("tf32tf32_f32", "--dtype tf32", "100");
}

TEST_CASE("sm90a e4m3/e5m2: f32 and f16 accumulation, mixed types, verify on 200x136x256 and 333x77x196",
          "[emu][sm90a]") {
    check_family("e4m3e4m3_f32", "--dtype e4m3", "196");
    check_family("e5m2e4m3_f32", "--dtype e5m2 --b-type e4m3", "196");
    check_family("e4m3e5m2_f16", "--dtype e4m3 --b-type e5m2 --acc f16 --out f16", "196");
}

TEST_CASE("sm90a s8/u8: wrap and satfinite, mixed signedness, verify on 200x136x256 and 333x77x196", "[emu][sm90a]") {
    check_family("s8s8_s32", "--dtype s8", "196");
    check_family("u8s8_s32", "--dtype u8 --b-type s8 --alpha 3 --beta -2", "196");
    check_family("u8u8_s32sat", "--dtype u8 --satfinite", "196");
}

TEST_CASE("sm90a: a corrupted metadata word (SPMMA_EMU_FAULT=meta) fails the verification of every kernel",
          "[emu][sm90a]") {
    for (const auto& [types, args] : {std::pair<std::string, std::string>{"f16f16_f16", "--dtype f16 --acc f16 --out f16"},
                                      {"tf32tf32_f32", "--dtype tf32"}, {"s8u8_s32", "--dtype s8 --b-type u8"}}) {
        const int n = kernels_of(types);
        const CliResult r = emulate("sm90a", "--m 70 --n 40 --k 128 " + args, "meta");
        INFO(args << "\n" << r.out);
        CHECK(r.code == 1);
        CHECK_THAT(r.out, Catch::Contains("0 verified, " + std::to_string(n) + " failed, 0 errors"));
        // the same problem without the fault verifies
        require_all_verified(emulate("sm90a", "--m 70 --n 40 --k 128 " + args), n);
    }
    const CliResult typo = emulate("sm90a", "--m 16 --n 8 --k 64 --dtype u8 --satfinite --wide", "metadata");  // --wide: the reason whole
    INFO(typo.out);
    CHECK(typo.code == 1);
    CHECK_THAT(typo.out, Catch::Contains("SPMMA_EMU_FAULT='metadata': expected meta"));
}

TEST_CASE("sm90a: refuses what the sm90a plugin refuses, with its reasons", "[emu][sm90a]") {
    const std::string kernel = "emu_sm90a_f16f16_f32_64x128x64_c1x1_s6";
    spmma_problem p = problem(64, 64, 64, SPMMA_BF16, SPMMA_BF16, SPMMA_F16, SPMMA_PATTERN_2_4);
    CHECK(emu_reason(p, kernel) == spmma_sm90a::problem_unsupported_reason(p));
    CHECK_THAT(emu_reason(p, kernel), Catch::Contains("f16 accumulation for bf16"));
    p = problem(64, 64, 64, SPMMA_E4M3, SPMMA_E4M3, SPMMA_F32, SPMMA_PATTERN_2_4);
    p.scale_type = SPMMA_UE8M0;
    p.scale_block = 32;
    CHECK_THAT(emu_reason(p, kernel), Catch::Contains("block scaling"));
    p = problem(64, 64, 64, SPMMA_TF32, SPMMA_TF32, SPMMA_F32, SPMMA_PATTERN_2_4);
    CHECK_THAT(emu_reason(p, "emu_sm90a_tf32tf32_f32_64x128x32_c1x1_s6"), Catch::Contains("pattern 2:4"));
    p = problem(64, 64, 64, SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_PATTERN_2_4);
    CHECK(emu_reason(p, kernel).empty());
    CHECK_THAT(emu_reason(p, "emu_sm90a_f16f16_f16_64x128x64_c1x1_s6"),
               Catch::Contains("unsupported: kernel sm90a_f16f16_f16_64x128x64_c1x1_s6 computes f16 x f16 -> f16"));
    p = problem(4096, 4096, 4096, SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_PATTERN_2_4);
    CHECK_THAT(emu_reason(p, kernel), Catch::Contains("at most 2^31 sparse multiply-adds"));
}

// The sm120a plugin on a machine that cannot run it (no GPU, or no sm_120 / sm_121): it loads,
// describes itself and its kernels, says why it cannot run, explains unsupported problems, and
// launches nothing.
#include <spmma/core/plugins.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace spmma;

namespace {

spmma_problem problem(spmma_dtype a, spmma_dtype b, spmma_pattern pattern, spmma_dtype scale = SPMMA_DTYPE_NONE, int block = 0) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = 256;
    p.n = 256;
    p.k = 512;
    p.a_type = a;
    p.b_type = b;
    p.c_type = p.d_type = SPMMA_F32;
    p.acc_type = SPMMA_F32;
    p.pattern = pattern;
    p.scale_type = scale;
    p.scale_block = block;
    p.alpha = 1.0;
    return p;
}

// A reason that says the device (not the problem) is what is missing.
bool device_reason(const std::string& r) {
    return r.rfind("no GPU", 0) == 0 || (r.find("needs sm_120a") != std::string::npos && r.find("device is sm_") != std::string::npos);
}

bool machine_has_sm120(const Plugin& p) {
    for (int d = 0; d < p.device_count(); ++d)
        if (p.probe(d).runnable) return true;
    return false;
}

}  // namespace

TEST_CASE("sm120a plugin: loads, describes itself and its 156 kernels, says it was not run on sm_120 hardware", "[sm120a]") {
    const Plugin p = Plugin::load(SPMMA_SM120A_PLUGIN);
    INFO(p.error);
    REQUIRE(p.usable());
    CHECK(p.name == "sm120a");
    CHECK(p.target == "sm_120a");
    CHECK_THAT(p.description, Catch::Contains("not yet run on sm_120 hardware"));
    REQUIRE(p.kernels.size() == 156);
    const auto has = [&](const std::string& n) {
        return std::any_of(p.kernels.begin(), p.kernels.end(), [&](const KernelInfo& k) { return k.name == n; });
    };
    CHECK(has("sm120a_f8f6f4_e4m3e2m1_f32_128x128x128_s3"));
    CHECK(has("sm120a_f8f6f4_e2m3e3m2_f16_128x64x128_s4"));
    CHECK(has("sm120a_mxf8f6f4_e2m1e5m2_ue8m0x1_128x128x128_s3"));
    CHECK(has("sm120a_mxf4_e2m1_ue8m0x2_128x128x256_s3"));
    CHECK(has("sm120a_mxf4nvf4_e2m1_ue4m3x4_128x128x256_s3"));
}

TEST_CASE("sm120a plugin: probe says why it cannot run here (no GPU, or a device other than sm_120 / sm_121)", "[sm120a]") {
    const Plugin p = Plugin::load(SPMMA_SM120A_PLUGIN);
    REQUIRE(p.usable());
    if (machine_has_sm120(p)) {
        SUCCEED("this machine has an sm_120 / sm_121 device: nothing to refuse");
        return;
    }
    for (int d = 0; d < std::max(1, p.device_count()); ++d) {
        const DeviceInfo info = p.probe(d);
        INFO("device " << d << ": " << info.reason);
        CHECK_FALSE(info.runnable);
        CHECK(device_reason(info.reason));
    }
}

TEST_CASE("sm120a plugin: supports() names what is wrong with a problem it has no form for", "[sm120a]") {
    const Plugin p = Plugin::load(SPMMA_SM120A_PLUGIN);
    REQUIRE(p.usable());
    const auto why = [&](const spmma_problem& pr) { return p.unsupported_reason(0, pr, nullptr).value_or(""); };
    CHECK_THAT(why(problem(SPMMA_F16, SPMMA_F16, SPMMA_PATTERN_2_4)), Catch::Contains("no sm_120a mma.sp .kind form"));
    CHECK_THAT(why(problem(SPMMA_E4M3, SPMMA_E2M1, SPMMA_PATTERN_2_4, SPMMA_UE8M0, 32)), Catch::Contains("64 elements of k"));
    CHECK_THAT(why(problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE8M0, 32)), Catch::Contains("PTX ISA 9.1"));
    CHECK_THAT(why(problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE4M3, 16)), Catch::Contains("one scale per 32"));
    CHECK_THAT(why(problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE)), Catch::Contains("block-scaled"));
    CHECK_THAT(why(problem(SPMMA_E4M3, SPMMA_E4M3, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE8M0, 64)), Catch::Contains("e2m1 x e2m1 only"));
    spmma_problem f16acc = problem(SPMMA_E5M2, SPMMA_E2M3, SPMMA_PATTERN_2_4);
    f16acc.acc_type = SPMMA_F16;
    CHECK_THAT(why(f16acc), Catch::Contains("f16 accumulation writes f16 D"));
    // Problems it has forms for fail only on the device (unless this machine has one).
    if (!machine_has_sm120(p)) {
        for (const spmma_problem& ok : {problem(SPMMA_E4M3, SPMMA_E2M1, SPMMA_PATTERN_2_4),
                                        problem(SPMMA_E3M2, SPMMA_E2M3, SPMMA_PATTERN_2_4, SPMMA_UE8M0, 64),
                                        problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE8M0, 64),
                                        problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE4M3, 32)}) {
            const std::string r = why(ok);
            INFO(r);
            CHECK(device_reason(r));
        }
    }
}

TEST_CASE("sm120a plugin: create refuses a device that cannot run it, so nothing is launched", "[sm120a]") {
    const Plugin p = Plugin::load(SPMMA_SM120A_PLUGIN);
    REQUIRE(p.usable());
    if (machine_has_sm120(p)) {
        SUCCEED("this machine has an sm_120 / sm_121 device");
        return;
    }
    const spmma_problem pr = problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE4M3, 32);
    spmma_handle* h = nullptr;
    CHECK(p.api().create(0, &pr, nullptr, &h) == SPMMA_UNSUPPORTED);
    CHECK(h == nullptr);
    CHECK(device_reason(p.last_error()));
}

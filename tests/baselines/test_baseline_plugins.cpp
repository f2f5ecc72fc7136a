// The cublas and cusparselt plugins through spmma's own loader: they load everywhere (their
// vendor libraries are opened at run time), describe themselves, say exactly why they cannot
// run on a machine without a GPU, and refuse what their library cannot do with a precise reason
// (types are judged before the device, so these reasons are the same on every machine).
#include <spmma/core/plugins.hpp>

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

using namespace spmma;

namespace {

bool driver_present() {
    static const bool present = [] {
        void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (h) dlclose(h);
        return h != nullptr;
    }();
    return present;
}

const std::vector<Plugin>& plugins() {
    static const std::vector<Plugin> ps = load_plugins({SPMMA_PLUGIN_DIR});
    return ps;
}

spmma_problem problem(spmma_dtype a, spmma_dtype b, spmma_dtype acc, spmma_dtype d, spmma_pattern pattern = SPMMA_PATTERN_2_4) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = p.n = p.k = 4096;
    p.a_type = a;
    p.b_type = b;
    p.acc_type = acc;
    p.c_type = p.d_type = d;
    p.pattern = pattern;
    p.alpha = 1.0;
    p.beta = 0.0;
    return p;
}

std::string reason(const Plugin& pl, const spmma_problem& p, const char* kernel = nullptr) {
    const auto why = pl.unsupported_reason(0, p, kernel);
    return why ? *why : std::string("(supported)");
}

// What a plugin says about device 0 here: "no GPU: CUDA driver not found (...)" on a machine
// without a driver (the build machines, CI).
void check_probe_here(const Plugin& pl) {
    const DeviceInfo d = pl.probe(0);
    if (!driver_present()) {
        CHECK_FALSE(d.runnable);
        CHECK(d.name == "no GPU");
        CHECK_THAT(d.reason, Catch::StartsWith("no GPU: CUDA driver not found (") && Catch::Contains("libcuda.so.1"));
    } else {
        WARN(pl.name << " on a machine with a CUDA driver: " << (d.runnable ? "runnable on " + d.name : d.reason));
        CHECK(d.runnable == d.reason.empty());
    }
}

// A problem whose types the plugin takes: refused here only for the device.
void check_types_accepted(const Plugin& pl, const spmma_problem& p) {
    const std::string why = reason(pl, p);
    if (!driver_present()) CHECK_THAT(why, Catch::StartsWith("no GPU: CUDA driver not found"));
    else CHECK_THAT(why, !Catch::StartsWith("unsupported: "));
}

}  // namespace

#ifdef SPMMA_BUILT_CUBLAS

TEST_CASE("cublas loads through spmma's loader as a dense plugin with one kernel per type family", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cublas");
    REQUIRE(pl);
    CHECK(pl->usable());
    CHECK(pl->abi_major == SPMMA_ABI_MAJOR);
    CHECK(pl->dense());
    CHECK(pl->target == "sm_75+");
    std::vector<std::string> names;
    for (const auto& k : pl->kernels) names.push_back(k.name);
    CHECK(names == std::vector<std::string>{"cublaslt_f16f16_f32acc", "cublaslt_f16f16_f16acc", "cublaslt_bf16bf16_f32acc",
                                            "cublaslt_tf32tf32_f32acc", "cublaslt_f8f8_f32acc", "cublaslt_s8s8_s32acc"});
    // The description names the cuBLASLt it found (file and version), or says it found none.
    if (pl->version != SPMMA_VERSION) {
        CHECK_THAT(pl->version, Catch::StartsWith(std::string(SPMMA_VERSION) + "+cublasLt.13."));
        const auto from = pl->description.find(" from ");
        REQUIRE(from != std::string::npos);
        const std::string path = pl->description.substr(from + 6, pl->description.find(" on A") - from - 6);
        CHECK(std::filesystem::exists(path));
    } else {
        CHECK_THAT(pl->description, Catch::Contains("cuBLASLt (not found here)"));
    }
}

TEST_CASE("cublas says why it cannot run without a GPU", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cublas");
    REQUIRE(pl);
    check_probe_here(*pl);
}

TEST_CASE("cublas accepts the types cuBLASLt has and refuses the others with a precise reason", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cublas");
    REQUIRE(pl);
    check_types_accepted(*pl, problem(SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_F16));
    check_types_accepted(*pl, problem(SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_F32));
    check_types_accepted(*pl, problem(SPMMA_BF16, SPMMA_BF16, SPMMA_F32, SPMMA_BF16));
    check_types_accepted(*pl, problem(SPMMA_TF32, SPMMA_TF32, SPMMA_F32, SPMMA_F32, SPMMA_PATTERN_1_2));
    check_types_accepted(*pl, problem(SPMMA_E4M3, SPMMA_E5M2, SPMMA_F32, SPMMA_BF16));
    check_types_accepted(*pl, problem(SPMMA_S8, SPMMA_S8, SPMMA_S32, SPMMA_S32));

    CHECK(reason(*pl, problem(SPMMA_S4, SPMMA_S4, SPMMA_S32, SPMMA_S32, SPMMA_PATTERN_4_8_PAIRWISE)) ==
          "unsupported: cuBLASLt has no 4-bit integer GEMM (s4)");
    CHECK(reason(*pl, problem(SPMMA_U8, SPMMA_U8, SPMMA_S32, SPMMA_S32)) == "unsupported: cuBLASLt has no u8 GEMM (its integer GEMM takes s8)");
    CHECK(reason(*pl, problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_BF16)) == "unsupported: cuBLASLt has no unscaled e2m1 GEMM");
    CHECK(reason(*pl, problem(SPMMA_E5M2, SPMMA_E5M2, SPMMA_F32, SPMMA_BF16)) ==
          "unsupported: cuBLASLt has no e5m2 x e5m2 GEMM (A or B must be e4m3)");
    CHECK(reason(*pl, problem(SPMMA_E4M3, SPMMA_E4M3, SPMMA_F16, SPMMA_F16)) == "unsupported: cuBLASLt's fp8 GEMM accumulates in f32, not f16");
    CHECK(reason(*pl, problem(SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_BF16)) == "unsupported: cuBLASLt's f16 GEMM writes f16 or f32, not bf16");
    CHECK(reason(*pl, problem(SPMMA_TF32, SPMMA_TF32, SPMMA_F32, SPMMA_BF16, SPMMA_PATTERN_1_2)) ==
          "unsupported: cuBLASLt's tf32 GEMM writes f32, not bf16");

    spmma_problem sat = problem(SPMMA_S8, SPMMA_S8, SPMMA_S32, SPMMA_S32);
    sat.saturate = 1;
    CHECK(reason(*pl, sat) == "unsupported: cuBLASLt's s8 GEMM wraps its s32 accumulation; it has no satfinite");
    spmma_problem big_alpha = problem(SPMMA_S8, SPMMA_S8, SPMMA_S32, SPMMA_S32);
    big_alpha.alpha = 4294967296.0;
    CHECK(reason(*pl, big_alpha) == "unsupported: alpha and beta must be s32 integers (cuBLASLt's s8 GEMM scales in s32)");
    spmma_problem scaled = problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_BF16, SPMMA_PATTERN_4_8_PAIRWISE);
    scaled.scale_type = SPMMA_UE8M0;
    scaled.scale_block = 32;
    CHECK_THAT(reason(*pl, scaled), Catch::StartsWith("unsupported: the cublas plugin runs unscaled problems only"));
}

TEST_CASE("cublas's f16-accumulation GEMM takes alpha and beta that are f16 values only", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cublas");
    REQUIRE(pl);
    spmma_problem p = problem(SPMMA_F16, SPMMA_F16, SPMMA_F16, SPMMA_F16);
    p.alpha = 0.5;
    p.beta = -3.0;
    check_types_accepted(*pl, p);
    p.alpha = 0.1;
    CHECK_THAT(reason(*pl, p), Catch::StartsWith("unsupported: alpha and beta must be f16 values"));
    p.alpha = 1.0;
    p.beta = 65536.0;  // above f16's largest finite value
    CHECK_THAT(reason(*pl, p), Catch::StartsWith("unsupported: alpha and beta must be f16 values"));
}

TEST_CASE("cublas names the kernel that runs a problem when another is asked for", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cublas");
    REQUIRE(pl);
    CHECK(reason(*pl, problem(SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_F16), "cublaslt_s8s8_s32acc") ==
          "unsupported: cublaslt_s8s8_s32acc does not run this problem's types; cublaslt_f16f16_f32acc does");
}

#endif  // SPMMA_BUILT_CUBLAS

#ifdef SPMMA_BUILT_CUSPARSELT

TEST_CASE("cusparselt loads through spmma's loader as a sparse plugin with one kernel per type family", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cusparselt");
    REQUIRE(pl);
    CHECK(pl->usable());
    CHECK(pl->abi_major == SPMMA_ABI_MAJOR);
    CHECK_FALSE(pl->dense());
    CHECK(pl->target == "sm_80+");
    std::vector<std::string> names;
    for (const auto& k : pl->kernels) names.push_back(k.name);
    CHECK(names == std::vector<std::string>{"cusparselt_f16f16_f32acc", "cusparselt_f16f16_f16acc", "cusparselt_bf16bf16_f32acc",
                                            "cusparselt_tf32tf32_f32acc", "cusparselt_f8f8_f32acc", "cusparselt_s8s8_s32acc"});
    if (pl->version != SPMMA_VERSION) {
        CHECK_THAT(pl->version, Catch::StartsWith(std::string(SPMMA_VERSION) + "+cusparseLt.0."));
        CHECK_THAT(pl->description, Catch::Contains("libcusparseLt.so.0"));
    } else {
        CHECK_THAT(pl->description, Catch::Contains("cuSPARSELt (not usable here)"));
    }
}

TEST_CASE("cusparselt says why it cannot run without a GPU", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cusparselt");
    REQUIRE(pl);
    check_probe_here(*pl);
}

TEST_CASE("cusparselt accepts the types cuSPARSELt has and refuses the others with a precise reason", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cusparselt");
    REQUIRE(pl);
    check_types_accepted(*pl, problem(SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_F16));
    check_types_accepted(*pl, problem(SPMMA_F16, SPMMA_F16, SPMMA_F16, SPMMA_F16));
    check_types_accepted(*pl, problem(SPMMA_BF16, SPMMA_BF16, SPMMA_F32, SPMMA_BF16));
    check_types_accepted(*pl, problem(SPMMA_E4M3, SPMMA_E4M3, SPMMA_F32, SPMMA_BF16));
    check_types_accepted(*pl, problem(SPMMA_S8, SPMMA_S8, SPMMA_S32, SPMMA_S32));

    CHECK(reason(*pl, problem(SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_BF16)) ==
          "unsupported: cuSPARSELt's e2m1 GEMM is block-scaled only (paired 4:8 with ue4m3/ue8m0 scales, sm_100+); this problem is unscaled");
    CHECK(reason(*pl, problem(SPMMA_E3M2, SPMMA_E3M2, SPMMA_F32, SPMMA_BF16)) == "unsupported: cuSPARSELt has no e3m2 GEMM");
    CHECK(reason(*pl, problem(SPMMA_U4, SPMMA_U4, SPMMA_S32, SPMMA_S32, SPMMA_PATTERN_4_8_PAIRWISE)) ==
          "unsupported: cuSPARSELt has no 4-bit integer GEMM (u4)");
    CHECK(reason(*pl, problem(SPMMA_E4M3, SPMMA_E5M2, SPMMA_F32, SPMMA_BF16)) ==
          "unsupported: cuSPARSELt takes one type for A and B (got e4m3 x e5m2)");
    CHECK(reason(*pl, problem(SPMMA_TF32, SPMMA_TF32, SPMMA_F32, SPMMA_F32, SPMMA_PATTERN_2_4)) ==
          "unsupported: cuSPARSELt's tf32 GEMM is 1:2 sparse, not 2:4");
    CHECK(reason(*pl, problem(SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_F32)) == "unsupported: cuSPARSELt's f16 GEMM writes f16, not f32");
    CHECK(reason(*pl, problem(SPMMA_BF16, SPMMA_BF16, SPMMA_F32, SPMMA_F32)) == "unsupported: cuSPARSELt's bf16 GEMM writes bf16, not f32");

    spmma_problem sat = problem(SPMMA_S8, SPMMA_S8, SPMMA_S32, SPMMA_S32);
    sat.saturate = 1;
    CHECK(reason(*pl, sat) == "unsupported: cuSPARSELt's s8 GEMM has no satfinite accumulation");
    spmma_problem big_beta = problem(SPMMA_S8, SPMMA_S8, SPMMA_S32, SPMMA_S32);
    big_beta.beta = 33554432.0;  // 2^25
    CHECK_THAT(reason(*pl, big_beta), Catch::StartsWith("unsupported: alpha and beta must be integers of magnitude at most 2^24"));
}

TEST_CASE("cusparselt refuses tf32 with the measured reason unless SPMMA_CUSPARSELT_TF32=on", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cusparselt");
    REQUIRE(pl);
    const spmma_problem tf32 = problem(SPMMA_TF32, SPMMA_TF32, SPMMA_F32, SPMMA_F32, SPMMA_PATTERN_1_2);
    ::unsetenv("SPMMA_CUSPARSELT_TF32");
    CHECK(reason(*pl, tf32) ==
          "unsupported: cuSPARSELt 0.8's tf32 GEMM measured 28x outside tf32 tolerance on an H200 (2026-11-22); "
          "SPMMA_CUSPARSELT_TF32=on runs it anyway");
    ::setenv("SPMMA_CUSPARSELT_TF32", "1", 1);  // only "on" opts in
    CHECK_THAT(reason(*pl, tf32), Catch::StartsWith("unsupported: cuSPARSELt 0.8's tf32 GEMM measured 28x"));
    ::setenv("SPMMA_CUSPARSELT_TF32", "on", 1);
    check_types_accepted(*pl, tf32);
    CHECK(reason(*pl, problem(SPMMA_TF32, SPMMA_TF32, SPMMA_F32, SPMMA_BF16, SPMMA_PATTERN_1_2)) ==
          "unsupported: cuSPARSELt's tf32 GEMM accumulates and writes f32 (acc f32, out bf16)");
    ::unsetenv("SPMMA_CUSPARSELT_TF32");
}

TEST_CASE("cusparselt names the kernel that runs a problem when another is asked for", "[baselines]") {
    const Plugin* pl = find_plugin(plugins(), "cusparselt");
    REQUIRE(pl);
    CHECK(reason(*pl, problem(SPMMA_E4M3, SPMMA_E4M3, SPMMA_F32, SPMMA_BF16), "cusparselt_f16f16_f32acc") ==
          "unsupported: cusparselt_f16f16_f32acc does not run this problem's types; cusparselt_f8f8_f32acc does");
}

#endif  // SPMMA_BUILT_CUSPARSELT

TEST_CASE("without a GPU, creating a handle on a baseline plugin fails as unsupported with the probe's reason", "[baselines]") {
    if (driver_present()) {
        WARN("a CUDA driver is present: the no-GPU path is not what this machine exercises");
        return;
    }
    int checked = 0;
    for (const char* name : {"cublas", "cusparselt"}) {
        const Plugin* pl = find_plugin(plugins(), name);
        if (!pl) continue;
        const spmma_problem p = problem(SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_F16);
        spmma_handle* h = nullptr;
        CHECK(pl->api().create(0, &p, nullptr, &h) == SPMMA_UNSUPPORTED);
        CHECK(h == nullptr);
        CHECK_THAT(pl->last_error(), Catch::StartsWith("no GPU: CUDA driver not found"));
        ++checked;
    }
#if defined(SPMMA_BUILT_CUBLAS) || defined(SPMMA_BUILT_CUSPARSELT)
    CHECK(checked > 0);
#else
    WARN("neither baseline plugin was built (no CUDA toolkit): nothing to create");
#endif
}

// The sm100a plugin as the host sees it, on any machine: it loads, names itself, lists its
// kernels, and on a device its sm_100a code does not target (or with no GPU at all) says why
// and creates nothing; supports() explains the problems it cannot compute. `spmma plugins`
// lists it with that reason.
#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include "../common/plugin.hpp"

#include <cstdio>
#include <string>

namespace {

const spmma_plugin_api* load_sm100a() { return spmma_test::load_plugin(std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm100a.so"); }

spmma_problem problem(spmma_dtype a, spmma_pattern pat, spmma_dtype scale = SPMMA_DTYPE_NONE, int block = 0) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = 1000;
    p.n = 900;
    p.k = 512;
    p.a_type = p.b_type = a;
    p.acc_type = SPMMA_F32;
    p.c_type = p.d_type = SPMMA_F32;
    p.pattern = pat;
    p.scale_type = scale;
    p.scale_block = block;
    p.alpha = 1.0;
    return p;
}

std::string supports(const spmma_plugin_api* api, const spmma_problem& p, const char* kernel = nullptr) {
    char reason[512] = {};
    const spmma_status s = api->supports(0, &p, kernel, reason, sizeof reason);
    return s == SPMMA_OK ? std::string("OK") : std::string(reason);
}

}  // namespace

TEST_CASE("sm100a plugin: loads, names itself sm100a / sm_100a, lists its kernels", "[sm100a][plugin]") {
    const spmma_plugin_api* api = load_sm100a();
    CHECK(api->abi_major == SPMMA_ABI_MAJOR);
    spmma_plugin_info info{};
    info.struct_size = sizeof info;
    REQUIRE(api->get_info(&info) == SPMMA_OK);
    CHECK(std::string(info.name) == "sm100a");
    CHECK(std::string(info.target) == "sm_100a");
    CHECK(std::string(info.description).find("not yet run on sm_100 hardware") != std::string::npos);
    REQUIRE(api->kernel_count() >= 20);
    spmma_kernel_info k{};
    k.struct_size = sizeof k;
    REQUIRE(api->get_kernel(0, &k) == SPMMA_OK);
    CHECK(std::string(k.name).rfind("sm100a_", 0) == 0);
}

TEST_CASE("sm100a plugin: probe says why it cannot run here and nothing is created", "[sm100a][plugin]") {
    const spmma_plugin_api* api = load_sm100a();
    spmma_device_info d{};
    d.struct_size = sizeof d;
    REQUIRE(api->probe(0, &d) == SPMMA_OK);
    const std::string reason = d.reason;
    INFO("probe: runnable " << d.runnable << ", reason '" << reason << "', arch '" << d.arch << "'");
    if (d.runnable) {
        CHECK(std::string(d.arch) == "sm_100");  // only a B200/GB200 runs it
        return;
    }
    const bool no_gpu = reason.rfind("no GPU", 0) == 0;
    const bool wrong_arch = reason.rfind("built, needs sm_100a (B200/GB200); device is sm_", 0) == 0;
    CHECK((no_gpu || wrong_arch));
    spmma_problem p = problem(SPMMA_F16, SPMMA_PATTERN_2_4);
    spmma_handle* h = nullptr;
    CHECK(api->create(0, &p, nullptr, &h) == SPMMA_UNSUPPORTED);
    CHECK(h == nullptr);
    const std::string why = supports(api, p);
    CHECK(why.find(no_gpu ? "no GPU" : "built, needs sm_100a") != std::string::npos);
}

TEST_CASE("sm100a plugin: supports() explains the problems no sm100a kernel computes", "[sm100a][plugin]") {
    const spmma_plugin_api* api = load_sm100a();
    // Block scales per 32 k with kind::mxf8f6f4: the sparse instruction scales per 64 k.
    const std::string mx8 = supports(api, problem(SPMMA_E4M3, SPMMA_PATTERN_2_4, SPMMA_UE8M0, 32));
    CHECK(mx8.find("one scale per 64 k") != std::string::npos);
    // nvf4 with 16-k scale blocks: the sparse 4X form scales per 32 k (the most specific reason wins).
    const std::string nvf4 = supports(api, problem(SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE4M3, 16));
    CHECK(nvf4.find("mxf4nvf4.scale_vec::4X applies one scale per 32 k") != std::string::npos);
    // Pattern that the kind does not take.
    const std::string pat = supports(api, problem(SPMMA_F16, SPMMA_PATTERN_1_2));
    CHECK(pat.find("pattern") != std::string::npos);
    // Types no kind takes.
    const std::string s4 = supports(api, problem(SPMMA_S4, SPMMA_PATTERN_4_8_PAIRWISE));
    CHECK(s4.rfind("unsupported", 0) == 0);
    // A named kernel of another kind.
    const std::string named = supports(api, problem(SPMMA_F16, SPMMA_PATTERN_2_4), "sm100a_i8_s32_128x256x128_cg1_s5");
    CHECK(named.find("kind::i8") != std::string::npos);
}

TEST_CASE("sm100a plugin: spmma plugins lists it with the reason it cannot run here", "[sm100a][plugin]") {
    const std::string cmd = std::string("'") + SPMMA_EXE + "' plugins --plugin-dir '" + SPMMA_PLUGIN_DIR + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    char buf[4096];
    while (fgets(buf, sizeof buf, p)) out += buf;
    const int rc = pclose(p);
    INFO(cmd << "\n" << out);
    CHECK(rc == 0);
    CHECK(out.find("sm100a") != std::string::npos);
    CHECK(out.find("sm_100a") != std::string::npos);
    CHECK((out.find("no GPU") != std::string::npos || out.find("built, needs sm_100a") != std::string::npos));
}

// The kit's smallest CUDA plugin (example_plugin/) as spmma loads it: the kit turns its few
// answers into the whole ABI, and asks them in one order -- the problem, the kernel named, then
// the device -- so a problem's reasons are the same with or without a GPU. On a machine with an
// sm_80+ GPU it also runs a problem through spmma and verifies it.
#include <spmma/plugin.h>

#include "../common/plugin.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace {

const spmma_plugin_api* example() {
    return spmma_test::load_plugin(std::string(SPMMA_KIT_EXAMPLE_DIR) + "/spmma-kit-example.so");
}

spmma_problem f16_problem() {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = 100;
    p.n = 72;
    p.k = 64;
    p.a_type = p.b_type = SPMMA_F16;
    p.acc_type = p.c_type = p.d_type = SPMMA_F32;
    p.pattern = SPMMA_PATTERN_2_4;
    p.alpha = 1;
    return p;
}

// supports()'s answer: "OK" or the reason.
std::string supports(const spmma_problem& p, const char* kernel = nullptr) {
    char reason[512] = {};
    const spmma_status st = example()->supports(0, &p, kernel, reason, sizeof reason);
    return st == SPMMA_OK ? std::string("OK") : std::string(reason);
}

bool runnable_here() {
    spmma_device_info d{};
    d.struct_size = sizeof d;
    return example()->device_count() > 0 && example()->probe(0, &d) == SPMMA_OK && d.runnable;
}

}  // namespace

TEST_CASE("kit example: the kit lists its one kernel and describes it", "[plugin_kit]") {
    const spmma_plugin_api* api = example();
    spmma_plugin_info info{};
    info.struct_size = sizeof info;
    REQUIRE(api->get_info(&info) == SPMMA_OK);
    CHECK(std::string(info.name) == "kit-example");
    CHECK(std::string(info.vendor) == "spmma");
    CHECK((info.flags & SPMMA_PLUGIN_FLUSHES_L2) != 0);  // a CUDA plugin honours the L2 flush
    REQUIRE(api->kernel_count() == 1);
    spmma_kernel_info k{};
    k.struct_size = sizeof k;
    REQUIRE(api->get_kernel(0, &k) == SPMMA_OK);
    CHECK(std::string(k.name) == "kit_example_f16_2x4");
}

TEST_CASE("kit example: the problem's reason comes before the kernel's and the device's", "[plugin_kit]") {
    spmma_problem bf16 = f16_problem();
    bf16.a_type = bf16.b_type = SPMMA_BF16;
    CHECK(supports(bf16) == "the kit example computes f16 x f16 -> f32 only, not bf16 x bf16 -> f32");
    CHECK(supports(bf16, "kit_example_f16_2x4") == supports(bf16));
    CHECK(supports(f16_problem(), "kit_example_f16_2x5") == "no kernel named kit_example_f16_2x5");
    spmma_problem odd_k = f16_problem();
    odd_k.k = 66;  // the boundary's own check, before the plugin is asked
    CHECK(supports(odd_k).find("unsupported: k must be a multiple of 4") == 0);
    if (runnable_here()) {
        CHECK(supports(f16_problem(), "kit_example_f16_2x4") == "OK");
    } else {
        const std::string why = supports(f16_problem(), "kit_example_f16_2x4");
        CHECK((why.rfind("no GPU", 0) == 0 || why.find("needs sm_80 or newer") != std::string::npos));
        spmma_handle* h = nullptr;
        const spmma_problem p = f16_problem();
        CHECK(example()->create(0, &p, nullptr, &h) == SPMMA_UNSUPPORTED);
        CHECK(h == nullptr);
    }
}

TEST_CASE("kit example: with an sm_80+ GPU, spmma runs and verifies it", "[plugin_kit]") {
    if (!runnable_here()) {
        SUCCEED("no sm_80+ GPU here: the run is left to a GPU machine");
        return;
    }
    const std::string cmd = std::string("'") + SPMMA_EXE + "' gemm --plugin-dir '" + SPMMA_KIT_EXAMPLE_DIR +
                            "' --plugin kit-example --m 100 --n 72 --k 64 --dtype f16 --acc f32 --out f32 --beta 0.5 2>&1";
    FILE* f = popen(cmd.c_str(), "r");
    REQUIRE(f != nullptr);
    std::string out;
    char buf[4096];
    while (fgets(buf, sizeof buf, f)) out += buf;
    const int rc = pclose(f);
    INFO(cmd << "\n" << out);
    CHECK(rc == 0);
}

// The emu plugin (plugins/emu): GPU kernels' host packing run through the mma.sp model on the
// CPU. Through the CLI, every type family verifies against the reference; through the C ABI, an
// input the instruction leaves undefined fails the run with the model's report.
#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include <dlfcn.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Cli {
    int code;
    std::string out;
};

Cli spmma(const std::string& args) {
    const std::string cmd = std::string(SPMMA_EXE) + " " + args + " --plugin-dir " + SPMMA_PLUGIN_DIR + " 2>&1";
    Cli r{-1, {}};
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

const spmma_plugin_api* emu_api() {
    void* h = dlopen((std::string(SPMMA_PLUGIN_DIR) + "/spmma-emu.so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return nullptr;
    auto entry = reinterpret_cast<spmma_plugin_entry_fn>(dlsym(h, SPMMA_ENTRY_SYMBOL));
    return entry ? entry() : nullptr;
}

bool has_kernel(const spmma_plugin_api* api, const std::string& prefix) {
    for (int i = 0; i < api->kernel_count(); ++i) {
        spmma_kernel_info k{};
        k.struct_size = sizeof k;
        if (api->get_kernel(i, &k) == SPMMA_OK && std::string(k.name).rfind(prefix, 0) == 0) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("emu plugin: sm80 kernels (f16, bf16, tf32, 8- and 4-bit ints, e4m3) verify through the CLI", "[emu]") {
    const spmma_plugin_api* api = emu_api();
    REQUIRE(api);
    if (!has_kernel(api, "emu_sm80_")) {
        WARN("the sm80 packing library is not built here (it needs nvcc): nothing to emulate");
        return;
    }
    const std::string common = " --m 45 --n 21 --k 512 --dist int --verify full --warmup 0 --iterations 1 --no-progress -p emu";
    for (const char* types : {"--dtype f16", "--dtype f16 --acc f16 --out f16", "--dtype bf16", "--dtype tf32",
                              "--dtype s8 --b-type u8", "--dtype u4 --satfinite", "--dtype e4m3 --b-type e5m2"}) {
        INFO(types);
        for (const char* variant : {"'emu_sm8*_om'", "'emu_sm8*_sp'"}) {
            const Cli r = spmma(std::string("gemm ") + types + common + " --kernel " + variant);
            INFO(r.out);
            CHECK(r.code == 0);
            CHECK(r.out.find("0 failed, 0 errors") != std::string::npos);
        }
    }
}

TEST_CASE("emu plugin: sm120a kernels (kind::f8f6f4, mxf8f6f4, mxf4, mxf4nvf4) verify through the CLI", "[emu]") {
    const spmma_plugin_api* api = emu_api();
    REQUIRE(api);
    if (!has_kernel(api, "emu_sm120a_")) {
        WARN("the sm120a packing library is not built here: nothing to emulate");
        return;
    }
    const std::string common =
        " --m 40 --n 24 --k 512 --verify full --warmup 0 --iterations 1 --no-progress -p emu --kernel 'emu_sm120a*_s3'";
    for (const char* types : {"--dtype e3m2 --b-type e2m1", "--dtype e2m1 --acc f16 --out f16", "--dtype e2m3 --b-type e5m2",
                              "--dtype e4m3 --b-type e2m1 --scale-type ue8m0 --scale-block 64",      // mxf8f6f4 1X
                              "--dtype e2m1 --pattern 4:8 --scale-type ue8m0 --scale-block 64",      // mxf4, mxf4nvf4 2X
                              "--dtype e2m1 --pattern 4:8 --scale-type ue4m3 --scale-block 32"}) {   // mxf4nvf4 4X
        INFO(types);
        const Cli r = spmma(std::string("gemm ") + types + common);
        INFO(r.out);
        CHECK(r.code == 0);
        CHECK(r.out.find("emu_sm120a_") != std::string::npos);
        CHECK(r.out.find("0 failed, 0 errors") != std::string::npos);
    }
}

TEST_CASE("emu plugin: runs only when its kernels are named (opt-in)", "[emu]") {
    const Cli r = spmma("gemm --m 32 --n 16 --k 64 --dtype f16 --no-progress --warmup 0 --iterations 1 -p emu");
    INFO(r.out);
    CHECK(r.out.find("--kernel 'emu_sm80*'") != std::string::npos);
    CHECK(r.out.find("0 verified") != std::string::npos);
}

TEST_CASE("emu plugin: decreasing indices reach mma.sp::ordered_metadata and fail the run with the model's report", "[emu]") {
    const spmma_plugin_api* api = emu_api();
    REQUIRE(api);
    if (!has_kernel(api, "emu_sm80_")) {
        WARN("the sm80 packing library is not built here (it needs nvcc): nothing to emulate");
        return;
    }
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = 16; p.n = 8; p.k = 64;
    p.a_type = p.b_type = SPMMA_F16;
    p.acc_type = p.c_type = p.d_type = SPMMA_F32;
    p.pattern = SPMMA_PATTERN_2_4;
    p.alpha = 1.0;
    std::vector<uint16_t> a(16 * 32, 0x3c00), b(64 * 8, 0x3c00);
    std::vector<uint8_t> idx(16 * 16, 0b1000);  // columns 0 and 2 of every group
    idx[5 * 16 + 3] = 0b0010;                    // row 5, group 3: columns 2 then 0
    spmma_operands ops{};
    ops.struct_size = sizeof ops;
    ops.a_values = a.data(); ops.a_values_bytes = a.size() * 2;
    ops.a_indices = idx.data(); ops.a_indices_bytes = idx.size();
    ops.b = b.data(); ops.b_bytes = b.size() * 2;
    spmma_handle* h = nullptr;
    REQUIRE(api->create(0, &p, "emu_sm80_f16f16_f32_128x128x64_s3_om", &h) == SPMMA_OK);
    REQUIRE(api->upload(h, &ops) == SPMMA_OK);
    float ms = 0;
    spmma_run_config cfg{sizeof cfg, 0, 1, 0, &ms};
    CHECK(api->run(h, &cfg) != SPMMA_OK);
    char msg[1024];
    api->last_error(msg, sizeof msg);
    INFO(msg);
    CHECK(std::strstr(msg, "undefined input") != nullptr);
    CHECK(std::strstr(msg, "row 5, columns 12..15") != nullptr);
    CHECK(std::strstr(msg, "increasing") != nullptr);
    api->destroy(h);

    idx[5 * 16 + 3] = 0b1000;  // the same problem with valid indices runs: D = 32 * 1 * 1 everywhere
    REQUIRE(api->create(0, &p, "emu_sm80_f16f16_f32_128x128x64_s3_om", &h) == SPMMA_OK);
    REQUIRE(api->upload(h, &ops) == SPMMA_OK);
    REQUIRE(api->run(h, &cfg) == SPMMA_OK);
    std::vector<float> d(16 * 8);
    REQUIRE(api->download(h, d.data(), d.size() * 4) == SPMMA_OK);
    for (float v : d) CHECK(v == 32.0f);
    api->destroy(h);
}

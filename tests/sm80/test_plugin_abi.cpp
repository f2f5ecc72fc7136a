// The sm80 plugin through its C ABI (dlopen, as spmma loads it): what it says it is, its kernel
// names, and the reasons it gives for problems it cannot run. Runs with or without a GPU (the
// reasons checked here are decided before any device is asked about).
#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include <dlfcn.h>

#include <regex>
#include <set>
#include <string>

namespace {

const spmma_plugin_api* load_plugin() {
    static const spmma_plugin_api* api = [] {
        const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm80.so";
        void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
        INFO("dlopen " << so << ": " << (h ? "ok" : dlerror()));
        REQUIRE(h != nullptr);
        auto entry = reinterpret_cast<spmma_plugin_entry_fn>(dlsym(h, SPMMA_ENTRY_SYMBOL));
        REQUIRE(entry != nullptr);
        return entry();
    }();
    return api;
}

spmma_problem problem(spmma_dtype a, int64_t m, int64_t n, int64_t k) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a_type = p.b_type = a;
    const bool is_int = a == SPMMA_S8 || a == SPMMA_U8 || a == SPMMA_S4 || a == SPMMA_U4;
    p.acc_type = is_int ? SPMMA_S32 : SPMMA_F32;
    p.c_type = p.d_type = is_int ? SPMMA_S32 : SPMMA_F32;
    p.pattern = a == SPMMA_TF32 ? SPMMA_PATTERN_1_2
                : (a == SPMMA_S4 || a == SPMMA_U4) ? SPMMA_PATTERN_4_8_PAIRWISE
                                                   : SPMMA_PATTERN_2_4;
    p.alpha = 1;
    p.beta = 0;
    return p;
}

// supports()'s status and reason.
std::pair<spmma_status, std::string> ask(const spmma_problem& p, const char* kernel = nullptr) {
    char reason[512] = {};
    const spmma_status st = load_plugin()->supports(0, &p, kernel, reason, sizeof reason);
    return {st, reason};
}

}  // namespace

TEST_CASE("sm80 plugin describes itself as sm80 / sm_80 with uniquely named kernels", "[sm80][abi]") {
    const spmma_plugin_api* api = load_plugin();
    REQUIRE(api->abi_major == SPMMA_ABI_MAJOR);
    spmma_plugin_info info{};
    info.struct_size = sizeof info;
    REQUIRE(api->get_info(&info) == SPMMA_OK);
    CHECK(std::string(info.name) == "sm80");
    CHECK(std::string(info.target) == "sm_80");
    const std::regex name_re(R"(^sm(80|89)_[a-z0-9]+_(f32|f16|s32)(_sat)?_\d+x\d+x\d+_s\d_(om|sp)$)");
    std::set<std::string> names;
    int ordered = 0, legacy = 0;
    for (int32_t i = 0; i < api->kernel_count(); ++i) {
        spmma_kernel_info k{};
        k.struct_size = sizeof k;
        REQUIRE(api->get_kernel(i, &k) == SPMMA_OK);
        INFO(k.name);
        CHECK(std::regex_match(k.name, name_re));
        CHECK(names.insert(k.name).second);
        CHECK(std::string(k.description).find(" x ") != std::string::npos);
        const std::string n = k.name;
        (n.substr(n.size() - 3) == "_om" ? ordered : legacy)++;
    }
    // Every mma.sp kernel has its ordered-metadata twin; the decode tiles are ordered only.
    for (const std::string& n : names)
        if (n.substr(n.size() - 3) == "_sp") CHECK(names.count(n.substr(0, n.size() - 3) + "_om") == 1);
    CHECK(ordered == legacy + 12);  // 3 decode tiles for each of f16, bf16, e4m3, s8
    for (const char* must : {"sm80_f16f16_f32_256x128x64_s4_om", "sm80_f16f16_f16_128x128x64_s3_sp",
                             "sm80_f16f16_f32_128x16x64_s6_om", "sm89_e4m3e4m3_f32_128x32x128_s6_om",
                             "sm80_s8s8_s32_128x64x128_s4_om", "sm80_bf16bf16_f32_128x64x64_s4_om",
                             "sm80_bf16bf16_f32_128x256x64_s4_om", "sm80_tf32tf32_f32_256x128x32_s4_om",
                             "sm80_u8s8_s32_sat_256x128x128_s4_sp", "sm80_s4s4_s32_128x128x256_s3_om",
                             "sm89_e5m2e4m3_f32_256x128x128_s4_om"})
        CHECK(names.count(must) == 1);
}

TEST_CASE("sm80 plugin says why it cannot run a problem", "[sm80][abi]") {
    {
        auto p = problem(SPMMA_F16, 64, 64, 1002);
        auto [st, why] = ask(p);
        CHECK(st == SPMMA_UNSUPPORTED);
        CHECK(why.find("unsupported: k must be a multiple of 4") != std::string::npos);
    }
    {
        auto p = problem(SPMMA_F16, 64, 64, 64);
        p.pattern = SPMMA_PATTERN_1_2;
        auto [st, why] = ask(p);
        CHECK(st == SPMMA_UNSUPPORTED);
        CHECK(why.find("2:4") != std::string::npos);
    }
    {
        auto p = problem(SPMMA_E2M1, 64, 64, 64);
        p.pattern = SPMMA_PATTERN_2_4;
        auto [st, why] = ask(p);
        CHECK(st == SPMMA_UNSUPPORTED);
        CHECK(why.find("no sm_80 mma.sp form") != std::string::npos);
    }
    {
        auto p = problem(SPMMA_F16, 64, 64, 64);
        p.saturate = 1;
        auto [st, why] = ask(p);
        CHECK(why.find("satfinite") != std::string::npos);
    }
    {
        auto p = problem(SPMMA_F16, 64, 64, 64);
        p.d_type = SPMMA_S32;
        auto [st, why] = ask(p);
        CHECK(why.find("D must be f32, f16 or bf16") != std::string::npos);
    }
    {
        auto p = problem(SPMMA_S8, 64, 64, 64);
        p.alpha = 1.5;
        auto [st, why] = ask(p);
        CHECK(why.find("integer alpha and beta") != std::string::npos);
    }
    {
        auto p = problem(SPMMA_F16, 64, 64, 64);
        auto [st, why] = ask(p, "sm80_bf16bf16_f32_256x128x64_s4_om");
        CHECK(st == SPMMA_UNSUPPORTED);
        CHECK(why.find("runs bf16 x bf16") != std::string::npos);
    }
    {
        auto p = problem(SPMMA_F16, 64, 64, 64);
        p.scale_type = SPMMA_UE8M0;
        p.scale_block = 32;
        auto [st, why] = ask(p);
        CHECK(why.find("block-scaled") != std::string::npos);
    }
}

TEST_CASE("sm80 plugin probe: runnable from sm_80 on, else the reason", "[sm80][abi]") {
    const spmma_plugin_api* api = load_plugin();
    spmma_device_info d{};
    d.struct_size = sizeof d;
    REQUIRE(api->probe(0, &d) == SPMMA_OK);
    if (api->device_count() == 0) {
        CHECK(d.runnable == 0);
        CHECK(std::string(d.reason).find("no GPU") != std::string::npos);
        auto [st, why] = ask(problem(SPMMA_F16, 64, 64, 64));
        CHECK(st == SPMMA_UNSUPPORTED);
        CHECK(why.find("no GPU") != std::string::npos);
    } else {
        const std::string arch = d.arch;  // "sm_XY"
        const int cc = std::stoi(arch.substr(3));
        INFO(d.name << " " << arch << ": " << d.reason);
        if (cc >= 80) CHECK(d.runnable == 1);
        else CHECK(std::string(d.reason) == "needs sm_80 or newer, device is " + arch);
    }
}

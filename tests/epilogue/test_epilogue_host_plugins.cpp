// Every combination of the epilogue (row scale, column scale, bias none / per row / per column in
// f32 or D's type, each activation, with and without C) on the cpu plugin and on one emulated
// kernel of each GPU family, at an odd shape, through the C ABI as the host calls it; D verified
// in full against the reference. Integer problems are refused an epilogue with a reason.
#include "../common/plugin.hpp"

#include <spmma/core/operands.hpp>
#include <spmma/reference/verify.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace spmma;

namespace {

const std::string kDir = SPMMA_PLUGIN_DIR;

struct Combination {
    bool rs, cs;
    BiasAxis bias;
    bool bias_out;  // the bias in D's type (else f32)
    Activation act;
    bool with_c;
    std::string label() const {
        return std::string(rs ? "rs " : "") + (cs ? "cs " : "") +
               (bias == BiasAxis::None ? "" : std::string("bias:") + name(bias) + (bias_out ? "/d " : "/f32 ")) + name(act) +
               (with_c ? " +C" : "");
    }
};

// 2 x 2 x 5 x 4 = 80 combinations; C with every other one.
std::vector<Combination> all_combinations() {
    std::vector<Combination> v;
    const std::pair<BiasAxis, bool> biases[] = {
        {BiasAxis::None, false}, {BiasAxis::Row, false}, {BiasAxis::Col, false}, {BiasAxis::Row, true}, {BiasAxis::Col, true}};
    for (bool rs : {false, true})
        for (bool cs : {false, true})
            for (const auto& [axis, out] : biases)
                for (Activation act : {Activation::None, Activation::Relu, Activation::GeluTanh, Activation::Silu})
                    v.push_back({rs, cs, axis, out, act, v.size() % 2 == 1});
    return v;
}

Problem with_epilogue(Problem p, const Combination& c) {
    const EpilogueVector drawn{EpilogueVector::Source::Drawn, 0};
    if (c.rs) p.row_scale = drawn;
    if (c.cs) p.col_scale = drawn;
    if (c.bias != BiasAxis::None) {
        p.bias = drawn;
        p.bias_axis = c.bias;
        p.bias_type = c.bias_out ? p.d : DType::F32;
    }
    p.activation = c.act;
    p.alpha = 1.25;
    p.beta = c.with_c ? 0.5 : 0.0;
    return p;
}

Problem base(DType t, int64_t m, int64_t n, int64_t k) {
    Problem p;
    p.a = p.b = t;
    p.m = m;
    p.n = n;
    p.k = k;
    apply_default_types(p, false, false, false);
    return p;
}

std::string supports(const spmma_plugin_api* api, const Problem& p, const char* kernel) {
    const spmma_problem abi = p.to_abi();
    char why[1024] = {};
    return api->supports(0, &abi, kernel, why, sizeof why) == SPMMA_OK ? std::string() : std::string(why);
}

// Runs p on the plugin through create, upload, run, download; "" when D verifies in full, else
// what went wrong.
std::string run_and_verify(const spmma_plugin_api* api, const Problem& p, const char* kernel) {
    const Operands ops = generate_operands(p);
    const spmma_problem abi = p.to_abi();
    const spmma_operands view = ops.view();
    char err[1024] = {};
    auto failed = [&](const char* call) {
        api->last_error(err, sizeof err);
        return std::string(call) + ": " + err;
    };
    spmma_handle* h = nullptr;
    if (api->create(0, &abi, kernel, &h) != SPMMA_OK) return failed("create");
    std::string result;
    float ms = 0;
    spmma_run_config rc{};
    rc.struct_size = sizeof rc;
    rc.iterations = 1;
    rc.times_ms = &ms;
    std::vector<uint8_t> d(storage_bytes(p.d, p.m * p.n));
    if (api->upload(h, &view) != SPMMA_OK) result = failed("upload");
    else if (api->run(h, &rc) != SPMMA_OK) result = failed("run");
    else if (api->download(h, d.data(), d.size()) != SPMMA_OK) result = failed("download");
    api->destroy(h);
    if (!result.empty()) return result;
    const reference::GemmInput in{abi, view};
    reference::VerifyOptions vo;
    vo.mode = reference::VerifyMode::Full;
    const auto v = reference::check(in, reference::compute_expected(in, vo), d.data());
    if (v.passed) return {};
    const auto& m = v.first.front();
    return std::to_string(v.mismatches) + " mismatches, first D[" + std::to_string(m.i) + "," + std::to_string(m.j) +
           "] = " + std::to_string(m.got) + ", expected " + std::to_string(m.expected) + " +- " + std::to_string(m.tolerance);
}

// Whether the emu plugin lists kernels of `family` ("emu_sm80_...").
bool emu_has_family(const spmma_plugin_api* emu, const std::string& family) {
    for (int32_t i = 0; i < emu->kernel_count(); ++i) {
        spmma_kernel_info info{};
        info.struct_size = sizeof info;
        if (emu->get_kernel(i, &info) == SPMMA_OK && std::string(info.name).rfind("emu_" + family + "_", 0) == 0) return true;
    }
    return false;
}

// The first emulated kernel of `family` that runs a plain problem of one of `types` at m x n x k.
std::pair<std::string, DType> emu_kernel_for(const spmma_plugin_api* emu, const std::string& family, int64_t m, int64_t n, int64_t k) {
    for (DType t : {DType::F16, DType::BF16, DType::E4M3})
        for (int32_t i = 0; i < emu->kernel_count(); ++i) {
            spmma_kernel_info info{};
            info.struct_size = sizeof info;
            REQUIRE(emu->get_kernel(i, &info) == SPMMA_OK);
            const std::string name = info.name;
            if (name.rfind("emu_" + family + "_", 0) != 0) continue;
            if (supports(emu, base(t, m, n, k), name.c_str()).empty()) return {name, t};
        }
    return {};
}

}  // namespace

TEST_CASE("cpu plugin: every epilogue combination verifies at 37x29x64 (f16 -> f16, e4m3 -> bf16, bf16 -> bf16)", "[epilogue][cpu]") {
    const spmma_plugin_api* cpu = spmma_test::load_plugin(kDir + "/spmma-cpu.so");
    for (DType t : {DType::F16, DType::E4M3, DType::BF16})
        for (const Combination& c : all_combinations()) {
            const Problem p = with_epilogue(base(t, 37, 29, 64), c);
            INFO(p.label() << " (" << c.label() << ")");
            REQUIRE(supports(cpu, p, nullptr).empty());
            CHECK(run_and_verify(cpu, p, nullptr).empty());
        }
}

TEST_CASE("emu plugin: every epilogue combination verifies on one emulated kernel of each family (sm80, sm90a, sm100a, sm120a)",
          "[epilogue][emu]") {
    const spmma_plugin_api* emu = spmma_test::load_plugin(kDir + "/spmma-emu.so");
    int families = 0;
    for (const std::string family : {"sm80", "sm90a", "sm100a", "sm120a"}) {
        if (!emu_has_family(emu, family)) {
            // NOTES: the emu plugin has the families whose packing library the build has; sm80's
            // is built with nvcc only (plugins/sm80/CMakeLists.txt).
            WARN("the emu plugin of this build has no " << family << " kernels: not emulated here");
            continue;
        }
        ++families;
        const auto [kernel, type] = emu_kernel_for(emu, family, 37, 29, 128);
        INFO(family);
        REQUIRE_FALSE(kernel.empty());
        for (const Combination& c : all_combinations()) {
            const Problem p = with_epilogue(base(type, 37, 29, 128), c);
            INFO(kernel << ": " << p.label() << " (" << c.label() << ")");
            REQUIRE(supports(emu, p, kernel.c_str()).empty());
            CHECK(run_and_verify(emu, p, kernel.c_str()).empty());
        }
    }
    CHECK(families >= 3);  // sm90a, sm100a and sm120a are in every build
}

TEST_CASE("an epilogue on an integer problem is refused by the cpu and emu plugins with the reason", "[epilogue]") {
    Problem p = base(DType::S8, 37, 29, 64);
    p.activation = Activation::Relu;
    const spmma_plugin_api* cpu = spmma_test::load_plugin(kDir + "/spmma-cpu.so");
    CHECK(supports(cpu, p, nullptr) == "integer problems take no epilogue (scales, bias, activation)");
    const spmma_plugin_api* emu = spmma_test::load_plugin(kDir + "/spmma-emu.so");
    p.activation = Activation::None;
    for (int32_t i = 0; i < emu->kernel_count(); ++i) {
        spmma_kernel_info info{};
        info.struct_size = sizeof info;
        REQUIRE(emu->get_kernel(i, &info) == SPMMA_OK);
        if (!supports(emu, p, info.name).empty()) continue;  // an s8 kernel
        Problem q = p;
        q.row_scale = {EpilogueVector::Source::Given, 2.0};
        CHECK(supports(emu, q, info.name) == "integer problems take no epilogue (scales, bias, activation)");
        return;
    }
    FAIL("no emulated kernel runs s8");
}

// Every combination of the epilogue (row scale, column scale, bias none / per row / per column in
// f32 or D's type, each activation, with and without C) on the cpu plugin and on one emulated
// kernel of each GPU family, at an odd shape, through the C ABI as the host calls it; D verified
// in full against the reference. Integer problems are refused an epilogue with a reason.
#include "epilogue_cases.hpp"

#include <string>

using namespace spmma;
using namespace spmma::epilogue_test;

namespace {

const std::string kDir = SPMMA_PLUGIN_DIR;

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

// The epilogue of ABI 1.2 on the GPU plugins, on the GPU: sm90a and sm80 fuse it into their float
// kernels' epilogues, so every combination verifies in full at odd shapes with the heuristic's
// kernel (sm90a: direct stores where n is odd or C is read, TMA stores from the epilogue buffers
// otherwise), and each of their float kernels verifies four combinations that take both paths
// (sm90a's 256x192 f32 kernels refuse it by name: no registers left); a plugin that does not
// apply it (the vendor baselines) refuses it with a reason. sm100a and sm120a fuse it too, proven
// by compilation (no such GPU here) and by their instruction models (test_epilogue_host_plugins). Needs a GPU the plugin runs on;
// elsewhere those cases WARN "skipped" and pass (as test_device_wgmma does).
#include "epilogue_cases.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

using namespace spmma;
using namespace spmma::epilogue_test;

namespace {

const std::string kDir = SPMMA_PLUGIN_DIR;

// The plugin's API when its file is built and a GPU it runs on is here, else nullptr and *skip.
const spmma_plugin_api* gpu_plugin(const std::string& name, std::string* skip) {
    const std::string file = kDir + "/spmma-" + name + ".so";
    if (!std::filesystem::exists(file)) {
        *skip = name + " plugin not built (a build without nvcc)";
        return nullptr;
    }
    const spmma_plugin_api* api = spmma_test::load_plugin(file);
    if (std::string why = supports(api, base(DType::F16, 64, 64, 64), nullptr); !why.empty()) {
        *skip = "no GPU for " + name + " (" + why + ")";
        return nullptr;
    }
    return api;
}

Combination combination(bool rs, bool cs, BiasAxis bias, bool bias_out, Activation act, bool with_c) {
    return {rs, cs, bias, bias_out, act, with_c};
}

// Four combinations that touch every part: each vector, both bias axes and types, each
// activation, with C (direct stores) and without (TMA stores where D's rows allow).
std::vector<Combination> four_combinations() {
    return {combination(true, true, BiasAxis::Row, true, Activation::GeluTanh, true),
            combination(true, true, BiasAxis::Col, false, Activation::Silu, false),
            combination(true, false, BiasAxis::Row, false, Activation::Relu, false),
            combination(false, true, BiasAxis::Col, true, Activation::None, true)};
}

}  // namespace

TEST_CASE("sm90a and sm80 on the GPU: every epilogue combination verifies at 37x29x128, 200x48x256 and 333x136x512 (f16, e4m3 -> bf16, bf16)",
          "[epilogue][gpu]") {
    for (const std::string plugin : {"sm90a", "sm80"}) {
        std::string skip;
        const spmma_plugin_api* api = gpu_plugin(plugin, &skip);
        if (!api) {
            WARN("skipped: " << skip);
            continue;
        }
        const std::pair<int64_t, int64_t> shapes[] = {{37, 29}, {200, 48}, {333, 136}};
        for (DType t : {DType::F16, DType::E4M3, DType::BF16})
            for (const auto& [m, n] : shapes)
                for (const Combination& c : all_combinations()) {
                    const Problem p = with_epilogue(base(t, m, n, m == 37 ? 128 : m == 200 ? 256 : 512), c);
                    INFO(plugin << ": " << p.label() << " (" << c.label() << ")");
                    REQUIRE(supports(api, p, nullptr).empty());
                    CHECK(run_and_verify(api, p, nullptr).empty());
                }
    }
}

TEST_CASE("sm90a and sm80 on the GPU: each float kernel verifies four epilogue combinations at 200x48x256 or refuses the epilogue by name", "[epilogue][gpu]") {
    for (const std::string plugin : {"sm90a", "sm80"}) {
        std::string skip;
        const spmma_plugin_api* api = gpu_plugin(plugin, &skip);
        if (!api) {
            WARN("skipped: " << skip);
            continue;
        }
        int kernels = 0, refused = 0;
        for (int32_t i = 0; i < api->kernel_count(); ++i) {
            spmma_kernel_info info{};
            info.struct_size = sizeof info;
            REQUIRE(api->get_kernel(i, &info) == SPMMA_OK);
            for (DType t : {DType::F16, DType::BF16, DType::E4M3, DType::TF32}) {
                if (!supports(api, base(t, 200, 48, 256), info.name).empty()) continue;
                ++kernels;
                for (const Combination& c : four_combinations()) {
                    const Problem p = with_epilogue(base(t, 200, 48, 256), c);
                    INFO(info.name << ": " << p.label() << " (" << c.label() << ")");
                    // sm90a's kernels whose accumulators fill the registers refuse it by name.
                    if (const std::string why = supports(api, p, info.name); !why.empty()) {
                        CHECK_THAT(why, Catch::Contains("does not fuse the epilogue"));
                        ++refused;
                        break;
                    }
                    CHECK(run_and_verify(api, p, info.name).empty());
                }
                break;
            }
        }
        INFO(plugin << ": " << kernels << " float kernels, " << refused << " refuse the epilogue");
        CHECK(kernels >= 10);           // every float kernel of the plugin's table runs one of these types
        CHECK(refused * 4 <= kernels);  // the fusing ones are most of them
    }
}

TEST_CASE("the cusparselt plugin, which does not map the epilogue to cuSPARSELt's yet, refuses it with the reason before asking for a device",
          "[epilogue][gpu]") {
    const std::string file = kDir + "/spmma-cusparselt.so";
    if (!std::filesystem::exists(file)) {
        WARN("skipped: cusparselt plugin not built (a build without nvcc or cuSPARSELt)");
        return;
    }
    const spmma_plugin_api* cusparselt = spmma_test::load_plugin(file);
    const Problem p = with_epilogue(base(DType::F16, 128, 64, 256), combination(true, false, BiasAxis::None, false, Activation::Relu, false));
    CHECK(supports(cusparselt, p, nullptr) ==
          "unsupported: the cusparselt plugin does not apply the epilogue yet (rs relu); it computes alpha*A*B + beta*C only");
}

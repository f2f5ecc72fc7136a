// The epilogue of ABI 1.2 on the GPU plugins, on the GPU: sm90a and sm80 fuse it into their float
// kernels' epilogues, so every combination verifies in full at odd shapes with the heuristic's
// kernel (sm90a: direct stores where n is odd or C is read, TMA stores from the epilogue buffers
// otherwise), and each of their float kernels verifies four combinations that take both paths
// (sm90a's 256x192 f32 kernels refuse it by name: no registers left); the cusparselt plugin maps
// what cuSPARSELt's epilogue has (a row scale, a row bias, ReLU, GELU) and verifies it, refusing
// the rest with a reason, as the cublas plugin refuses all of it. sm100a and sm120a fuse it too, proven
// by compilation (no such GPU here) and by their instruction models (test_epilogue_host_plugins). Needs a GPU the plugin runs on;
// elsewhere those cases WARN "skipped" and pass (as test_device_wgmma does).
#include "epilogue_cases.hpp"

#include <filesystem>
#include <set>
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

// The reason a vendor baseline gives for a combination its library's epilogue cannot express
// (cusparselt: sp_setup.cpp, cublas: lt_setup.cpp), "" for one it maps. cuSPARSELt's vectors run
// along D's rows; cuBLASLt's along its column-major D's rows, this D's columns.
std::string cusparselt_refusal(const Combination& c, DType d) {
    if (c.cs) return "unsupported: cuSPARSELt scales rows only (its alpha vector has one value per row of D); no column scale";
    if (c.rs && c.with_c) return "unsupported: with a row scale (cuSPARSELt's alpha vector) the cusparselt plugin runs beta = 0 only";
    if (c.bias == BiasAxis::Col) return "unsupported: cuSPARSELt's bias has one value per row of D; no column bias";
    if (c.bias == BiasAxis::Row && !c.bias_out && d != DType::F32)
        return std::string("unsupported: cuSPARSELt's bias has D's type (") + name(d) + "), not f32";
    if (c.act == Activation::Silu) return "unsupported: cuSPARSELt has no SiLU (its activations are ReLU and GELU)";
    return {};
}

std::string cublas_refusal(const Combination& c, DType) {
    if (c.rs) return "unsupported: cuBLASLt's alpha vector scales the rows of its column-major D, the columns of this D; no row scale";
    if (c.cs && c.with_c) return "unsupported: cuBLASLt's alpha vector takes beta = 0 (CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO)";
    if (c.bias == BiasAxis::Row)
        return "unsupported: cuBLASLt's bias has one value per row of its column-major D, a column of this D; no row bias";
    if (c.act == Activation::Silu) return "unsupported: cuBLASLt has no SiLU epilogue (its activations are ReLU and GELU)";
    return {};
}

// The plugin's reason when create refuses p (SPMMA_UNSUPPORTED: the library declined what the
// plugin passed on), "" when create succeeds or fails otherwise (run_and_verify reports that).
std::string declined_at_create(const spmma_plugin_api* api, const Problem& p) {
    const spmma_problem abi = p.to_abi();
    spmma_handle* h = nullptr;
    const spmma_status st = api->create(0, &abi, nullptr, &h);
    if (h) api->destroy(h);
    if (st != SPMMA_UNSUPPORTED) return {};
    char err[1024] = {};
    api->last_error(err, sizeof err);
    return err;
}

struct Baseline {
    const char* plugin;
    const char* library;
    std::string (*refusal)(const Combination&, DType);
    int mapped;  // of all_combinations() on an f16 problem
};

// cusparselt: {no rs, rs} x {no bias, a row bias of D's type} x {none, relu, gelu}, less rs with
// relu (the combinations with relu or silu carry C; the alpha vector runs without). cublas: {no
// cs, cs} x {no bias, column bias f32 / D's type} x {none, relu, gelu}, less cs with relu.
const Baseline kBaselines[] = {{"cusparselt", "cuSPARSELt", cusparselt_refusal, 10}, {"cublas", "cuBLASLt", cublas_refusal, 15}};

TEST_CASE("the cusparselt and cublas plugins refuse, before asking for a device, each epilogue their library cannot express, with the reason",
          "[epilogue][gpu]") {
    for (const Baseline& b : kBaselines) {
        const std::string file = kDir + "/spmma-" + b.plugin + ".so";
        if (!std::filesystem::exists(file)) {
            WARN("skipped: " << b.plugin << " plugin not built (a build without nvcc or the library's headers)");
            continue;
        }
        const spmma_plugin_api* api = spmma_test::load_plugin(file);
        int refused = 0, mapped = 0;
        for (const Combination& c : all_combinations()) {
            const Problem p = with_epilogue(base(DType::F16, 128, 64, 256), c);
            INFO(b.plugin << ": " << c.label());
            const std::string expected = b.refusal(c, DType::F16), got = supports(api, p, nullptr);
            if (!expected.empty()) {
                CHECK(got == expected);
                ++refused;
            } else {
                // mapped: a refusal left is the machine's (no GPU, no library) or, on a GPU, the
                // library's own (supports asks it), never the plugin's
                CHECK(got.find("Lt's") == std::string::npos);
                CHECK((got.find("epilogue") == std::string::npos || got.find(std::string(b.library) + " declines this epilogue: ") == 0 ||
                       got.find("unsupported: " + std::string(b.library) + " declines this epilogue: ") == 0));
                ++mapped;
            }
        }
        CHECK(mapped == b.mapped);
        CHECK(refused == 80 - b.mapped);
    }
}

TEST_CASE("cusparselt and cublas on the GPU: every epilogue their library maps verifies at 37x29x128, 200x48x256 and 333x136x512 "
          "(f16, e4m3 -> bf16, bf16)",
          "[epilogue][gpu]") {
    for (const Baseline& b : kBaselines) {
        std::string skip;
        const spmma_plugin_api* api = gpu_plugin(b.plugin, &skip);
        if (!api) {
            WARN("skipped: " << skip);
            continue;
        }
        const std::pair<int64_t, int64_t> shapes[] = {{37, 29}, {200, 48}, {333, 136}};
        int runs = 0, library_refused = 0;
        std::set<std::string> declines;
        for (DType t : {DType::F16, DType::E4M3, DType::BF16})
            for (const auto& [m, n] : shapes)
                for (const Combination& c : all_combinations()) {
                    const Problem p = with_epilogue(base(t, m, n, m == 37 ? 128 : m == 200 ? 256 : 512), c);
                    if (!b.refusal(c, p.d).empty()) continue;
                    INFO(b.plugin << ": " << p.label() << " (" << c.label() << ")");
                    // What passes the plugin's own checks the library itself may decline (its
                    // alpha vector, a bias type, an activation for these types, by version and
                    // GPU): supports() asks it and says so in its words, and create agrees.
                    if (const std::string why = supports(api, p, nullptr); !why.empty()) {
                        CHECK_THAT(why, Catch::Contains(b.library + std::string(" declines this epilogue: ")));
                        declines.insert(c.label() + " on " + name(t) + ": " + why.substr(0, 160));
                        CHECK(declined_at_create(api, p) == why);
                        ++library_refused;
                        continue;
                    }
                    CHECK(run_and_verify(api, p, nullptr).empty());
                    ++runs;
                }
        std::string listed;
        for (const std::string& d : declines) listed += "\n  " + d;
        WARN(b.plugin << ": " << runs << " verified, " << library_refused << " declined by the library:" << listed);
        CHECK(runs + library_refused == 3 * 3 * b.mapped);
        // at least no epilogue, ReLU, the bias and both together run on every type and shape
        CHECK(runs >= 3 * 3 * 4);
    }
}

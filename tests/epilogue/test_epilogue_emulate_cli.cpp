// spmma gemm --emulate FAMILY with an epilogue: every emulated kernel of the family that runs the
// problem (sm80 f16; sm90a, sm100a, sm120a e4m3, the serving op's types) verifies in full at an
// odd shape, scales, bias and activation applied after the instruction model's accumulator.
#include "../app/cli.hpp"

#include <catch2/catch.hpp>

#include <regex>

namespace {

// The number of verified records in spmma's summary line, when nothing failed, erred or went unverified.
int verified_without_failures(const CliResult& r) {
    std::smatch m;
    static const std::regex summary(R"((\d+) verified, 0 failed, 0 errors, 0 not verified)");
    return std::regex_search(r.out, m, summary) ? std::stoi(m[1]) : 0;
}

}  // namespace

TEST_CASE("gemm with emulate runs the epilogue on every family's instruction model (sm80, sm90a, sm100a, sm120a), verified", "[epilogue][emu]") {
    const std::pair<const char*, const char*> families[] = {
        {"sm80", "--dtype f16 --row-scale random --col-scale 0.5 --bias col,f32 --activation gelu-tanh --beta 0.5"},
        {"sm90a", "--op scaled-mm --activation silu"},
        {"sm100a", "--op scaled-mm --activation relu"},
        {"sm120a", "--op scaled-mm"},
    };
    for (const auto& [family, args] : families) {
        const auto r = spmma_cli(std::string("gemm --emulate ") + family + " --m 37 --n 29 --k 128 " + args +
                                 " --verify full --warmup 0 --iterations 1 --no-progress --plugin-dir " + SPMMA_PLUGIN_DIR);
        INFO(family << ": " << r.out);
        if (std::string(family) == "sm80" && r.out.find("--emulate: no GPU family 'sm80'") != std::string::npos) {
            // NOTES: sm80's packing library, and so its emulated kernels, are built with nvcc only.
            WARN("the emu plugin of this build has no sm80 kernels: not emulated here");
            continue;
        }
        CHECK(r.code == 0);
        CHECK(verified_without_failures(r) > 0);
    }
}

// The device packer of A in stage order (plugins/sm90a/device/sm90a_pack_a_stages.cu, launched
// with pack_a_stages_params as the plugin launches it) against the host's pack_a_stages, byte for
// byte: every family, blocks of 64, 128 and 256 rows, m not a whole tile and k not a whole stage
// (rows of a size that is not a multiple of 16 bytes), the packed buffer filled with garbage first
// so that a chunk the kernel skips cannot match. Needs a Hopper GPU; elsewhere it WARNs and passes.
#include "hopper.hpp"

#include <catch2/catch.hpp>

#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_sm90a/pack.hpp>

#include <algorithm>
#include <random>
#include <vector>

SPMMA_DECLARE_FATBIN(sm90a_pack_a_stages)

using namespace spmma_sm90a;
namespace cu = spmma_plugin::cuda;

TEST_CASE("sm90a device: A packed in stage order on the GPU equals pack_a_stages byte for byte (every family, odd m and k)",
          "[sm90a][device]") {
    SPMMA_TEST_RETURN_WITHOUT_HOPPER();
    cu::Context ctx(0);
    cu::Module mod(SPMMA_FATBIN(sm90a_pack_a_stages));
    const CUfunction fn = mod.function(kPackAStagesKernel);
    cu::Stream stream;
    std::mt19937 rng(7);
    struct Case {
        Family f;
        int64_t m, k;
        int slice_rows;
    };
    // k: f16 100 (a 100-byte row), e4m3 200 (100 bytes), tf32 36 (72 bytes); and whole stages.
    const Case cases[] = {{Family::B16, 200, 100, 128}, {Family::B16, 77, 64, 64},    {Family::B16, 300, 1000, 256},
                          {Family::B8, 200, 200, 128},  {Family::B8, 129, 256, 256},  {Family::B8, 64, 4096, 64},
                          {Family::B32, 100, 36, 128},  {Family::B32, 256, 96, 256}};
    for (const Case& c : cases) {
        CAPTURE(static_cast<int>(c.f), c.m, c.k, c.slice_rows);
        const int64_t kp = padded_k(c.f, c.k);
        std::vector<uint8_t> a(static_cast<size_t>(c.m * c.k / 2 * traits(c.f).elem_bytes));
        for (auto& b : a) b = static_cast<uint8_t>(rng());
        std::vector<uint8_t> want(packed_a_stages_bytes(c.f, c.m, kp, c.slice_rows));
        pack_a_stages(c.f, a.data(), c.m, c.k, kp, c.slice_rows, want.data());

        cu::DeviceBuffer src(a.size()), dst(want.size());
        src.upload(a.data(), a.size());
        dst.fill(0xA5);
        PackAStagesParams p = pack_a_stages_params(c.f, src.as<const void>(), c.m, c.k, kp, c.slice_rows, dst.as());
        REQUIRE(p.chunks * 16 == static_cast<int64_t>(want.size()));
        // Fewer CTAs than chunks / 256, so the grid-stride loop runs more than once.
        cu::launch_1d(fn, 3, 256, 0, stream.get(), p);
        stream.synchronize();
        std::vector<uint8_t> got(want.size());
        dst.download(got.data(), got.size());
        const auto diff = std::mismatch(want.begin(), want.end(), got.begin());
        INFO("first differing byte: " << (diff.first - want.begin()) << " of " << want.size());
        CHECK(diff.first == want.end());
    }
}

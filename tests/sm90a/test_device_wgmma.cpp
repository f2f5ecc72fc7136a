// The real wgmma.mma_async.sp (through the plugin's PTX wrappers) against the instruction model,
// bit for bit: random shared memory (small integers of the operand types), random valid metadata
// in the lanes the selector names and garbage in the others, random accumulators, scale-d on and
// off, descriptors built by the kernels' helper (layout.hpp) at both k-steps of a stage.
// Needs a Hopper GPU; elsewhere it WARNs "skipped: no GPU" and passes.
#include "hopper.hpp"

#include <catch2/catch.hpp>

#include <spmma/isa/smem.hpp>
#include <spmma/isa/wgmma_sp.hpp>
#include <spmma/types.hpp>
#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_sm90a/layout.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

SPMMA_DECLARE_FATBIN(sm90a_wgmma_probe)

using namespace spmma_sm90a;
using spmma::DType;
namespace isa = spmma::isa;
namespace cu = spmma_plugin::cuda;

namespace {

struct Probe {
    std::string kernel;
    DType a, b, d;
    bool sat;
    int n, sel;
};

std::vector<Probe> probes() {
    std::vector<Probe> v;
    struct T {
        DType a, b, d;
        bool sat;
    };
    const T instr_f16f16_f32{DType::F16, DType::F16, DType::F32, false}, instr_f16f16_f16{DType::F16, DType::F16, DType::F16, false},
        instr_bf16bf16_f32{DType::BF16, DType::BF16, DType::F32, false}, instr_tf32tf32_f32{DType::TF32, DType::TF32, DType::F32, false},
        instr_e4m3e4m3_f32{DType::E4M3, DType::E4M3, DType::F32, false}, instr_e4m3e5m2_f32{DType::E4M3, DType::E5M2, DType::F32, false},
        instr_e5m2e4m3_f32{DType::E5M2, DType::E4M3, DType::F32, false}, instr_e5m2e5m2_f32{DType::E5M2, DType::E5M2, DType::F32, false},
        instr_e4m3e4m3_f16{DType::E4M3, DType::E4M3, DType::F16, false}, instr_e4m3e5m2_f16{DType::E4M3, DType::E5M2, DType::F16, false},
        instr_e5m2e4m3_f16{DType::E5M2, DType::E4M3, DType::F16, false}, instr_e5m2e5m2_f16{DType::E5M2, DType::E5M2, DType::F16, false},
        instr_s8s8_s32{DType::S8, DType::S8, DType::S32, false}, instr_s8u8_s32{DType::S8, DType::U8, DType::S32, false},
        instr_u8s8_s32{DType::U8, DType::S8, DType::S32, false}, instr_u8u8_s32{DType::U8, DType::U8, DType::S32, false},
        instr_s8s8_s32sat{DType::S8, DType::S8, DType::S32, true}, instr_s8u8_s32sat{DType::S8, DType::U8, DType::S32, true},
        instr_u8s8_s32sat{DType::U8, DType::S8, DType::S32, true}, instr_u8u8_s32sat{DType::U8, DType::U8, DType::S32, true};
#define SPMMA_PROBE(INSTR, N, SEL) \
    v.push_back({"probe_" #INSTR "_n" #N "_sel" #SEL, INSTR.a, INSTR.b, INSTR.d, INSTR.sat, N, SEL});
#include "sm90a_wgmma_probes.inc"
#undef SPMMA_PROBE
    return v;
}

// Small integers the type holds exactly; int types over their range.
uint32_t operand_code(DType t, std::mt19937& rng) {
    if (t == DType::S8) return static_cast<uint32_t>(static_cast<uint8_t>(static_cast<int8_t>(rng() % 256 - 128)));
    if (t == DType::U8) return rng() % 256;
    int v = static_cast<int>(rng() % 7) - 3;
    return spmma::encode(t, v);
}

}  // namespace

TEST_CASE("sm90a device: wgmma.mma_async.sp on the GPU equals the model bit for bit (every type, both selectors, scale-d on and off)",
          "[sm90a][device]") {
    SPMMA_TEST_RETURN_WITHOUT_HOPPER();
    cu::Context ctx(0);
    cu::Module mod(SPMMA_FATBIN(sm90a_wgmma_probe));
    cu::Stream stream;
    constexpr uint32_t kImage = 64 * 1024;
    constexpr uint32_t kABase = 0, kBBase = 4096;  // A: 64 rows x 64 B (64-byte swizzle); B: N rows x 128 B
    std::mt19937 rng(2024);
    int failures = 0;
    for (const Probe& pr : probes()) {
        CUfunction f = mod.function(pr.kernel.c_str());
        cu::set_max_dynamic_smem(f, kImage + 1024);
        isa::WgmmaSp op;
        op.n = pr.n;
        op.a = pr.a;
        op.b = pr.b;
        op.d = pr.d;
        op.satfinite = pr.sat;
        const int regs = isa::wgmma_d_registers(op);
        const bool b32 = pr.a == DType::TF32, b8 = spmma::info(pr.a).storage_bits == 8;
        const int eb = spmma::info(pr.a).storage_bits / 8;
        for (int trial = 0; trial < 6; ++trial) {
            const int step = trial % 2;
            op.scale_d = trial % 3 != 2;
            isa::SharedMemory smem;
            for (uint32_t i = 0; i < 4096; i += eb) smem.store(kABase + i, eb, operand_code(pr.a, rng));
            for (uint32_t i = 0; i < static_cast<uint32_t>(pr.n) * 128; i += eb) smem.store(kBBase + i, eb, operand_code(pr.b, rng));
            isa::WgmmaSpWarpgroup wg;
            wg.selector = pr.sel;
            wg.a_desc = kmajor_desc(kABase, kStageARowBytes, 0, step * kInstrARowBytes);
            wg.b_desc = kmajor_desc(kBBase, kStageBRowBytes, 0, step * kInstrBRowBytes);
            static const uint32_t pairs[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
            for (int t = 0; t < 128; ++t) {
                const bool contributes = b8 || ((t % 4) / 2 == pr.sel);
                uint32_t w = 0;
                for (int j = 0; j < 8; ++j) w |= (b32 ? ((rng() & 1) ? 0xEu : 0x4u) : pairs[rng() % 6]) << (4 * j);
                wg.meta[t] = contributes ? w : static_cast<uint32_t>(rng());  // others: ignored garbage
                wg.d[t].resize(static_cast<size_t>(regs));
                for (auto& r : wg.d[t]) {
                    if (!op.scale_d) r = 0x7FC00001u ^ static_cast<uint32_t>(rng() & 0x10000u);  // must not be read
                    else if (pr.d == DType::S32) r = static_cast<uint32_t>(rng()) ^ (rng() % 4 == 0 ? 0x7FFFFF00u : 0u);
                    else if (pr.d == DType::F16) r = spmma::encode(DType::F16, int(rng() % 9) - 4) | (spmma::encode(DType::F16, int(rng() % 9) - 4) << 16);
                    else r = spmma::encode(DType::F32, int(rng() % 9) - 4);
                }
            }
            const isa::WgmmaSpResult want = isa::wgmma_sp(op, smem, wg);
            INFO(pr.kernel << " trial " << trial);
            REQUIRE(want.undefined.empty());

            cu::DeviceBuffer image(kImage), meta(128 * 4), din(size_t(128) * regs * 4), dout(size_t(128) * regs * 4);
            image.upload(smem.bytes.data(), kImage);
            meta.upload(wg.meta.data(), 128 * 4);
            std::vector<uint32_t> flat;
            for (int t = 0; t < 128; ++t) flat.insert(flat.end(), wg.d[t].begin(), wg.d[t].end());
            din.upload(flat.data(), flat.size() * 4);
            dout.fill(0xEE);
            CUdeviceptr pi = image.get(), pm = meta.get(), pd = din.get(), po = dout.get();
            uint32_t bytes = kImage, scale = op.scale_d ? 1u : 0u;
            uint64_t da = wg.a_desc, db = wg.b_desc;
            void* args[] = {&pi, &bytes, &pm, &pd, &da, &db, &scale, &po};
            cu::LaunchShape shape;
            shape.block[0] = 128;
            shape.smem_bytes = kImage + 1024;
            cu::launch(f, shape, stream.get(), args);
            stream.synchronize();
            std::vector<uint32_t> got(flat.size());
            dout.download(got.data(), got.size() * 4);
            int bad = 0;
            for (int t = 0; t < 128; ++t)
                for (int r = 0; r < regs; ++r) {
                    const uint32_t g = got[size_t(t) * regs + r], w = want.d[t][size_t(r)];
                    if (g != w) {
                        if (bad < 4) UNSCOPED_INFO("thread " << t << " reg " << r << ": gpu 0x" << std::hex << g << " model 0x" << w << std::dec);
                        ++bad;
                    }
                }
            CHECK(bad == 0);
            failures += bad != 0;
        }
    }
    CHECK(failures == 0);
}

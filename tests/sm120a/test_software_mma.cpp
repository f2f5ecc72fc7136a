// The software mma.sp of the sm120a CHECK BUILD (plugins/sm120a/device/mma_software.cuh, run on
// an H100 in place of the sm_120a instruction) against the bit-level mma.sp model, on the CPU:
// random registers (padding bits of the 8-bit containers set at random), every form, every
// scale selector Table 37 allows.
#include "kernel_emulator.hpp"

#include "../../plugins/sm120a/device/mma_software.cuh"

#include <spmma/types.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace sm120a_test;
namespace L = spmma_sm120a;
namespace isa = spmma::isa;

namespace {

std::vector<uint32_t> codes(spmma::DType t, double lo, double hi) {
    std::vector<uint32_t> out;
    for (uint32_t c = 0; c < (1u << spmma::info(t).bits); ++c) {
        const double v = spmma::decode(t, c);
        if (std::isfinite(v) && std::fabs(v) >= lo && std::fabs(v) <= hi) out.push_back(c);
    }
    return out;
}

// A random register of elements of type t as the form reads them.
uint32_t random_register(const Form& f, spmma_dtype t, std::mt19937& rng) {
    const auto cs = codes(static_cast<spmma::DType>(t), 0.125, 6.0);
    auto pick = [&] { return cs[std::uniform_int_distribution<size_t>(0, cs.size() - 1)(rng)]; };
    uint32_t r = 0;
    if (f.packed()) {
        for (int i = 0; i < 8; ++i) r |= pick() << (4 * i);
        return r;
    }
    for (int i = 0; i < 4; ++i) {
        uint32_t byte = L::f8f6f4_container(t, pick());
        const uint32_t junk = std::uniform_int_distribution<uint32_t>(0, 255)(rng);
        if (t == SPMMA_E2M1) byte |= junk & 0xC3u;            // padding: bits 7..6 and 1..0
        if (t == SPMMA_E3M2 || t == SPMMA_E2M3) byte |= junk & 0xC0u;
        r |= byte << (8 * i);
    }
    return r;
}

}  // namespace

TEST_CASE("sm120a check build: the software mma.sp agrees with the mma.sp model on every form and scale selector", "[sm120a]") {
    std::mt19937 rng(1208);
    std::vector<Form> forms;
    for (spmma_dtype a : {SPMMA_E4M3, SPMMA_E5M2, SPMMA_E3M2, SPMMA_E2M3, SPMMA_E2M1})
        for (spmma_dtype b : {SPMMA_E4M3, SPMMA_E5M2, SPMMA_E3M2, SPMMA_E2M3, SPMMA_E2M1}) {
            forms.push_back(L::f8f6f4_form(a, b, SPMMA_F32));
            forms.push_back(L::f8f6f4_form(a, b, SPMMA_F16));
            forms.push_back(L::mxf8f6f4_form(a, b));
        }
    forms.push_back(L::mxf4_form());
    forms.push_back(L::mxf4nvf4_form(2, SPMMA_UE8M0));
    forms.push_back(L::mxf4nvf4_form(4, SPMMA_UE4M3));
    static constexpr uint8_t kNibbles[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    for (const Form& f : forms) {
        const isa::MmaSp mf = model_form(f);
        INFO(isa::ptx_name(mf));
        for (int rep = 0; rep < 6; ++rep) {
            isa::MmaSpWarp w;
            for (int lane = 0; lane < 32; ++lane) {
                for (int r = 0; r < 4; ++r) {
                    w.a[lane][r] = random_register(f, f.a, rng);
                    w.b[lane][r] = random_register(f, f.b, rng);
                }
                for (int i = 0; i < 8; ++i) w.e[lane] |= uint32_t(kNibbles[std::uniform_int_distribution<int>(0, 5)(rng)]) << (4 * i);
                if (f.scaled()) {
                    const auto sc = codes(static_cast<spmma::DType>(f.scale), 0.25, 4.0);
                    for (int i = 0; i < 4; ++i) {
                        w.scale_a[lane] |= sc[std::uniform_int_distribution<size_t>(0, sc.size() - 1)(rng)] << (8 * i);
                        w.scale_b[lane] |= sc[std::uniform_int_distribution<size_t>(0, sc.size() - 1)(rng)] << (8 * i);
                    }
                }
            }
            if (f.scaled()) {
                const int bids = f.scale_vec == 1 ? 4 : f.scale_vec == 2 ? 2 : 1;
                w.byte_id_a = uint16_t(std::uniform_int_distribution<int>(0, bids - 1)(rng) * f.scale_vec);
                w.byte_id_b = uint16_t(std::uniform_int_distribution<int>(0, bids - 1)(rng) * f.scale_vec);
                w.thread_id_a = uint16_t(std::uniform_int_distribution<int>(0, 1)(rng));
                w.thread_id_b = uint16_t(std::uniform_int_distribution<int>(0, 3)(rng));
            }
            const isa::MmaSpResult want = isa::mma_sp(mf, w);
            REQUIRE(want.undefined.empty());
            // Sum of |terms| per output, for the f32 / f16 rounding allowance.
            const isa::MmaSpTile t = isa::mma_sp_decode(mf, w);
            const int K = f.mma_k(), V = f.scale_vec;
            std::vector<double> abs_sum(128, 0.0);
            for (int m = 0; m < 16; ++m)
                for (int n = 0; n < 8; ++n)
                    for (int k = 0; k < K; ++k) {
                        double x = std::fabs(t.a[m * K + k] * t.b[k * 8 + n]);
                        if (V) x *= t.scale_a[m * V + k / (K / V)] * t.scale_b[(k / (K / V)) * 8 + n];
                        abs_sum[m * 8 + n] += x;
                    }
            uint32_t regs[L::swmma::kWords * 32];
            for (int lane = 0; lane < 32; ++lane) {
                for (int r = 0; r < 4; ++r) {
                    regs[(L::swmma::kA + r) * 32 + lane] = w.a[lane][r];
                    regs[(L::swmma::kB + r) * 32 + lane] = w.b[lane][r];
                }
                regs[L::swmma::kE * 32 + lane] = w.e[lane];
                regs[L::swmma::kSA * 32 + lane] = w.scale_a[lane];
                regs[L::swmma::kSB * 32 + lane] = w.scale_b[lane];
            }
            const bool f16 = f.acc == SPMMA_F16;
            for (int lane = 0; lane < 32; ++lane) {
                float got[4];
                L::swmma::lane_mma(f, regs, lane, w.byte_id_a, w.thread_id_a, w.byte_id_b, w.thread_id_b, got);
                for (int q = 0; q < 4; ++q) {
                    const int reg = f16 ? q / 2 : q, half = f16 ? q % 2 : 0;
                    const int row = L::cd_row(lane, reg, f16), col = L::cd_col(lane, reg, half, f16);
                    const double model = f16 ? spmma::decode(spmma::DType::F16, (want.d[lane][reg] >> (16 * half)) & 0xFFFFu)
                                             : spmma::decode(spmma::DType::F32, want.d[lane][reg]);
                    const double tol = (f16 ? 0x1p-10 : 0x1p-18) * abs_sum[row * 8 + col];
                    INFO("lane " << lane << " output " << q << ": software " << got[q] << ", model " << model);
                    REQUIRE(std::fabs(double(got[q]) - model) <= tol);
                }
            }
        }
    }
}

// mma_sp_random_warp: valid inputs whose D does not depend on the summation order, for the
// model-versus-hardware device tests.
#include <spmma/isa/mma_sp.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace spmma::isa;
using spmma::DType;

namespace {

// D[m][n] summed one term at a time in the accumulator's own precision, terms in `order`.
uint32_t sequential(const MmaSp& f, const MmaSpTile& t, int m, int n, const std::vector<int>& order) {
    std::vector<double> terms;
    const int bw = is_block_scaled(f) ? f.k / f.scale_vec : f.k;
    for (int col = 0; col < f.k; ++col)
        if (t.a_kept[m * f.k + col]) {
            double p = t.a[m * f.k + col] * t.b[col * 8 + n];
            if (is_block_scaled(f)) p *= t.scale_a[m * f.scale_vec + col / bw] * t.scale_b[(col / bw) * 8 + n];
            terms.push_back(p);
        }
    terms.push_back(t.c[m * 8 + n]);
    if (f.d == DType::S32) {
        int64_t s = 0;
        for (int i : order) if (i < static_cast<int>(terms.size())) s += static_cast<int64_t>(terms[i]);
        return static_cast<uint32_t>(s);
    }
    double s = 0;
    for (int i : order) {
        if (i >= static_cast<int>(terms.size())) continue;
        s += terms[i];
        s = f.d == DType::F16 ? spmma::decode(DType::F16, spmma::encode(DType::F16, s)) : static_cast<float>(s);
    }
    return f.d == DType::F16 ? spmma::encode(DType::F16, s) : spmma::f32_bits(static_cast<float>(s));
}

}  // namespace

TEST_CASE("mma.sp random warps: valid for every form, and D is the same in any summation order") {
    std::mt19937 shuffle(99);
    for (const MmaSp& f : all_forms()) {
        INFO(ptx_name(f));
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            const MmaSpWarp w = mma_sp_random_warp(f, seed * 7919 + static_cast<uint64_t>(f.k));
            const MmaSpResult r = mma_sp(f, w);
            REQUIRE(r.undefined.empty());
            const MmaSpTile t = mma_sp_decode(f, w);
            std::vector<int> order(f.k / 2 + 1);
            for (int pass = 0; pass < 3; ++pass) {
                for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
                if (pass == 1) std::reverse(order.begin(), order.end());
                if (pass == 2) std::shuffle(order.begin(), order.end(), shuffle);
                for (int lane = 0; lane < 32; ++lane)
                    for (int reg = 0; reg < c_registers(f); ++reg)
                        for (int h = 0; h < (f.d == DType::F16 ? 2 : 1); ++h) {
                            const MatPos p = cd_position(f, lane, reg, h);
                            const uint32_t got = f.d == DType::F16 ? (r.d[lane][reg] >> (16 * h)) & 0xffff : r.d[lane][reg];
                            REQUIRE(got == sequential(f, t, p.row, p.col, order));
                        }
            }
        }
    }
}

TEST_CASE("mma.sp random warps: the same seed gives the same warp, another seed another") {
    const MmaSp f{32, DType::F16, DType::F16, DType::F32, DType::F32, true};
    const MmaSpWarp a = mma_sp_random_warp(f, 42), b = mma_sp_random_warp(f, 42), c = mma_sp_random_warp(f, 43);
    REQUIRE(a.a == b.a);
    REQUIRE(a.e == b.e);
    REQUIRE(a.a != c.a);
}

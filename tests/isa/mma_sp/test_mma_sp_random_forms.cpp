// Every mma.sp form on random tiles: the model's D against the test's own reading of the PTX
// layouts (ptx_fragments.hpp) and a plain sum of the logical tiles.
#include "ptx_fragments.hpp"

#include <catch2/catch.hpp>

using namespace spmma::isa;

TEST_CASE("mma.sp model: every form, random tiles, D equals C + A*B of the tiles the PTX layouts denote") {
    const auto forms = all_forms();
    std::mt19937 rng(20240601);
    for (const MmaSp& f : forms) {
        INFO(ptx_name(f));
        for (int rep = 0; rep < 8; ++rep) {
            const ptxfrag::Tile tl = ptxfrag::random_tile(f, rng);
            const MmaSpResult r = mma_sp(f, ptxfrag::pack(tl));
            REQUIRE(r.undefined.empty());
            REQUIRE(ptxfrag::unpack_d(f, r) == ptxfrag::expected_d(tl));
        }
    }
}

TEST_CASE("mma.sp model: plain mma.sp takes metadata indices in either order") {
    std::mt19937 rng(7);
    int checked = 0;
    for (const MmaSp& f : all_forms()) {
        if (f.ordered_metadata || f.a == spmma::DType::TF32) continue;
        INFO(ptx_name(f));
        const ptxfrag::Tile tl = ptxfrag::random_tile(f, rng, /*unordered=*/true);
        const MmaSpResult r = mma_sp(f, ptxfrag::pack(tl));
        REQUIRE(r.undefined.empty());
        REQUIRE(ptxfrag::unpack_d(f, r) == ptxfrag::expected_d(tl));
        ++checked;
    }
    REQUIRE(checked > 10);
}

TEST_CASE("mma.sp model: decode gives back the logical tiles the registers denote") {
    std::mt19937 rng(11);
    for (const MmaSp& f : all_forms()) {
        INFO(ptx_name(f));
        const ptxfrag::Tile tl = ptxfrag::random_tile(f, rng);
        std::vector<std::string> undefined;
        const MmaSpTile t = mma_sp_decode(f, ptxfrag::pack(tl), &undefined);
        REQUIRE(undefined.empty());
        for (int m = 0; m < 16; ++m) {
            std::vector<double> row(f.k, 0.0);
            std::vector<uint8_t> kept(f.k, 0);
            for (size_t j = 0; j < tl.kept_cols[m].size(); ++j) {
                row[tl.kept_cols[m][j]] = spmma::decode(f.a, tl.kept_code[m][j]);
                kept[tl.kept_cols[m][j]] = 1;
            }
            for (int col = 0; col < f.k; ++col) {
                REQUIRE(t.a[m * f.k + col] == row[col]);
                REQUIRE(t.a_kept[m * f.k + col] == kept[col]);
            }
        }
        for (int i = 0; i < f.k * 8; ++i) REQUIRE(t.b[i] == spmma::decode(f.b, tl.b_code[i]));
        for (int i = 0; i < 128; ++i) REQUIRE(t.c[i] == spmma::decode(f.c, tl.c_bits[i]));
        if (is_block_scaled(f)) {
            for (int i = 0; i < 16 * f.scale_vec; ++i) REQUIRE(t.scale_a[i] == spmma::decode(f.scale_type, tl.sfa[i]));
            for (int i = 0; i < 8 * f.scale_vec; ++i) REQUIRE(t.scale_b[i] == spmma::decode(f.scale_type, tl.sfb[i]));
        }
    }
}

// The baselines' host-side operand preparation: A expanded from the canonical compressed form
// (checked against core's decompress), zero padding of A, B and C, and cropping of D.
#include <spmma_baseline/dense_operands.hpp>

#include <spmma/core/operands.hpp>
#include <spmma/core/sparsity.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>

using namespace spmma;
using namespace spmma_baseline;

namespace {

// A random m x k matrix of type t pruned to p, compressed the canonical way.
CompressedA random_compressed(DType t, Pattern p, int64_t m, int64_t k, uint64_t seed) {
    std::vector<uint8_t> dense(storage_bytes(t, m * k), 0);
    for (int64_t e = 0; e < m * k; ++e) store_code(t, dense.data(), e, encode(t, draw(Distribution::Normal, t, seed, 3, e) * 4 + 0.25));
    prune_by_magnitude(t, p, dense.data(), m, k);
    return compress(t, p, dense.data(), m, k);
}

spmma_problem abi_problem(DType t, Pattern p, int64_t m, int64_t n, int64_t k) {
    spmma_problem q{};
    q.struct_size = sizeof q;
    q.m = m;
    q.n = n;
    q.k = k;
    q.a_type = q.b_type = static_cast<spmma_dtype>(t);
    q.pattern = static_cast<spmma_pattern>(p);
    return q;
}

}  // namespace

TEST_CASE("expand_a gives core's decompressed A for every 8-, 16- and 32-bit type and pattern, at odd sizes", "[baselines]") {
    const std::vector<std::pair<DType, Pattern>> cases = {
        {DType::F16, Pattern::P2_4}, {DType::BF16, Pattern::P2_4}, {DType::TF32, Pattern::P1_2}, {DType::E4M3, Pattern::P2_4},
        {DType::E5M2, Pattern::P2_4}, {DType::S8, Pattern::P2_4},  {DType::U8, Pattern::P2_4},   {DType::E4M3, Pattern::P4_8},
        {DType::S8, Pattern::P4_8}};
    const int64_t m = 37, k = 72;
    for (const auto& [t, p] : cases) {
        INFO(name(t) << " " << name(p));
        const CompressedA a = random_compressed(t, p, m, k, 11);
        const std::vector<uint8_t> want = decompress(t, p, a, m, k);
        const spmma_problem q = abi_problem(t, p, m, 5, k);
        const auto got = expand_a(q, a.values.data(), a.values.size(), a.indices.data(), a.indices.size(), m, k);
        REQUIRE(got.size() == want.size());
        CHECK(got == want);
    }
}

TEST_CASE("expand_a into a padded matrix puts A top-left and zeros everywhere else", "[baselines]") {
    const int64_t m = 13, k = 40, rows = 32, cols = 64;
    const CompressedA a = random_compressed(DType::BF16, Pattern::P2_4, m, k, 5);
    const std::vector<uint8_t> want = decompress(DType::BF16, Pattern::P2_4, a, m, k);
    const spmma_problem q = abi_problem(DType::BF16, Pattern::P2_4, m, 3, k);
    const auto got = expand_a(q, a.values.data(), a.values.size(), a.indices.data(), a.indices.size(), rows, cols);
    REQUIRE(got.size() == static_cast<size_t>(rows * cols * 2));
    size_t nonzero_in_padding = 0;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            const uint8_t* g = got.data() + (r * cols + c) * 2;
            if (r < m && c < k) {
                CHECK(std::memcmp(g, want.data() + (r * k + c) * 2, 2) == 0);
            } else {
                nonzero_in_padding += (g[0] | g[1]) != 0;
            }
        }
    CHECK(nonzero_in_padding == 0);
}

TEST_CASE("expand_a names the row and group of an invalid index byte", "[baselines]") {
    const int64_t m = 6, k = 24;
    CompressedA a = random_compressed(DType::F16, Pattern::P2_4, m, k, 2);
    a.indices[3 * (k / 4) + 4] = 0x5;  // positions 1 and 1: not a sorted selection
    const spmma_problem q = abi_problem(DType::F16, Pattern::P2_4, m, 8, k);
    CHECK_THROWS_WITH(expand_a(q, a.values.data(), a.values.size(), a.indices.data(), a.indices.size(), m, k),
                      Catch::Contains("index byte 0x05 at row 3, group 4") && Catch::Contains("2:4"));
}

TEST_CASE("expand_a refuses buffers of the wrong size, a padded size below A, and 4-bit types", "[baselines]") {
    const int64_t m = 4, k = 16;
    const CompressedA a = random_compressed(DType::S8, Pattern::P2_4, m, k, 9);
    const spmma_problem q = abi_problem(DType::S8, Pattern::P2_4, m, 8, k);
    CHECK_THROWS_WITH(expand_a(q, a.values.data(), a.values.size() - 1, a.indices.data(), a.indices.size(), m, k),
                      Catch::Contains("A's values have 31 bytes, expected 32"));
    CHECK_THROWS_WITH(expand_a(q, a.values.data(), a.values.size(), a.indices.data(), a.indices.size() + 1, m, k),
                      Catch::Contains("index bytes number 17, expected 16"));
    CHECK_THROWS_AS(expand_a(q, a.values.data(), a.values.size(), a.indices.data(), a.indices.size(), m - 1, k), std::invalid_argument);
    const spmma_problem q4 = abi_problem(DType::S4, Pattern::P4_8, m, 8, k);
    CHECK_THROWS_WITH(expand_a(q4, a.values.data(), 16, a.indices.data(), 8, m, k), Catch::Contains("no dense expansion for s4"));
}

TEST_CASE("pad_sizes rounds each size up to its multiple and says whether anything was padded", "[baselines]") {
    spmma_problem q{};
    q.m = 1000;
    q.n = 4096;
    q.k = 1;
    const PaddedSizes s = pad_sizes(q, 32, 32, 16);
    CHECK(s.m == 1024);
    CHECK(s.n == 4096);
    CHECK(s.k == 16);
    CHECK(s.padded(q));
    q.m = 1024;
    q.k = 16;
    CHECK_FALSE(pad_sizes(q, 32, 32, 16).padded(q));
}

TEST_CASE("pad_matrix then crop_matrix gives the matrix back and the padding is zero", "[baselines]") {
    const int64_t rows = 5, cols = 7, prow = 8, pcol = 16;
    std::vector<int32_t> m(rows * cols);
    for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<int32_t>(i * 2654435761u) | 1;  // never zero
    const auto padded = pad_matrix(m.data(), 4, rows, cols, prow, pcol);
    REQUIRE(padded.size() == static_cast<size_t>(prow * pcol * 4));
    int32_t v = 0;
    std::memcpy(&v, padded.data() + (2 * pcol + 3) * 4, 4);
    CHECK(v == m[2 * cols + 3]);
    size_t zeros = 0;
    for (int64_t r = 0; r < prow; ++r)
        for (int64_t c = 0; c < pcol; ++c) {
            std::memcpy(&v, padded.data() + (r * pcol + c) * 4, 4);
            if (r >= rows || c >= cols) zeros += v == 0;
        }
    CHECK(zeros == static_cast<size_t>(prow * pcol - rows * cols));
    std::vector<int32_t> back(rows * cols, 0);
    crop_matrix(padded.data(), 4, prow, pcol, back.data(), rows, cols);
    CHECK(back == m);
    CHECK_THROWS_AS(pad_matrix(m.data(), 4, rows, cols, rows - 1, cols), std::invalid_argument);
}

TEST_CASE("check_b_and_c sizes B by b_type and C by D's type, and reads C only when beta is not 0", "[baselines]") {
    spmma_problem q = abi_problem(DType::BF16, Pattern::P2_4, 3, 5, 8);  // B 8 x 5 bf16: 80 bytes
    q.d_type = SPMMA_F32;                                                 // C 3 x 5 f32: 60 bytes
    const std::vector<uint8_t> b(80, 1), c(60, 1);
    spmma_operands ops{};
    ops.b = b.data();
    ops.b_bytes = b.size();
    q.beta = 0.0;
    CHECK_FALSE(check_b_and_c(q, ops));  // no C given, none needed
    ops.c = c.data();
    ops.c_bytes = 59;
    CHECK_FALSE(check_b_and_c(q, ops));  // a C of the wrong size is not looked at
    q.beta = 0.5;
    CHECK_THROWS_WITH(check_b_and_c(q, ops), "C has 59 bytes, expected 60 (beta is not 0)");
    ops.c_bytes = c.size();
    CHECK(check_b_and_c(q, ops));
    ops.c = nullptr;
    CHECK_THROWS_WITH(check_b_and_c(q, ops), "C has 60 bytes, expected 60 (beta is not 0)");
    ops.c = c.data();
    ops.b_bytes = 40;  // sized as if B had 8-bit elements
    CHECK_THROWS_WITH(check_b_and_c(q, ops), "B has 40 bytes, expected 80");
    ops.b_bytes = b.size();
    ops.b = nullptr;
    CHECK_THROWS_WITH(check_b_and_c(q, ops), "B has 80 bytes, expected 80");
}

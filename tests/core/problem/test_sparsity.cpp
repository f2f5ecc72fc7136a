#include <spmma/core/operands.hpp>
#include <spmma/core/sparsity.hpp>

#include <catch2/catch.hpp>

using namespace spmma;

namespace {

// A dense m x k matrix of type t with every group pruned to the pattern (random codes).
std::vector<uint8_t> random_dense(DType t, Pattern p, int64_t m, int64_t k, uint64_t seed) {
    Problem pr;
    pr.m = m;
    pr.k = k;
    pr.a = t;
    std::vector<uint8_t> dense(storage_bytes(t, m * k), 0);
    for (int64_t e = 0; e < m * k; ++e) store_code(t, dense.data(), e, encode(t, draw(Distribution::Normal, t, seed, 9, e) * 3 + 0.5));
    prune_by_magnitude(t, p, dense.data(), m, k);
    return dense;
}

}  // namespace

TEST_CASE("compress then decompress gives back the pruned matrix for every pattern and type", "[sparsity]") {
    const std::vector<std::pair<DType, Pattern>> cases = {
        {DType::F16, Pattern::P2_4}, {DType::BF16, Pattern::P2_4}, {DType::TF32, Pattern::P1_2}, {DType::E4M3, Pattern::P2_4},
        {DType::E5M2, Pattern::P2_4}, {DType::E3M2, Pattern::P2_4}, {DType::E2M3, Pattern::P2_4}, {DType::E2M1, Pattern::P2_4},
        {DType::E2M1, Pattern::P4_8}, {DType::S8, Pattern::P2_4}, {DType::U8, Pattern::P2_4}, {DType::S4, Pattern::P4_8},
        {DType::U4, Pattern::P4_8}};
    for (const auto& [t, p] : cases) {
        INFO(name(t) << " " << name(p));
        const int64_t m = 13, k = 8 * 5;
        const auto dense = random_dense(t, p, m, k, 7);
        REQUIRE_FALSE(find_violation(t, p, dense.data(), m, k));
        const CompressedA c = compress(t, p, dense.data(), m, k);
        CHECK(c.values.size() == storage_bytes(t, m * k / 2));
        CHECK(c.indices.size() == static_cast<size_t>(m * k / group_size(p)));
        CHECK(decompress(t, p, c, m, k) == dense);
    }
}

TEST_CASE("compressed index bytes hold sorted kept positions in the canonical bit layout", "[sparsity]") {
    // One 2:4 row: 0 5 0 7 | 1 0 0 2  -> keeps (1,3) and (0,3)
    std::vector<uint8_t> dense(16, 0);
    const int16_t row[8] = {0, 5, 0, 7, 1, 0, 0, 2};
    for (int e = 0; e < 8; ++e) store_code(DType::S8, dense.data(), e, encode(DType::S8, row[e]));
    const CompressedA c = compress(DType::S8, Pattern::P2_4, dense.data(), 1, 8);
    REQUIRE(c.indices.size() == 2);
    CHECK(c.indices[0] == (1 | (3 << 2)));
    CHECK(c.indices[1] == (0 | (3 << 2)));
    CHECK(decode(DType::S8, load_code(DType::S8, c.values.data(), 0)) == 5);
    CHECK(decode(DType::S8, load_code(DType::S8, c.values.data(), 1)) == 7);
    CHECK(decode(DType::S8, load_code(DType::S8, c.values.data(), 2)) == 1);
    CHECK(decode(DType::S8, load_code(DType::S8, c.values.data(), 3)) == 2);
}

TEST_CASE("a group with fewer non-zeros keeps its lowest zero positions", "[sparsity]") {
    std::vector<uint8_t> dense(4, 0);
    store_code(DType::S8, dense.data(), 2, encode(DType::S8, 3));  // 0 0 3 0
    const CompressedA c = compress(DType::S8, Pattern::P2_4, dense.data(), 1, 4);
    CHECK(c.indices[0] == (0 | (2 << 2)));
}

TEST_CASE("a matrix that breaks its pattern is refused naming the row and the group", "[sparsity]") {
    const int64_t m = 4, k = 16;
    auto dense = random_dense(DType::F16, Pattern::P2_4, m, k, 3);
    // Row 2, group 1 (columns 4..7): make all four non-zero.
    for (int c = 4; c < 8; ++c) store_code(DType::F16, dense.data(), 2 * k + c, encode(DType::F16, 1.0 + c));
    const auto v = find_violation(DType::F16, Pattern::P2_4, dense.data(), m, k);
    REQUIRE(v);
    CHECK(v->row == 2);
    CHECK(v->group == 1);
    CHECK(v->nonzeros == 4);
    CHECK_THAT(v->message, Catch::Contains("row 2, group 1 (columns 4..7)"));
    CHECK_THROWS_AS(compress(DType::F16, Pattern::P2_4, dense.data(), m, k), PatternError);
}

TEST_CASE("pairwise 4:8 counts pairs: one element of a pair makes the pair non-zero", "[sparsity]") {
    std::vector<uint8_t> dense(storage_bytes(DType::S4, 8), 0);
    // pairs: (1,0) (0,0) (0,1) (2,0): three non-zero pairs -> violation
    const int v[8] = {1, 0, 0, 0, 0, 1, 2, 0};
    for (int e = 0; e < 8; ++e) store_code(DType::S4, dense.data(), e, encode(DType::S4, v[e]));
    const auto viol = find_violation(DType::S4, Pattern::P4_8, dense.data(), 1, 8);
    REQUIRE(viol);
    CHECK(viol->nonzeros == 3);
    prune_by_magnitude(DType::S4, Pattern::P4_8, dense.data(), 1, 8);
    CHECK_FALSE(find_violation(DType::S4, Pattern::P4_8, dense.data(), 1, 8));
    // The weakest pair (|1| at pair 0 vs |1| at pair 2: tie keeps the lower) went: pairs 0 and 3 stay.
    CHECK(decode(DType::S4, load_code(DType::S4, dense.data(), 0)) == 1);
    CHECK(decode(DType::S4, load_code(DType::S4, dense.data(), 5)) == 0);
    CHECK(decode(DType::S4, load_code(DType::S4, dense.data(), 6)) == 2);
}

TEST_CASE("decompress refuses an index byte that is not a sorted selection", "[sparsity]") {
    CompressedA c;
    c.values.assign(2, 1);
    c.indices = {static_cast<uint8_t>(2 | (1 << 2))};  // 2 then 1: not increasing
    CHECK_THROWS_WITH(decompress(DType::S8, Pattern::P2_4, c, 1, 4), Catch::Contains("invalid index byte"));
}

TEST_CASE("pattern_census counts the groups already in the pattern, -0.0 as zero, for 2:4, 1:2 and 4:8", "[sparsity]") {
    // f16 2 x 8: 2:4 groups (1, -0, 0, 2) yes, (1, 1, 1, 0) no, (0, 0, 0, 0) yes, (-0, -0, -0, 3) yes.
    const std::vector<double> v = {1, -0.0, 0, 2, 1, 1, 1, 0, 0, 0, 0, 0, -0.0, -0.0, -0.0, 3};
    std::vector<uint8_t> a(storage_bytes(DType::F16, 16));
    for (int64_t e = 0; e < 16; ++e) store_code(DType::F16, a.data(), e, encode(DType::F16, v[static_cast<size_t>(e)]));
    const PatternCensus c24 = pattern_census(DType::F16, Pattern::P2_4, a.data(), 2, 8);
    CHECK(c24.groups == 4);
    CHECK(c24.conforming == 3);
    // 1:2 pairs: (1,-0) (0,2) (1,1) (1,0) (0,0) (0,0) (-0,-0) (-0,3): all but (1,1).
    const PatternCensus c12 = pattern_census(DType::F16, Pattern::P1_2, a.data(), 2, 8);
    CHECK(c12.groups == 8);
    CHECK(c12.conforming == 7);
    // 4:8 pairwise: row 0 has four non-zero pairs, 4:8 keeps two: no; row 1 has one: yes.
    const PatternCensus c48 = pattern_census(DType::F16, Pattern::P4_8, a.data(), 2, 8);
    CHECK(c48.groups == 2);
    CHECK(c48.conforming == 1);
}

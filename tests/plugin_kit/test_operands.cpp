// check_operands: the canonical sizes follow from the problem alone, and the first operand that
// is missing or wrongly sized is named.
#include <spmma_plugin/boundary.hpp>
#include <spmma_plugin/operands.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace spmma_plugin;

namespace {

spmma_problem problem(spmma_dtype a, spmma_pattern pattern, int64_t m, int64_t n, int64_t k) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a_type = p.b_type = a;
    p.acc_type = p.c_type = p.d_type = SPMMA_F32;
    p.pattern = pattern;
    p.alpha = 1;
    return p;
}

// The message check_operands throws, or "" when it accepts the operands.
std::string refusal(const spmma_problem& p, const spmma_operands& ops) {
    try {
        check_operands(p, ops);
        return {};
    } catch (const Error& e) {
        CHECK(e.status() == SPMMA_INVALID_ARGUMENT);
        return e.what();
    }
}

}  // namespace

TEST_CASE("canonical sizes: A values k/2 per row, one index byte per group, 4-bit types two per byte", "[plugin_kit]") {
    const CanonicalSizes f16 = canonical_sizes(problem(SPMMA_F16, SPMMA_PATTERN_2_4, 3, 5, 8));
    CHECK(f16.a_values == 3 * 4 * 2);
    CHECK(f16.a_indices == 3 * 2);
    CHECK(f16.b == 8 * 5 * 2);
    CHECK(f16.c == 0);  // beta 0: C is not read
    CHECK(f16.d == 3 * 5 * 4);
    const CanonicalSizes tf32 = canonical_sizes(problem(SPMMA_TF32, SPMMA_PATTERN_1_2, 2, 2, 6));
    CHECK(tf32.a_values == 2 * 3 * 4);
    CHECK(tf32.a_indices == 2 * 3);
    spmma_problem mx = problem(SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, 4, 6, 128);
    mx.scale_type = SPMMA_UE8M0;
    mx.scale_block = 64;
    mx.beta = 0.5;
    const CanonicalSizes e2m1 = canonical_sizes(mx);
    CHECK(e2m1.a_values == 4 * 64 / 2);
    CHECK(e2m1.a_indices == 4 * 16);
    CHECK(e2m1.b == 128 * 6 / 2);
    CHECK(e2m1.c == 4 * 6 * 4);
    CHECK(e2m1.scale_a == 4 * 2);
    CHECK(e2m1.scale_b == 6 * 2);
}

TEST_CASE("check_operands names the first missing or wrongly sized operand", "[plugin_kit]") {
    spmma_problem p = problem(SPMMA_F16, SPMMA_PATTERN_2_4, 2, 3, 8);
    const CanonicalSizes s = canonical_sizes(p);
    std::vector<uint8_t> a(s.a_values), idx(s.a_indices, 0x4), b(s.b), c(2 * 3 * 4);
    spmma_operands ops{};
    ops.struct_size = sizeof ops;
    ops.a_values = a.data();
    ops.a_values_bytes = a.size();
    ops.a_indices = idx.data();
    ops.a_indices_bytes = idx.size();
    ops.b = b.data();
    ops.b_bytes = b.size();
    CHECK(refusal(p, ops).empty());

    ops.b_bytes = b.size() - 1;
    CHECK(refusal(p, ops) == "B has 47 bytes, expected 48");
    ops.b_bytes = b.size();
    ops.a_indices = nullptr;
    CHECK(refusal(p, ops) == "A indices is null");
    ops.a_indices = idx.data();

    p.beta = 1;
    CHECK(refusal(p, ops) == "C is null (beta is not 0)");
    ops.c = c.data();
    ops.c_bytes = c.size() + 4;
    CHECK(refusal(p, ops) == "C has 28 bytes, expected 24");
    ops.c_bytes = c.size();
    CHECK(refusal(p, ops).empty());

    p.scale_type = SPMMA_UE8M0;
    p.scale_block = 0;
    CHECK(refusal(p, ops) == "block scales without a scale block");
    p.scale_block = 4;
    CHECK(refusal(p, ops) == "scale_A is null");
}

TEST_CASE("check_d_bytes accepts D's size only", "[plugin_kit]") {
    const spmma_problem p = problem(SPMMA_F16, SPMMA_PATTERN_2_4, 2, 3, 8);
    CHECK_NOTHROW(check_d_bytes(p, 24));
    CHECK_THROWS_WITH(check_d_bytes(p, 23), "D has 23 bytes, expected 24");
}

#include <spmma/core/problem.hpp>

#include <catch2/catch.hpp>

using namespace spmma;

namespace {
Problem typed(DType a, DType b) {
    Problem p;
    p.m = p.n = 16;
    p.k = 64;
    p.a = a;
    p.b = b;
    apply_default_types(p, false, false, false);
    return p;
}
}  // namespace

TEST_CASE("default types follow the operand type", "[problem]") {
    CHECK(typed(DType::F16, DType::F16).d == DType::F16);
    CHECK(typed(DType::BF16, DType::BF16).d == DType::BF16);
    CHECK(typed(DType::TF32, DType::TF32).pattern == Pattern::P1_2);
    CHECK(typed(DType::S4, DType::U4).pattern == Pattern::P4_8);
    CHECK(typed(DType::S8, DType::U8).acc == DType::S32);
    CHECK(typed(DType::E4M3, DType::E5M2).d == DType::BF16);
}

TEST_CASE("every allowed type pair validates", "[problem]") {
    const std::vector<std::pair<DType, DType>> ok = {
        {DType::F16, DType::F16}, {DType::BF16, DType::BF16}, {DType::TF32, DType::TF32}, {DType::E4M3, DType::E5M2},
        {DType::E3M2, DType::E2M1}, {DType::S8, DType::U8}, {DType::U4, DType::S4}};
    for (auto [a, b] : ok) {
        INFO(name(a) << "*" << name(b));
        CHECK_FALSE(validate(typed(a, b)));
    }
}

TEST_CASE("impossible problems name the key at fault", "[problem]") {
    CHECK(validate(typed(DType::F16, DType::BF16))->key == "b_type");
    CHECK(validate(typed(DType::S8, DType::S4))->key == "b_type");
    CHECK(validate(typed(DType::S32, DType::S32))->key == "a_type");
    Problem p = typed(DType::BF16, DType::BF16);
    p.acc = DType::F16;
    CHECK(validate(p)->key == "acc");
    p = typed(DType::F16, DType::F16);
    p.saturate = true;
    CHECK(validate(p)->key == "satfinite");
    p = typed(DType::S8, DType::S8);
    p.alpha = 0.5;
    CHECK(validate(p)->key == "alpha");
    p = typed(DType::E4M3, DType::E4M3);
    p.scale = DType::UE4M3;
    p.scale_block = 16;
    CHECK(validate(p)->key == "scale_block");
}

TEST_CASE("the ABI view carries every field", "[problem]") {
    Problem p = typed(DType::E2M1, DType::E2M1);
    p.scale = DType::UE4M3;
    p.scale_block = 16;
    p.pattern = Pattern::P4_8;
    p.alpha = 2;
    p.beta = -1;
    const spmma_problem a = p.to_abi();
    CHECK(a.struct_size == sizeof(spmma_problem));
    CHECK(a.a_type == SPMMA_E2M1);
    CHECK(a.pattern == SPMMA_PATTERN_4_8_PAIRWISE);
    CHECK(a.scale_type == SPMMA_UE4M3);
    CHECK(a.scale_block == 16);
    CHECK(a.alpha == 2);
    CHECK(a.beta == -1);
    CHECK_FALSE(validate(p));
}

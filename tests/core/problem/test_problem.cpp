#include <spmma/core/problem.hpp>

#include <catch2/catch.hpp>

#include <cmath>

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

TEST_CASE("the epilogue reaches the ABI view and the label, and its impossible forms name their key", "[problem][epilogue]") {
    Problem p = typed(DType::E4M3, DType::E4M3);
    p.row_scale = {EpilogueVector::Source::Drawn, 0};
    p.col_scale = {EpilogueVector::Source::Given, 0.5};
    p.bias = {EpilogueVector::Source::Drawn, 0};
    p.bias_axis = BiasAxis::Col;
    p.bias_type = DType::BF16;
    p.activation = Activation::Silu;
    CHECK_FALSE(validate(p));
    const spmma_problem a = p.to_abi();
    CHECK(a.row_scale == 1);
    CHECK(a.col_scale == 1);
    CHECK(a.bias == SPMMA_BIAS_COL);
    CHECK(a.bias_type == SPMMA_BF16);
    CHECK(a.activation == SPMMA_ACTIVATION_SILU);
    CHECK(p.label() == "16x16x64 e4m3*e4m3+f32->bf16 2:4 rs cs bias:col/bf16 silu");
    CHECK(typed(DType::F16, DType::F16).to_abi().activation == SPMMA_ACTIVATION_NONE);

    Problem q = p;
    q.bias_type = DType::F16;  // neither f32 nor D's type
    CHECK(validate(q)->key == "bias_type");
    q = p;
    q.bias_axis = BiasAxis::None;
    CHECK(validate(q)->key == "bias");
    q = p;
    q.col_scale.value = std::nan("");
    CHECK(validate(q)->key == "col_scale");
    Problem i = typed(DType::S8, DType::S8);
    i.activation = Activation::Relu;
    CHECK(validate(i)->key == "activation");
    CHECK(validate(i)->message == "the epilogue (scales, bias, activation) is for floating problems; integer problems write the s32 result");
}

TEST_CASE("epilogue words parse and print back", "[problem][epilogue]") {
    CHECK(parse_activation("gelu-tanh") == Activation::GeluTanh);
    CHECK_FALSE(parse_activation("gelu"));
    CHECK(parse_bias_axis("row") == BiasAxis::Row);
    CHECK_FALSE(parse_bias_axis("both"));
    CHECK(parse_epilogue_vector("random")->source == EpilogueVector::Source::Drawn);
    CHECK(parse_epilogue_vector("0.25")->value == 0.25);
    CHECK_FALSE(parse_epilogue_vector("inf"));
    CHECK_FALSE(parse_epilogue_vector("1x"));
    CHECK(to_string(*parse_epilogue_vector("0.25")) == "0.25");
    CHECK(to_string(*parse_epilogue_vector("random")) == "random");
}

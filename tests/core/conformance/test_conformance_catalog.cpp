// The conformance suite's problem catalog: every operand type spmma knows, both block-scale
// types, f16 accumulation, saturation and an epilogue with C, each family a valid problem.
#include <spmma/core/conformance.hpp>

#include <catch2/catch.hpp>

#include <set>

using namespace spmma;

TEST_CASE("the conformance catalog covers every operand type, both scale types, f16 accumulation, satfinite and beta", "[conformance]") {
    std::set<DType> operands, scales;
    bool f16_acc = false, saturate = false, beta = false, mixed = false;
    std::set<std::string> names;
    for (const auto& f : conformance::catalog()) {
        INFO(f.name);
        CHECK(names.insert(f.name).second);
        Problem p = f.problem;
        p.m = p.n = 1;
        p.k = f.k_step();
        CHECK_FALSE(validate(p).has_value());
        CHECK(p.k % group_size(p.pattern) == 0);
        if (p.scale != DType::None) CHECK(p.k % p.scale_block == 0);
        operands.insert(p.a);
        operands.insert(p.b);
        if (p.scale != DType::None) scales.insert(p.scale);
        f16_acc |= p.acc == DType::F16;
        saturate |= p.saturate;
        beta |= p.beta != 0;
        mixed |= p.a != p.b;
        CHECK(conformance::find_family(f.name) == &f);
    }
    for (const auto& t : all_types()) {
        // Operand types: everything but f32, s32 (accumulator/output only) and the scale types.
        if (t.type == DType::None || t.type == DType::F32 || t.type == DType::S32 || t.cls == TypeClass::Scale) continue;
        INFO(name(t.type));
        CHECK(operands.count(t.type) == 1);
    }
    CHECK(scales == std::set<DType>{DType::UE8M0, DType::UE4M3});
    CHECK(f16_acc);
    CHECK(saturate);
    CHECK(beta);
    CHECK(mixed);
    CHECK(conformance::find_family("no-such-family") == nullptr);
}

TEST_CASE("a check result survives its JSON form (the worker's reply), parts and counts included", "[conformance]") {
    conformance::CheckResult r;
    r.name = "verification";
    r.result = conformance::Outcome::Fail;
    r.detail = "verified 5 of 6";
    r.runs = 6;
    r.verified = 5;
    r.parts.push_back({"f16", conformance::Outcome::Skip, "not supported", {}, 0, 0, 0.5});
    const auto back = conformance::CheckResult::from_json(r.to_json());
    CHECK(back.name == r.name);
    CHECK(back.result == r.result);
    CHECK(back.detail == r.detail);
    CHECK(back.runs == 6);
    CHECK(back.verified == 5);
    REQUIRE(back.parts.size() == 1);
    CHECK(back.parts[0].result == conformance::Outcome::Skip);
    CHECK(back.parts[0].seconds == 0.5);
}

TEST_CASE("the conformance catalog has a family for each part of the epilogue a plugin may claim", "[conformance][epilogue]") {
    bool rs = false, cs = false, bias_row = false, bias_col = false, bias_f32 = false, bias_out = false;
    std::set<Activation> activations;
    for (const auto& f : conformance::catalog()) {
        const Problem& p = f.problem;
        if (!p.has_epilogue()) continue;
        rs |= p.row_scale.present() && !p.col_scale.present() && !p.bias.present();
        cs |= p.col_scale.present() && !p.row_scale.present() && !p.bias.present();
        bias_row |= p.bias_axis == BiasAxis::Row;
        bias_col |= p.bias_axis == BiasAxis::Col;
        bias_f32 |= p.bias.present() && p.bias_type == DType::F32;
        bias_out |= p.bias.present() && p.bias_type == p.d;
        activations.insert(p.activation);
    }
    CHECK(rs);
    CHECK(cs);
    CHECK(bias_row);
    CHECK(bias_col);
    CHECK(bias_f32);
    CHECK(bias_out);
    CHECK(activations == std::set<Activation>{Activation::None, Activation::Relu, Activation::GeluTanh, Activation::Silu});
    const auto* serving = conformance::find_family("e4m3+scaled-mm");
    REQUIRE(serving);
    CHECK(serving->problem.d == DType::BF16);
}

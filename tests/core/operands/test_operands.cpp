#include <spmma/core/operands.hpp>

#include <catch2/catch.hpp>

#include <omp.h>

#include <cmath>
#include <set>

using namespace spmma;

namespace {
Problem small(DType t) {
    Problem p;
    p.m = 33;
    p.n = 17;
    p.k = 64;
    p.a = p.b = t;
    p.beta = 1.0;
    apply_default_types(p, false, false, false);
    return p;
}
}  // namespace

TEST_CASE("operands are the same bits for the same seed whatever the thread count", "[operands]") {
    const Problem p = small(DType::BF16);
    omp_set_num_threads(1);
    const Operands one = generate_operands(p);
    omp_set_num_threads(2);
    const Operands two = generate_operands(p);
    CHECK(one.a.values == two.a.values);
    CHECK(one.a.indices == two.a.indices);
    CHECK(one.b == two.b);
    CHECK(one.c == two.c);
}

TEST_CASE("a different seed gives different operands", "[operands]") {
    Problem p = small(DType::F16);
    const Operands a = generate_operands(p);
    p.seed += 1;
    const Operands b = generate_operands(p);
    CHECK(a.b != b.b);
}

TEST_CASE("generated operands are not all zeros and use many codes", "[operands]") {
    for (DType t : {DType::F16, DType::E4M3, DType::S8, DType::S4, DType::E2M1}) {
        INFO(name(t));
        Problem p = small(t);
        if (t == DType::S4) p.pattern = Pattern::P4_8;
        const Operands o = generate_operands(p);
        std::set<uint32_t> codes;
        for (int64_t e = 0; e < p.k * p.n; ++e) codes.insert(load_code(t, o.b.data(), e));
        CHECK(codes.size() >= 6);
    }
}

TEST_CASE("the int distribution gives small integers in every type", "[operands]") {
    for (DType t : {DType::F16, DType::E2M1, DType::E3M2, DType::U4, DType::S8}) {
        for (uint64_t i = 0; i < 200; ++i) {
            const double v = draw(Distribution::Int, t, 5, 2, i);
            CHECK(v == std::floor(v));
            CHECK(std::fabs(v) <= 3);
            CHECK(decode(t, encode(t, v)) == v);
        }
    }
}

TEST_CASE("beta == 0 leaves C out and unscaled problems have no scales", "[operands]") {
    Problem p = small(DType::F16);
    p.beta = 0;
    const Operands o = generate_operands(p);
    CHECK(o.c.empty());
    CHECK(o.view().c == nullptr);
    CHECK(o.scale_a.empty());
}

TEST_CASE("amax scales put each block's largest element at the top of the element type", "[operands]") {
    Problem p;
    p.m = 16;
    p.n = 8;
    p.k = 64;
    p.a = p.b = DType::E4M3;
    p.scale = DType::UE8M0;
    p.scale_block = 32;
    p.scale_gen = ScaleGen::Amax;
    p.dist = Distribution::Normal;
    apply_default_types(p, false, false, false);
    REQUIRE_FALSE(validate(p));
    const Operands o = generate_operands(p);
    REQUIRE(o.scale_b.size() == static_cast<size_t>(p.n * 2));
    for (int64_t j = 0; j < p.n; ++j)
        for (int64_t blk = 0; blk < 2; ++blk) {
            double mx = 0;
            for (int64_t e = 0; e < 32; ++e) mx = std::max(mx, std::fabs(decode(DType::E4M3, load_code(DType::E4M3, o.b.data(), j * p.k + blk * 32 + e))));
            // OCP MX: amax / scale lands in [2^8, 2^9) (e4m3's top binade), 448 at most.
            CHECK(mx >= 256.0);
            CHECK(mx <= 448.0);
        }
}

TEST_CASE("random scales stay in the asked range", "[operands]") {
    Problem p;
    p.m = 32;
    p.n = 8;
    p.k = 64;
    p.a = p.b = DType::E2M1;
    p.scale = DType::UE4M3;
    p.scale_block = 16;
    p.scale_min = 0.5;
    p.scale_max = 2.0;
    apply_default_types(p, false, false, false);
    REQUIRE_FALSE(validate(p));
    const Operands o = generate_operands(p);
    std::set<uint8_t> distinct(o.scale_a.begin(), o.scale_a.end());
    CHECK(distinct.size() > 4);
    for (uint8_t c : o.scale_a) {
        CHECK(decode(DType::UE4M3, c) >= 0.5);
        CHECK(decode(DType::UE4M3, c) <= 2.0);
    }
}

TEST_CASE("the fused A generation equals drawing dense A, pruning it and compressing it", "[operands]") {
    for (const TypeInfo& ti : all_types()) {
        if (ti.cls == TypeClass::Scale || ti.type == DType::S32 || ti.type == DType::F32) continue;
        for (const Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Int}) {
            Problem p = small(ti.type);
            p.dist = d;
            p.m = 19;
            p.k = 96;
            INFO(p.label() << " " << name(d));
            std::vector<uint8_t> dense(storage_bytes(p.a, p.m * p.k), 0);
            for (int64_t x = 0; x < p.m * p.k; ++x) store_code(p.a, dense.data(), x, encode(p.a, draw(d, p.a, p.seed, 1, static_cast<uint64_t>(x))));
            prune_by_magnitude(p.a, p.pattern, dense.data(), p.m, p.k);
            const CompressedA slow = compress(p.a, p.pattern, dense.data(), p.m, p.k);
            const Operands fast = generate_operands(p);
            CHECK(fast.a.values == slow.values);
            CHECK(fast.a.indices == slow.indices);
        }
    }
}

TEST_CASE("the epilogue's vectors are drawn from the seed (scales from 1/4 to 4) or take the given value, sized m or n", "[operands][epilogue]") {
    Problem p = small(DType::F16);
    p.row_scale = {EpilogueVector::Source::Drawn, 0};
    p.col_scale = {EpilogueVector::Source::Given, 0.5};
    p.bias = {EpilogueVector::Source::Drawn, 0};
    p.bias_axis = BiasAxis::Row;
    p.bias_type = DType::F16;
    const OperandSizes s = OperandSizes::of(p);
    CHECK(s.row_scale == 33 * 4);
    CHECK(s.col_scale == 17 * 4);
    CHECK(s.bias == 33 * 2);
    const Operands a = generate_operands(p), b = generate_operands(p);
    CHECK(a.row_scale == b.row_scale);
    CHECK(a.bias == b.bias);
    const spmma_operands v = a.view();
    REQUIRE(v.row_scale_bytes == 33 * 4);
    std::set<float> distinct;
    for (int i = 0; i < 33; ++i) {
        CHECK(v.row_scale[i] >= 0.25f);
        CHECK(v.row_scale[i] <= 4.0f);
        distinct.insert(v.row_scale[i]);
    }
    CHECK(distinct.size() > 30);
    for (int j = 0; j < 17; ++j) CHECK(v.col_scale[j] == 0.5f);
    CHECK(v.bias_bytes == 33 * 2);
    // The other operands do not move when an epilogue is added.
    const Operands plain = generate_operands(small(DType::F16));
    CHECK(plain.b == a.b);
    CHECK(plain.a.values == a.a.values);
    CHECK(plain.view().row_scale == nullptr);
    p.seed = 43;
    CHECK(generate_operands(p).row_scale != a.row_scale);
}

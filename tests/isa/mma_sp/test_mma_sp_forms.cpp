// mma.sp forms: exactly the qualifier combinations of the PTX syntax section (9.7.14.6.3) and
// block-scale Table 36 exist; names and register counts as the PTX examples write them.
#include <spmma/isa/mma_sp.hpp>

#include <catch2/catch.hpp>

using namespace spmma::isa;
using spmma::DType;
using Kind = MmaSp::Kind;

namespace {
MmaSp legacy(int k, DType a, DType b, DType acc, bool ordered = true, bool sat = false) {
    return {k, a, b, acc, acc, ordered, sat};
}
}  // namespace

TEST_CASE("mma.sp forms: the syntax section has 167 forms") {
    // per variant (.sp, .sp::ordered_metadata): f16 2 shapes x 2 accumulators, bf16 2, tf32 2,
    // e4m3/e5m2 4 type pairs, u8/s8 2 shapes x 4 pairs x satfinite, u4/s4 likewise = 44;
    // kind::f8f6f4 25 pairs x {f16, f32} = 50; kind::mxf8f6f4 25; mxf4 1; mxf4nvf4 3.
    const auto forms = all_forms();
    REQUIRE(forms.size() == 2 * 44 + 50 + 25 + 1 + 3);
    for (size_t i = 0; i < forms.size(); ++i)
        for (size_t j = i + 1; j < forms.size(); ++j) REQUIRE_FALSE(forms[i] == forms[j]);
}

TEST_CASE("mma.sp forms: combinations the syntax section does not have are refused with a reason") {
    CHECK(invalid_reason(legacy(16, DType::BF16, DType::BF16, DType::F16)));        // bf16 accumulates in f32
    CHECK(invalid_reason(legacy(32, DType::TF32, DType::TF32, DType::F32)));        // tf32 is k8/k16
    CHECK(invalid_reason(legacy(16, DType::F16, DType::F16, DType::F32, true, true)));  // satfinite on floats
    CHECK(invalid_reason(legacy(64, DType::E4M3, DType::E4M3, DType::F16)));        // legacy f8: f32 only
    CHECK(invalid_reason(legacy(32, DType::E4M3, DType::E4M3, DType::F32)));        // legacy f8: k64 only
    CHECK(invalid_reason(legacy(64, DType::E3M2, DType::E3M2, DType::F32)));        // e3m2 needs kind::f8f6f4
    CHECK(invalid_reason(legacy(16, DType::U8, DType::U8, DType::S32)));            // u8 is k32/k64
    CHECK(invalid_reason(legacy(32, DType::U4, DType::U4, DType::S32)));            // u4 is k64/k128
    CHECK(invalid_reason(legacy(32, DType::S8, DType::S4, DType::S32)));            // no mixed widths
    MmaSp mixed_acc{16, DType::F16, DType::F16, DType::F16, DType::F32};           // d must equal c
    CHECK(invalid_reason(mixed_acc));
    MmaSp f8f6f4_unordered{64, DType::E2M1, DType::E2M1, DType::F32, DType::F32, false, false, Kind::F8F6F4};
    CHECK(invalid_reason(f8f6f4_unordered));
    MmaSp mxf4_ue4m3{128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4, 2, DType::UE4M3};
    CHECK(invalid_reason(mxf4_ue4m3));
    MmaSp nvf4_ue4m3_2x{128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4NVF4, 2, DType::UE4M3};
    CHECK(invalid_reason(nvf4_ue4m3_2x));
    MmaSp mxf8_2x{64, DType::E4M3, DType::E4M3, DType::F32, DType::F32, true, false, Kind::MXF8F6F4, 2, DType::UE8M0};
    CHECK(invalid_reason(mxf8_2x));
    MmaSp mxf8_f16{64, DType::E4M3, DType::E4M3, DType::F16, DType::F16, true, false, Kind::MXF8F6F4, 1, DType::UE8M0};
    CHECK(invalid_reason(mxf8_f16));
    MmaSp scale_without_block{16, DType::F16, DType::F16, DType::F32, DType::F32, true, false, Kind::Legacy, 1, DType::UE8M0};
    CHECK(invalid_reason(scale_without_block));
    REQUIRE_THROWS(mma_sp(mixed_acc, MmaSpWarp{}));
}

TEST_CASE("mma.sp forms: names are written as the PTX examples write them") {
    CHECK(ptx_name(legacy(16, DType::F16, DType::F16, DType::F16, false)) ==
          "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
    CHECK(ptx_name(legacy(8, DType::TF32, DType::TF32, DType::F32, false)) ==
          "mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
    CHECK(ptx_name({64, DType::E5M2, DType::E4M3, DType::F32, DType::F32, false}) ==
          "mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32");
    CHECK(ptx_name({64, DType::E3M2, DType::E2M3, DType::F32, DType::F32, true, false, Kind::F8F6F4}) ==
          "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e3m2.e2m3.f32");
    CHECK(ptx_name(legacy(32, DType::U8, DType::U8, DType::S32, false, true)) ==
          "mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32");
    CHECK(ptx_name({128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4NVF4, 4, DType::UE4M3}) ==
          "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3");
    CHECK(ptx_name({64, DType::E3M2, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF8F6F4, 1, DType::UE8M0}) ==
          "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e3m2.e2m1.f32.ue8m0");
}

TEST_CASE("mma.sp forms: register counts and selector ranges follow the PTX fragment tables") {
    struct Row { MmaSp f; int a, b, c, selectors, chunk; };
    const Row rows[] = {
        // "two .b32 registers, each containing two non-zero .f16" (k16), four (k32); selector {0..3} / {0,1}
        {legacy(16, DType::F16, DType::F16, DType::F32), 2, 2, 4, 4, 4},
        {legacy(16, DType::F16, DType::F16, DType::F16), 2, 2, 2, 4, 4},
        {legacy(32, DType::BF16, DType::BF16, DType::F32), 4, 4, 4, 2, 4},
        // tf32: "two .b32 registers, each containing one non-zero .tf32 element" (k8), four (k16)
        {legacy(8, DType::TF32, DType::TF32, DType::F32), 2, 2, 4, 4, 2},
        {legacy(16, DType::TF32, DType::TF32, DType::F32), 4, 4, 4, 2, 2},
        // u8/s8: k32 two registers (thread pair), k64 four (all threads, selector 0)
        {legacy(32, DType::S8, DType::U8, DType::S32), 2, 2, 4, 2, 4},
        {legacy(64, DType::U8, DType::S8, DType::S32), 4, 4, 4, 1, 4},
        {legacy(64, DType::E4M3, DType::E5M2, DType::F32), 4, 4, 4, 1, 4},
        // u4/s4: k64 two registers of eight, k128 four; 8-wide pairwise chunks
        {legacy(64, DType::U4, DType::S4, DType::S32), 2, 2, 4, 2, 8},
        {legacy(128, DType::S4, DType::S4, DType::S32), 4, 4, 4, 1, 8},
        {{64, DType::E2M1, DType::E2M3, DType::F16, DType::F16, true, false, Kind::F8F6F4}, 4, 4, 2, 1, 4},
        {{128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4, 2, DType::UE8M0}, 4, 4, 4, 1, 8},
    };
    for (const Row& r : rows) {
        INFO(ptx_name(r.f));
        CHECK(a_registers(r.f) == r.a);
        CHECK(b_registers(r.f) == r.b);
        CHECK(c_registers(r.f) == r.c);
        CHECK(selector_count(r.f) == r.selectors);
        CHECK(chunk_width(r.f) == r.chunk);
    }
}

// The sm100a descriptor helpers (include/spmma_sm100a/descriptors.hpp) against bit patterns
// worked out by hand from the PTX ISA tables (9.7.16.4.2 "Instruction descriptor", Tables for
// kind::f16/tf32/f8f6f4/i8 and for the block-scaled kinds; 9.7.16.4.1 "Shared memory
// descriptor"), then decoded by the instruction model's independent decoders; and the tile
// configurations of every kernel the plugin lists.
#include <catch2/catch.hpp>

#include <spmma/isa/smem.hpp>
#include <spmma/isa/tcgen05_mma_sp.hpp>
#include <spmma_sm100a/descriptors.hpp>
#include <spmma_sm100a/pack.hpp>
#include <spmma_sm100a/tile_config.hpp>

#include <string>
#include <vector>

using namespace spmma_sm100a;
namespace isa = spmma::isa;
using spmma::DType;

namespace {

isa::InstrDescriptor decoded(uint32_t idesc, isa::Tcgen05Kind kind) {
    std::vector<std::string> problems;
    const isa::InstrDescriptor d = isa::InstrDescriptor::decode(idesc, kind, &problems);
    for (const auto& p : problems) UNSCOPED_INFO(p);
    CHECK(problems.empty());
    return d;
}

}  // namespace

TEST_CASE("sm100a idesc: kind::f16/tf32/f8f6f4/i8 bit patterns from PTX Table 'Instruction descriptor format'",
          "[sm100a][desc]") {
    // bit 2 sparse; 5..4 dtype; 9..7 atype; 12..10 btype; 22..17 N>>3; 28..24 M>>4; 1..0 selector; 3 saturate
    const uint32_t f16 = make_idesc(Kind::F16, SPMMA_F16, SPMMA_F16, SPMMA_F32, 128, 256, false, SPMMA_DTYPE_NONE);
    CHECK(f16 == 0x08400014u);
    const uint32_t bf16_sel1 = idesc_with_selector(make_idesc(Kind::F16, SPMMA_BF16, SPMMA_BF16, SPMMA_F32, 128, 128, false, SPMMA_DTYPE_NONE), 1);
    CHECK(bf16_sel1 == 0x08200495u);
    const uint32_t tf32 = make_idesc(Kind::TF32, SPMMA_TF32, SPMMA_TF32, SPMMA_F32, 256, 256, false, SPMMA_DTYPE_NONE);
    CHECK(tf32 == 0x10400914u);
    const uint32_t i8 = make_idesc(Kind::I8, SPMMA_S8, SPMMA_U8, SPMMA_S32, 128, 64, true, SPMMA_DTYPE_NONE);
    CHECK(i8 == 0x081000ACu);
    const uint32_t f8 = make_idesc(Kind::F8F6F4, SPMMA_E2M1, SPMMA_E3M2, SPMMA_F16, 128, 128, false, SPMMA_DTYPE_NONE);
    CHECK(f8 == 0x08201284u);

    const auto d1 = decoded(f16, isa::Tcgen05Kind::F16);
    CHECK((d1.sparse && d1.a == DType::F16 && d1.b == DType::F16 && d1.d == DType::F32 && d1.m == 128 && d1.n == 256 &&
           d1.sparsity_selector == 0 && !d1.transpose_a && !d1.transpose_b));
    const auto d2 = decoded(bf16_sel1, isa::Tcgen05Kind::F16);
    CHECK((d2.a == DType::BF16 && d2.b == DType::BF16 && d2.n == 128 && d2.sparsity_selector == 1));
    const auto d3 = decoded(tf32, isa::Tcgen05Kind::TF32);
    CHECK((d3.a == DType::TF32 && d3.m == 256 && d3.n == 256));
    const auto d4 = decoded(i8, isa::Tcgen05Kind::I8);
    CHECK((d4.a == DType::S8 && d4.b == DType::U8 && d4.d == DType::S32 && d4.saturate && d4.n == 64));
    const auto d5 = decoded(f8, isa::Tcgen05Kind::F8F6F4);
    CHECK((d5.a == DType::E2M1 && d5.b == DType::E3M2 && d5.d == DType::F16));
}

TEST_CASE("sm100a idesc: block-scaled kinds' bit patterns (scale ids, scale type, M>>7)", "[sm100a][desc]") {
    // 5..4 scale-B id; 23 scale type (1 ue8m0); 28..27 M>>7; 30..29 scale-A id; mxf4*: e2m1 = 1
    const uint32_t mx8 = idesc_with_scale_ids(make_idesc(Kind::MXF8F6F4, SPMMA_E4M3, SPMMA_E2M1, SPMMA_F32, 128, 256, false, SPMMA_UE8M0), 1, 1);
    CHECK(mx8 == 0x28C01414u);
    const uint32_t nvf4 = make_idesc(Kind::MXF4NVF4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, 128, 128, false, SPMMA_UE4M3);
    CHECK(nvf4 == 0x08200484u);
    const uint32_t mxf4 = idesc_with_scale_ids(make_idesc(Kind::MXF4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, 256, 256, false, SPMMA_UE8M0), 2, 2);
    CHECK(mxf4 == 0x50C004A4u);

    const auto d1 = decoded(mx8, isa::Tcgen05Kind::MXF8F6F4);
    CHECK((d1.a == DType::E4M3 && d1.b == DType::E2M1 && d1.scale_type == DType::UE8M0 && d1.scale_a_id == 1 &&
           d1.scale_b_id == 1 && d1.m == 128 && d1.n == 256));
    const auto d2 = decoded(nvf4, isa::Tcgen05Kind::MXF4NVF4);
    CHECK((d2.a == DType::E2M1 && d2.scale_type == DType::UE4M3 && d2.n == 128 && d2.k_flag == 0));
    const auto d3 = decoded(mxf4, isa::Tcgen05Kind::MXF4);
    CHECK((d3.m == 256 && d3.scale_a_id == 2 && d3.scale_b_id == 2));
    // Each field the kernel changes per instruction leaves the others alone.
    CHECK(idesc_with_scale_ids(mx8, 0, 0) == (mx8 & ~((3u << 29) | (3u << 4))));
    CHECK(idesc_with_selector(0x08400014u, 3) == 0x08400017u);
}

TEST_CASE("sm100a idesc: types a kind does not take are refused", "[sm100a][desc]") {
    CHECK_THROWS(make_idesc(Kind::F16, SPMMA_E4M3, SPMMA_E4M3, SPMMA_F32, 128, 128, false, SPMMA_DTYPE_NONE));
    CHECK_THROWS(make_idesc(Kind::TF32, SPMMA_TF32, SPMMA_TF32, SPMMA_F16, 128, 128, false, SPMMA_DTYPE_NONE));
    CHECK_THROWS(make_idesc(Kind::MXF4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, 128, 128, false, SPMMA_UE4M3));
    CHECK_THROWS(make_idesc(Kind::I8, SPMMA_S8, SPMMA_S8, SPMMA_F32, 128, 128, false, SPMMA_DTYPE_NONE));
}

TEST_CASE("sm100a smem descriptors: A (64B swizzle), B (128B swizzle), tcgen05.cp source, as PTX Table 'Shared memory descriptor layout'",
          "[sm100a][desc]") {
    // 13..0 start>>4, 29..16 LBO>>4, 45..32 SBO>>4, 48..46 = 0b001, 63..61 swizzle (4 = 64B, 2 = 128B, 0 none)
    CHECK(a_desc(0x2000, 1) == 0x8000402000010202ull);
    CHECK(b_desc(0x10000, 1) == 0x4000404000011004ull);
    CHECK(rows16_desc(0x3000) == 0x0000400800010300ull);

    std::vector<std::string> problems;
    const auto a = isa::UmmaDescriptor::decode(a_desc(0x2000, 1), &problems);
    CHECK((a.start_address == 0x2020 && a.stride_byte_offset == 512 && a.swizzle == isa::Swizzle::B64 && a.version == 1 &&
           a.base_offset == 0 && !a.lbo_absolute));
    const auto b = isa::UmmaDescriptor::decode(b_desc(0x10000, 0), &problems);
    CHECK((b.start_address == 0x10000 && b.stride_byte_offset == 1024 && b.swizzle == isa::Swizzle::B128));
    const auto c = isa::UmmaDescriptor::decode(rows16_desc(0x3000), &problems);
    CHECK((c.start_address == 0x3000 && c.stride_byte_offset == 128 && c.swizzle == isa::Swizzle::None));
    for (const auto& p : problems) UNSCOPED_INFO(p);
    CHECK(problems.empty());
}

TEST_CASE("sm100a metadata operand: one-column kinds pair columns with the selector, the others take two columns",
          "[sm100a][desc]") {
    CHECK((meta_operand(Kind::F16, 8, 0).column == 8 && meta_operand(Kind::F16, 8, 0).selector == 0));
    CHECK((meta_operand(Kind::F16, 8, 1).column == 8 && meta_operand(Kind::F16, 8, 1).selector == 1));
    CHECK((meta_operand(Kind::TF32, 12, 1).column == 12 && meta_operand(Kind::TF32, 12, 1).selector == 1));
    CHECK((meta_operand(Kind::F8F6F4, 8, 1).column == 10 && meta_operand(Kind::F8F6F4, 8, 1).selector == 0));
    CHECK((meta_operand(Kind::MXF4, 8, 1).column == 10 && meta_operand(Kind::MXF4, 8, 1).selector == 0));
    CHECK(tmem_addr(32, 5) == 0x00200005u);
}

TEST_CASE("sm100a tile configurations: every kernel the plugin lists keeps TileConfig's invariants", "[sm100a][config]") {
    int count = 0;
#define SPMMA_SM100A_KERNEL(TOK, KIND, SV, ACC, BM, BN, BK, CG, S)                                       \
    {                                                                                                    \
        const TileConfig cfg{Kind::KIND, ScaleVec::SV, CG, BN, S};                                       \
        INFO(#TOK " " #BM "x" #BN "x" #BK " cg" #CG " s" #S ": smem " << cfg.smem_bytes() << " bytes, tmem " \
                                                                       << cfg.tmem_columns_used() << " columns"); \
        CHECK(cfg.valid());                                                                              \
        CHECK(cfg.bm() == BM);                                                                           \
        CHECK(cfg.bk() == BK);                                                                           \
        CHECK(cfg.smem_bytes() <= kMaxSmemPerCta);                                                       \
        CHECK(cfg.tmem_columns_used() <= kTmemColumns);                                                  \
        ++count;                                                                                         \
    }
#include <spmma_sm100a/kernels/f16.inc>
#include <spmma_sm100a/kernels/tf32.inc>
#include <spmma_sm100a/kernels/f8f6f4.inc>
#include <spmma_sm100a/kernels/i8.inc>
#include <spmma_sm100a/kernels/mxf8f6f4.inc>
#include <spmma_sm100a/kernels/mxf4.inc>
#include <spmma_sm100a/kernels/mxf4nvf4.inc>
#undef SPMMA_SM100A_KERNEL
    CHECK(count >= 20);
    // An over-deep ring is refused (shared memory), and so is a block-scaled tile of odd N.
    CHECK_FALSE((TileConfig{Kind::F16, ScaleVec::None, 1, 256, 6}.valid()));
    CHECK_FALSE((TileConfig{Kind::MXF4, ScaleVec::X2, 1, 64, 4}.valid()));
}

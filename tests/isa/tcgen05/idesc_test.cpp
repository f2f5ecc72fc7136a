// tcgen05 instruction descriptor (PTX ISA 9.7.16.4.2, Tables 42-44) and shared memory
// descriptor (9.7.16.4.1, Table 40): bit patterns written out by hand from the tables, every
// decoded field, and the reporting of reserved bits and values inconsistent with the kind.
#include <spmma/isa/smem.hpp>
#include <spmma/isa/tcgen05_mma_sp.hpp>

#include <catch2/catch.hpp>

using namespace spmma;
using namespace spmma::isa;

namespace {
std::vector<std::string> problems_of(uint32_t v, Tcgen05Kind k) {
    std::vector<std::string> p;
    InstrDescriptor::decode(v, k, &p);
    return p;
}
}  // namespace

TEST_CASE("idesc kind::f16: selector 1, sparse, f32 <- bf16 x bf16, N 256, M 128", "[tcgen05][idesc]") {
    // 0x1 sel | 0x4 sparse | 1<<4 f32 | 1<<7 bf16 | 1<<10 bf16 | 32<<17 N | 8<<24 M
    const uint32_t raw = 0x08400495u;
    REQUIRE(problems_of(raw, Tcgen05Kind::F16).empty());
    const InstrDescriptor d = InstrDescriptor::decode(raw, Tcgen05Kind::F16);
    CHECK(d.sparsity_selector == 1);
    CHECK(d.sparse);
    CHECK(d.d == DType::F32);
    CHECK(d.a == DType::BF16);
    CHECK(d.b == DType::BF16);
    CHECK(d.n == 256);
    CHECK(d.m == 128);
    CHECK_FALSE(d.negate_a);
    CHECK_FALSE(d.transpose_b);
    CHECK(d.encode(Tcgen05Kind::F16) == raw);
}

TEST_CASE("idesc kind::i8: saturate, s32 <- s8 x u8, B transposed, N 48, M 64", "[tcgen05][idesc]") {
    // 0x4 | 0x8 saturate | 2<<4 s32 | 1<<7 s8 | 0<<10 u8 | 1<<16 transpose B | 6<<17 | 4<<24
    const uint32_t raw = 0x040D00ACu;
    REQUIRE(problems_of(raw, Tcgen05Kind::I8).empty());
    const InstrDescriptor d = InstrDescriptor::decode(raw, Tcgen05Kind::I8);
    CHECK(d.saturate);
    CHECK(d.d == DType::S32);
    CHECK(d.a == DType::S8);
    CHECK(d.b == DType::U8);
    CHECK(d.transpose_b);
    CHECK_FALSE(d.transpose_a);
    CHECK(d.n == 48);
    CHECK(d.m == 64);
    CHECK(d.encode(Tcgen05Kind::I8) == raw);
}

TEST_CASE("idesc kind::tf32 and kind::f8f6f4 known patterns", "[tcgen05][idesc]") {
    // tf32: 0x4 | 1<<4 | 2<<7 | 2<<10 | 1<<13 negate A | 1<<17 N=8 | 8<<24
    const uint32_t tf = 0x08022914u;
    REQUIRE(problems_of(tf, Tcgen05Kind::TF32).empty());
    InstrDescriptor d = InstrDescriptor::decode(tf, Tcgen05Kind::TF32);
    CHECK(d.a == DType::TF32);
    CHECK(d.negate_a);
    CHECK_FALSE(d.negate_b);
    CHECK(d.n == 8);
    CHECK(d.encode(Tcgen05Kind::TF32) == tf);
    // f8f6f4: 0x4 | 0<<4 f16 | 5<<7 e2m1 | 4<<10 e3m2 | 8<<17 N=64 | 8<<24
    const uint32_t f8 = 0x08101284u;
    REQUIRE(problems_of(f8, Tcgen05Kind::F8F6F4).empty());
    d = InstrDescriptor::decode(f8, Tcgen05Kind::F8F6F4);
    CHECK(d.d == DType::F16);
    CHECK(d.a == DType::E2M1);
    CHECK(d.b == DType::E3M2);
    CHECK(d.n == 64);
    CHECK(d.encode(Tcgen05Kind::F8F6F4) == f8);
    // atype codes of f8f6f4: e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5; 2, 6, 7 mean nothing.
    const DType expect[8] = {DType::E4M3, DType::E5M2, DType::None, DType::E2M3, DType::E3M2, DType::E2M1, DType::None, DType::None};
    for (uint32_t c = 0; c < 8; ++c) {
        std::vector<std::string> p;
        const InstrDescriptor e = InstrDescriptor::decode((f8 & ~(7u << 7)) | (c << 7), Tcgen05Kind::F8F6F4, &p);
        CHECK(e.a == expect[c]);
        CHECK(p.size() == (expect[c] == DType::None ? 1u : 0u));
    }
}

TEST_CASE("idesc block-scaled kinds: scale ids, scale type, M >> 7, K bit", "[tcgen05][idesc]") {
    // mxf8f6f4: 0x4 | 3<<4 sfb id | e4m3 | 1<<10 e5m2 | 16<<17 N=128 | 1<<23 ue8m0 | 1<<27 M=128 | 2<<29 sfa id
    const uint32_t mx8 = 0x48A00434u;
    REQUIRE(problems_of(mx8, Tcgen05Kind::MXF8F6F4).empty());
    InstrDescriptor d = InstrDescriptor::decode(mx8, Tcgen05Kind::MXF8F6F4);
    CHECK(d.scale_b_id == 3);
    CHECK(d.scale_a_id == 2);
    CHECK(d.a == DType::E4M3);
    CHECK(d.b == DType::E5M2);
    CHECK(d.scale_type == DType::UE8M0);
    CHECK(d.n == 128);
    CHECK(d.m == 128);
    CHECK(d.encode(Tcgen05Kind::MXF8F6F4) == mx8);
    // mxf4nvf4: 0x4 | 2<<4 | 1<<7 | 1<<10 | 32<<17 | ue4m3 (bit 23 = 0) | 1<<27
    const uint32_t nv = 0x084004A4u;
    REQUIRE(problems_of(nv, Tcgen05Kind::MXF4NVF4).empty());
    d = InstrDescriptor::decode(nv, Tcgen05Kind::MXF4NVF4);
    CHECK(d.scale_type == DType::UE4M3);
    CHECK(d.scale_b_id == 2);
    CHECK(d.a == DType::E2M1);
    CHECK(d.n == 256);
    CHECK(d.encode(Tcgen05Kind::MXF4NVF4) == nv);
    // mxf4 needs ue8m0; the same word with bit 23 set is valid for it.
    CHECK(problems_of(nv, Tcgen05Kind::MXF4).size() == 1);
    CHECK(problems_of(nv | (1u << 23), Tcgen05Kind::MXF4).empty());
}

TEST_CASE("idesc: every reserved bit is reported, per kind", "[tcgen05][idesc][undefined]") {
    const uint32_t f16 = 0x08400495u, mx8 = 0x48A00434u, nv = 0x084004A4u;
    for (int bit : {6, 23, 29}) CHECK(problems_of(f16 | (1u << bit), Tcgen05Kind::F16).size() == 1);
    for (int bit : {0, 1, 3, 6, 24, 25, 26, 31}) CHECK(problems_of(mx8 | (1u << bit), Tcgen05Kind::MXF8F6F4).size() >= 1);
    for (int bit : {0, 3, 6, 12, 24}) CHECK(problems_of(nv | (1u << bit), Tcgen05Kind::MXF4NVF4).size() >= 1);
    CHECK(problems_of(f16 | (1u << 30), Tcgen05Kind::F16).size() == 1);  // max shift is for .ws
}

TEST_CASE("idesc: fields inconsistent with the kind are reported", "[tcgen05][idesc][undefined]") {
    const uint32_t tf = 0x08022914u;
    CHECK_FALSE(problems_of(tf & ~(1u << 4), Tcgen05Kind::TF32).empty());   // dtype f16 with tf32
    const uint32_t f16 = 0x08400495u;
    CHECK_FALSE(problems_of(f16 & ~(1u << 10), Tcgen05Kind::F16).empty());  // bf16 x f16
    CHECK_FALSE(problems_of(f16 & ~(3u << 4), Tcgen05Kind::F16).empty());   // f16 accumulator with bf16 inputs
    CHECK_FALSE(problems_of(f16 | (1u << 3), Tcgen05Kind::F16).empty());    // saturate outside i8
    const uint32_t i8 = 0x040D00ACu;
    CHECK_FALSE(problems_of(i8 | (1u << 13), Tcgen05Kind::I8).empty());     // i8 does not negate
    CHECK_FALSE(problems_of(i8 | 1u, Tcgen05Kind::I8).empty());             // selector must be 0
    const uint32_t nv = 0x084004A4u;
    CHECK_FALSE(problems_of(nv | (1u << 15), Tcgen05Kind::MXF4NVF4).empty());  // mxf4* do not transpose
    CHECK_FALSE(problems_of(nv | (1u << 29), Tcgen05Kind::MXF4NVF4).empty());  // scale id 1: only 0 or 2
    CHECK_FALSE(problems_of(0x48A00434u & ~(1u << 23), Tcgen05Kind::MXF8F6F4).empty());  // mxf8f6f4 needs ue8m0
}

TEST_CASE("tcgen05 smem descriptor: fields on the bits of Table 40", "[tcgen05][descriptor]") {
    UmmaDescriptor d;
    CHECK(d.encode() == (1ull << 46));  // the fixed 0b001 in bits 48..46
    d.start_address = 0x3FFF0;
    CHECK(d.encode() == ((1ull << 46) | 0x3FFFull));
    d = {};
    d.leading_byte_offset = 0x20;
    d.stride_byte_offset = 0x400;
    d.base_offset = 5;
    d.lbo_absolute = true;
    d.swizzle = Swizzle::B64;
    const uint64_t raw = (0x2ull << 16) | (0x40ull << 32) | (1ull << 46) | (5ull << 49) | (1ull << 52) | (4ull << 61);
    CHECK(d.encode() == raw);
    const Swizzle modes[8] = {Swizzle::None, Swizzle::B128_Atom32, Swizzle::B128, Swizzle::None,
                              Swizzle::B64, Swizzle::None, Swizzle::B32, Swizzle::None};
    for (uint64_t m = 0; m < 8; ++m) {
        std::vector<std::string> p;
        const UmmaDescriptor e = UmmaDescriptor::decode((1ull << 46) | (m << 61), &p);
        CHECK(e.swizzle == modes[m]);
        CHECK(p.size() == ((m == 3 || m == 5 || m == 7) ? 1u : 0u));
    }
    std::vector<std::string> p;
    const UmmaDescriptor e = UmmaDescriptor::decode(raw, &p);
    CHECK(e.leading_byte_offset == 0x20);
    CHECK(e.stride_byte_offset == 0x400);
    CHECK(e.base_offset == 5);
    CHECK(e.lbo_absolute);
    CHECK(p.size() == 1);  // absolute LBO mode is sm_103a, reported
}

TEST_CASE("tcgen05 smem descriptor: reserved bits and the fixed fields are checked", "[tcgen05][descriptor][undefined]") {
    for (int bit : {14, 15, 30, 31, 53, 60}) {
        std::vector<std::string> p;
        UmmaDescriptor::decode((1ull << 46) | (1ull << bit), &p);
        CHECK(p.size() == 1);
    }
    std::vector<std::string> p;
    UmmaDescriptor::decode(0, &p);  // version 0
    CHECK(p.size() == 1);
}

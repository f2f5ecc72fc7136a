// The wgmma matrix descriptor (PTX ISA 9.7.15.5.1.2.2): bit positions checked against patterns
// written out by hand from the table, round trips, and the reporting of bits outside the fields.
#include <spmma/isa/smem.hpp>

#include <catch2/catch.hpp>

#include <random>

using namespace spmma::isa;

TEST_CASE("wgmma descriptor: each field lands on the bits the PTX table gives", "[wgmma][descriptor]") {
    WgmmaDescriptor d;
    d.start_address = 0x10;  // encoded 1 -> bit 0
    CHECK(d.encode() == 0x1ull);
    d = {};
    d.start_address = 0x3FFF0;  // 14 ones in bits 13..0
    CHECK(d.encode() == 0x3FFFull);
    d = {};
    d.leading_byte_offset = 0x10;  // bit 16
    CHECK(d.encode() == (1ull << 16));
    d = {};
    d.stride_byte_offset = 0x3FFF0;  // bits 45..32
    CHECK(d.encode() == (0x3FFFull << 32));
    d = {};
    d.base_offset = 7;  // bits 51..49
    CHECK(d.encode() == (7ull << 49));
    d = {};
    d.swizzle = Swizzle::B128;  // mode 1 in bits 63..62
    CHECK(d.encode() == (1ull << 62));
    d.swizzle = Swizzle::B64;  // mode 2
    CHECK(d.encode() == (2ull << 62));
    d.swizzle = Swizzle::B32;  // mode 3
    CHECK(d.encode() == (3ull << 62));
}

TEST_CASE("wgmma descriptor: a full known pattern decodes to its fields", "[wgmma][descriptor]") {
    // start 0x400 -> 0x40, LBO 0x80 -> 0x8, SBO 0x100 -> 0x10, base offset 2, 64B swizzle (2).
    const uint64_t raw = 0x40ull | (0x8ull << 16) | (0x10ull << 32) | (2ull << 49) | (2ull << 62);
    std::vector<std::string> problems;
    const WgmmaDescriptor d = WgmmaDescriptor::decode(raw, &problems);
    CHECK(problems.empty());
    CHECK(d.start_address == 0x400);
    CHECK(d.leading_byte_offset == 0x80);
    CHECK(d.stride_byte_offset == 0x100);
    CHECK(d.base_offset == 2);
    CHECK(d.swizzle == Swizzle::B64);
    CHECK(d.encode() == raw);
}

TEST_CASE("wgmma descriptor: random field values round-trip", "[wgmma][descriptor]") {
    std::mt19937 rng(7);
    const Swizzle modes[4] = {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128};
    for (int i = 0; i < 1000; ++i) {
        WgmmaDescriptor d;
        d.start_address = (rng() & 0x3FFF) << 4;
        d.leading_byte_offset = (rng() & 0x3FFF) << 4;
        d.stride_byte_offset = (rng() & 0x3FFF) << 4;
        d.base_offset = static_cast<int>(rng() & 7);
        d.swizzle = modes[rng() & 3];
        std::vector<std::string> problems;
        const WgmmaDescriptor e = WgmmaDescriptor::decode(d.encode(), &problems);
        REQUIRE(problems.empty());
        CHECK(e.start_address == d.start_address);
        CHECK(e.leading_byte_offset == d.leading_byte_offset);
        CHECK(e.stride_byte_offset == d.stride_byte_offset);
        CHECK(e.base_offset == d.base_offset);
        CHECK(e.swizzle == d.swizzle);
    }
}

TEST_CASE("wgmma descriptor: bits outside the fields are reported", "[wgmma][descriptor][undefined]") {
    for (int bit : {14, 15, 30, 31, 46, 47, 48, 52, 61}) {
        std::vector<std::string> problems;
        WgmmaDescriptor::decode(1ull << bit, &problems);
        CHECK(problems.size() == 1);
    }
}

TEST_CASE("wgmma descriptor: encode refuses values its fields cannot hold", "[wgmma][descriptor]") {
    WgmmaDescriptor d;
    d.start_address = 0x18;  // not a multiple of 16
    CHECK_THROWS(d.encode());
    d.start_address = 0x40000;  // 19 bits
    CHECK_THROWS(d.encode());
    d = {};
    d.base_offset = 8;
    CHECK_THROWS(d.encode());
    d = {};
    d.swizzle = Swizzle::B128_Atom32;  // tcgen05 only
    CHECK_THROWS(d.encode());
}

// Canonical buffers: 4-bit types two per byte (lower index in bits 3..0), 6-bit types one per
// byte in bits 5..0, 8/16/32-bit little-endian; the kind::f8f6f4 8-bit containers.
#include <spmma/types.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using namespace spmma;

TEST_CASE("4-bit types pack two per byte, the element of lower index in the low nibble") {
    for (DType t : {DType::E2M1, DType::S4, DType::U4}) {
        INFO(name(t));
        std::vector<uint8_t> buf(storage_bytes(t, 5), 0xff);
        REQUIRE(buf.size() == 3);
        store_code(t, buf.data(), 0, 0x3);
        store_code(t, buf.data(), 1, 0xa);
        store_code(t, buf.data(), 2, 0x5);
        store_code(t, buf.data(), 4, 0x1);
        REQUIRE(buf[0] == 0xa3);
        REQUIRE(buf[1] == 0xf5);  // element 3 untouched
        REQUIRE(buf[2] == 0xf1);
        REQUIRE(load_code(t, buf.data(), 0) == 0x3);
        REQUIRE(load_code(t, buf.data(), 1) == 0xa);
        REQUIRE(load_code(t, buf.data(), 3) == 0xf);
        REQUIRE(load_code(t, buf.data(), 5) == 0xf);
    }
}

TEST_CASE("store_code then load_code returns every code at every index for every storage width") {
    std::mt19937 rng(5);
    for (const auto& ti : all_types()) {
        INFO(name(ti.type));
        const int64_t count = 1001;
        std::vector<uint8_t> buf(storage_bytes(ti.type, count), 0);
        REQUIRE(buf.size() == static_cast<size_t>((count * ti.storage_bits + 7) / 8));
        const uint32_t mask = ti.storage_bits == 32 ? 0xffffffffu : ((1u << ti.storage_bits) - 1);
        std::vector<uint32_t> codes(count);
        for (auto& c : codes) c = rng() & mask;
        for (int64_t i = 0; i < count; ++i) store_code(ti.type, buf.data(), i, codes[i]);
        for (int64_t i = 0; i < count; ++i) REQUIRE(load_code(ti.type, buf.data(), i) == codes[i]);
    }
}

TEST_CASE("16- and 32-bit codes are stored little-endian") {
    std::vector<uint8_t> buf(8, 0);
    store_code(DType::F16, buf.data(), 1, 0x3c01);
    REQUIRE(buf[2] == 0x01);
    REQUIRE(buf[3] == 0x3c);
    store_code(DType::S32, buf.data(), 1, 0x11223344u);
    REQUIRE(buf[4] == 0x44);
    REQUIRE(buf[7] == 0x11);
}

TEST_CASE("f8f6f4 containers: e2m1 in bits 5..2, e3m2/e2m3 in bits 5..0, 8-bit types as they are, round trips of every code") {
    for (uint32_t c = 0; c < 16; ++c) {
        const uint8_t box = to_f8f6f4_container(DType::E2M1, c);
        REQUIRE(box == (c << 2));
        REQUIRE((box & 0xc3) == 0);  // padding: 2 bits above, 2 below
        REQUIRE(from_f8f6f4_container(DType::E2M1, box) == c);
    }
    for (DType t : {DType::E3M2, DType::E2M3})
        for (uint32_t c = 0; c < 64; ++c) {
            const uint8_t box = to_f8f6f4_container(t, c);
            REQUIRE(box == c);
            REQUIRE(from_f8f6f4_container(t, box) == c);
            REQUIRE(decode(t, from_f8f6f4_container(t, box)) == decode(t, c));
        }
    for (DType t : {DType::E4M3, DType::E5M2})
        for (uint32_t c = 0; c < 256; ++c) REQUIRE(from_f8f6f4_container(t, to_f8f6f4_container(t, c)) == c);
    REQUIRE_THROWS(to_f8f6f4_container(DType::F16, 0));
    REQUIRE_THROWS(from_f8f6f4_container(DType::S8, 0));
}

// The sm100a host packing library on small hand-made inputs: the shared-memory element formats
// (padded 4/6-bit of kind::f8f6f4, packed e2m1 of kind::mxf4*), the metadata chunk positions and
// padding, the scale chunks, C conversion, and which kind / scale_vec a problem maps to.
#include <catch2/catch.hpp>

#include <spmma_sm100a/pack.hpp>
#include <spmma_sm100a/target.hpp>

#include <cstring>
#include <vector>

using namespace spmma_sm100a;

TEST_CASE("sm100a pack: kind::f8f6f4 e2m1 rows become 16 elements per 16-byte chunk, packed low, padded",
          "[sm100a][pack]") {
    // One B column of k = 32 e2m1 (canonical: 16 bytes, element 2i in the low nibble of byte i).
    std::vector<uint8_t> b(16);
    for (int i = 0; i < 16; ++i) b[i] = static_cast<uint8_t>(0x10 * (i % 8) + (7 - i % 8));
    std::vector<uint8_t> out(packed_b_bytes(Kind::F8F6F4, 1, 128), 0xAA);
    REQUIRE(out.size() == 128);
    pack_b(Kind::F8F6F4, SPMMA_E2M1, b.data(), 1, 32, 128, out.data());
    for (int c = 0; c < 2; ++c)
        for (int i = 0; i < 16; ++i) CHECK(out[c * 16 + i] == (i < 8 ? b[c * 8 + i] : 0));
    for (size_t i = 32; i < out.size(); ++i) CHECK(out[i] == 0);  // k padding
    // kind::mxf4 keeps e2m1 packed two per byte.
    std::vector<uint8_t> out4(packed_b_bytes(Kind::MXF4, 1, 512), 0xAA);
    REQUIRE(out4.size() == 256);
    pack_b(Kind::MXF4, SPMMA_E2M1, b.data(), 1, 32, 512, out4.data());
    CHECK(std::memcmp(out4.data(), b.data(), 16) == 0);
    CHECK(out4[16] == 0);
}

TEST_CASE("sm100a pack: kind::f8f6f4 6-bit rows are bit-packed little-endian, 12 bytes per 16-element chunk",
          "[sm100a][pack]") {
    // A values of one row, k = 32 -> 16 kept e3m2 (canonical one per byte, bits 5..0).
    std::vector<uint8_t> a(16, 0);
    a[1] = 0x01;   // element 1 -> bit 6
    a[15] = 0x3F;  // element 15 -> bits 90..95
    std::vector<uint8_t> out(packed_a_bytes(Kind::F8F6F4, 1, 128), 0xAA);
    REQUIRE(out.size() == 64);
    pack_a_values(Kind::F8F6F4, SPMMA_E3M2, a.data(), 1, 32, 128, out.data());
    CHECK(out[0] == 0x40);
    for (int i = 1; i < 11; ++i) CHECK(out[i] == 0);
    CHECK(out[11] == 0xFC);
    for (int i = 12; i < 64; ++i) CHECK(out[i] == 0);
    // 8-bit types are copied as they are.
    std::vector<uint8_t> e4(16);
    for (int i = 0; i < 16; ++i) e4[i] = static_cast<uint8_t>(i * 9 + 1);
    pack_a_values(Kind::F8F6F4, SPMMA_E4M3, e4.data(), 1, 32, 128, out.data());
    CHECK(std::memcmp(out.data(), e4.data(), 16) == 0);
}

TEST_CASE("sm100a pack: metadata nibbles land at meta_position, padding rows and stages hold 0b0100",
          "[sm100a][pack]") {
    // f16: m = 9, k = 32 (8 groups a row), one stage of 64 -> one chunk of 2048 bytes.
    std::vector<uint8_t> idx(9 * 8);
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<uint8_t>((i % 2) ? 0xD : 0x9);  // (1,3) / (1,2)
    std::vector<uint8_t> out(packed_meta_bytes(Kind::F16, 128, 64));
    REQUIRE(out.size() == 2048);
    pack_metadata(Kind::F16, idx.data(), 9, 32, 128, 64, out.data());
    auto nibble = [&](Kind k, int row, int group) {
        const ChunkPos p = meta_position(k, row, group);
        return (out[p.byte()] >> (p.bit % 8)) & 0xF;
    };
    CHECK(nibble(Kind::F16, 0, 0) == 0x9);
    CHECK(nibble(Kind::F16, 8, 5) == 0xD);
    CHECK(nibble(Kind::F16, 9, 0) == kMetaPadNibble);    // row past m
    CHECK(nibble(Kind::F16, 3, 12) == kMetaPadNibble);   // group past k (second instruction)
    // f16 row 8, group 5 (instruction 0, nibble 5): lane 0 + 8 * 1, column 0, bits 16 + 4.
    CHECK(meta_position(Kind::F16, 8, 5).lane == 8);
    CHECK(meta_position(Kind::F16, 8, 5).bit == 20);
    CHECK(meta_position(Kind::F16, 17, 9).lane == 17 % 8 + 16);
    CHECK(meta_position(Kind::F16, 17, 9).column == 1);
    // 8-bit kinds: lane = row, two columns per instruction.
    CHECK(meta_position(Kind::I8, 77, 21).lane == 77);
    CHECK(meta_position(Kind::I8, 77, 21).column == 2);
    CHECK(meta_position(Kind::I8, 77, 21).bit == 20);

    // tf32 (1:2): position 0 -> 0b0100, position 1 -> 0b1110.
    std::vector<uint8_t> t(2 * 16);
    for (size_t i = 0; i < t.size(); ++i) t[i] = static_cast<uint8_t>(i % 3 == 0);
    pack_metadata(Kind::TF32, t.data(), 2, 32, 128, 32, out.data());
    auto nib_tf32 = [&](int row, int group) {
        const ChunkPos p = meta_position(Kind::TF32, row, group);
        return (out[p.byte()] >> (p.bit % 8)) & 0xF;
    };
    CHECK(nib_tf32(0, 0) == 0xE);
    CHECK(nib_tf32(0, 1) == 0x4);
    CHECK(nib_tf32(1, 2) == 0xE);  // index 18
}

TEST_CASE("sm100a pack: scale chunks follow scale_position, padding holds 1.0", "[sm100a][pack]") {
    // mxf8f6f4 (1X, 64 k per scale, stage 128): rows 0..39, k = 128 -> 2 scales a row.
    std::vector<uint8_t> s(40 * 2);
    for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(100 + i);
    std::vector<uint8_t> out(packed_scale_bytes(Kind::MXF8F6F4, ScaleVec::X1, 128, 128, 1));
    REQUIRE(out.size() == 512);
    pack_scales(Kind::MXF8F6F4, ScaleVec::X1, SPMMA_UE8M0, s.data(), 40, 128, 64, 128, 128, 1, out.data());
    // row 33, instruction 1: lane 1, column 1, byte 1
    CHECK(out[1 * 16 + 1 * 4 + 1] == s[33 * 2 + 1]);
    CHECK(out[1 * 16 + 1 * 4 + 0] == s[33 * 2 + 0]);
    CHECK(out[8 * 16 + 2 * 4 + 0] == 0x7F);  // row 72: past the problem -> ue8m0 1.0
    CHECK(out[0 * 16 + 0 * 4 + 2] == 0x7F);  // byte 2: no third instruction in a stage
    CHECK_THROWS(pack_scales(Kind::MXF8F6F4, ScaleVec::X1, SPMMA_UE8M0, s.data(), 40, 128, 32, 128, 128, 1, out.data()));
    // mxf4nvf4 4X (32 k per scale): instruction j's four scales in tile j, bytes 0..3.
    std::vector<uint8_t> s4(1 * 8);
    for (int i = 0; i < 8; ++i) s4[i] = static_cast<uint8_t>(0x30 + i);
    std::vector<uint8_t> o4(packed_scale_bytes(Kind::MXF4NVF4, ScaleVec::X4, 128, 256, 1));
    REQUIRE(o4.size() == 1024);
    pack_scales(Kind::MXF4NVF4, ScaleVec::X4, SPMMA_UE4M3, s4.data(), 1, 256, 32, 128, 256, 1, o4.data());
    for (int i = 0; i < 4; ++i) {
        CHECK(o4[i] == s4[i]);
        CHECK(o4[512 + i] == s4[4 + i]);
    }
    CHECK(o4[16] == 0x38);  // row 1: ue4m3 1.0
}

TEST_CASE("sm100a pack: C as f32 / s32", "[sm100a][pack]") {
    const uint16_t h[3] = {0x3C00, 0xC000, 0x0001};  // 1, -2, 2^-24
    float f[3];
    pack_c(SPMMA_F16, h, 3, f);
    CHECK(f[0] == 1.0f);
    CHECK(f[1] == -2.0f);
    CHECK(f[2] == 0x1p-24f);
    const uint16_t bf[1] = {0x4049};
    pack_c(SPMMA_BF16, bf, 1, f);
    CHECK(f[0] == 3.140625f);
    CHECK_THROWS(pack_c(SPMMA_E4M3, bf, 1, f));
}

TEST_CASE("sm100a kinds: problems map to the kind and scale_vec that compute them", "[sm100a][pack]") {
    CHECK(kind_of(SPMMA_F16, SPMMA_F16, SPMMA_PATTERN_2_4, SPMMA_DTYPE_NONE) == Kind::F16);
    CHECK(kind_of(SPMMA_TF32, SPMMA_TF32, SPMMA_PATTERN_1_2, SPMMA_DTYPE_NONE) == Kind::TF32);
    CHECK(kind_of(SPMMA_E3M2, SPMMA_E2M1, SPMMA_PATTERN_2_4, SPMMA_DTYPE_NONE) == Kind::F8F6F4);
    CHECK(kind_of(SPMMA_U8, SPMMA_S8, SPMMA_PATTERN_2_4, SPMMA_DTYPE_NONE) == Kind::I8);
    CHECK(kind_of(SPMMA_E4M3, SPMMA_E4M3, SPMMA_PATTERN_2_4, SPMMA_UE8M0) == Kind::MXF8F6F4);
    CHECK(kind_of(SPMMA_E2M1, SPMMA_E2M1, SPMMA_PATTERN_4_8_PAIRWISE, SPMMA_UE4M3) == Kind::MXF4NVF4);
    CHECK_FALSE(kind_of(SPMMA_F16, SPMMA_BF16, SPMMA_PATTERN_2_4, SPMMA_DTYPE_NONE).has_value());
    CHECK_FALSE(kind_of(SPMMA_F16, SPMMA_F16, SPMMA_PATTERN_1_2, SPMMA_DTYPE_NONE).has_value());
    // The sparse shapes' scale blocks: 1X and 2X cover 64 k, 4X 32 k.
    CHECK(scale_block(Kind::MXF8F6F4, ScaleVec::X1) == 64);
    CHECK(scale_block(Kind::MXF4, ScaleVec::X2) == 64);
    CHECK(scale_block(Kind::MXF4NVF4, ScaleVec::X4) == 32);
    CHECK(scale_vec_for(Kind::MXF4NVF4, SPMMA_UE8M0, 32) == ScaleVec::X4);
    CHECK(scale_vec_for(Kind::MXF4NVF4, SPMMA_UE8M0, 64) == ScaleVec::X2);
    CHECK_FALSE(scale_vec_for(Kind::MXF4NVF4, SPMMA_UE4M3, 64).has_value());
    CHECK_FALSE(scale_vec_for(Kind::MXF8F6F4, SPMMA_UE8M0, 32).has_value());
    CHECK_FALSE(scale_vec_for(Kind::MXF4NVF4, SPMMA_UE4M3, 16).has_value());
}

TEST_CASE("sm100a target: only compute capability 10.0 runs the embedded sm_100a code", "[sm100a][pack]") {
    CHECK(device_reason(10, 0).empty());
    CHECK(device_reason(9, 0) == "built, needs sm_100a (B200/GB200); device is sm_90");
    CHECK(device_reason(10, 3) == "built, needs sm_100a (B200/GB200); device is sm_103");
    CHECK(device_reason(12, 0) == "built, needs sm_100a (B200/GB200); device is sm_120");
}

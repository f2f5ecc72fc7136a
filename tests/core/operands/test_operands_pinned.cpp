// The operands of a fixed problem and seed, pinned: a hash of every buffer and the first bytes
// of A's values and B, per type, distribution and scaling, as generated before the fused
// generator (2026-11-24). Any change to what a seed means fails here.
#include <spmma/core/operands.hpp>

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

using namespace spmma;

namespace {

struct Pin {
    const char *a, *b, *dist;
    double beta;
    const char* scale;
    int scale_block;
    const char* gen;
    uint64_t a_values, a_indices, b_hash, c_hash, scale_a, scale_b;
    const char *a_head, *b_head;
};

const Pin kPins[] = {
    {"f16", "f16", "uniform", 0.5, "", 0, "random", 0x8db5d3a7b56a2df7ull, 0xae91eb99f468742dull, 0x082ec4c2b9bf0990ull, 0x5f14e0cca4cfe378ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "fa3bde3aeebbb63b", "0231f538333a4ab8"},
    {"bf16", "bf16", "uniform", 0.5, "", 0, "random", 0xf2e3a8e28589857eull, 0x2c0161c73286641full, 0x9561c3928dbb0176ull, 0x7c9e253201850459ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "7f3f5c3f7ebf773f", "203e1f3f463f09bf"},
    {"tf32", "tf32", "uniform", 0.5, "", 0, "random", 0x3d469887d5ce9201ull, 0x4f3b29fd1e80f345ull, 0xef4ddc23fc5afa09ull, 0xe44f694d4a1dcdd7ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "00407f3f00c05b3f", "0040203e00a01e3f"},
    {"e4m3", "e4m3", "uniform", 0.5, "", 0, "random", 0x984bf3f692b2dc97ull, 0x79babb770c1bf1b5ull, 0x557df60e8200a1feull, 0x7c9e253201850459ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "3836b83736b136b4", "223234b13623a827"},
    {"e5m2", "e5m2", "uniform", 0.5, "", 0, "random", 0xbd5667d219ee2109ull, 0xde2f3b06a3b48b48ull, 0xc7ba52d88d978f27ull, 0x7c9e253201850459ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "3cbbbc3c3b393bba", "31393ab83b32b433"},
    {"e3m2", "e3m2", "uniform", 0.5, "", 0, "random", 0x605ca823f3360039ull, 0xde2f3b06a3b48b48ull, 0xc85958b4290c3356ull, 0x7c9e253201850459ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "1837381817151736", "0d151634170e300f"},
    {"e2m3", "e2m3", "uniform", 0.5, "", 0, "random", 0x2e31c4788665a9d8ull, 0x198358503361daddull, 0xdca2b7caa2e646daull, 0x7c9e253201850459ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "1816381716311634", "0512143116062807"},
    {"e2m1", "e2m1", "uniform", 0.5, "", 0, "random", 0xb2eb8a8b59da6cc2ull, 0x982cf3797efb8bedull, 0xad556e43a312cfa5ull, 0x7c9e253201850459ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "777f67e7e5ee65f6", "62d6273b78ed4d77"},
    {"s8", "s8", "uniform", 0.5, "", 0, "random", 0x4e37e2b6b10616e0ull, 0xc6b440ca4142a56eull, 0xbe54ec8fba2ceff8ull, 0x17325daf6de12fcbull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "7f6d817b714a73a2", "144f63bb7016e01d"},
    {"u8", "u8", "uniform", 0.5, "", 0, "random", 0x655caa6873511187ull, 0x4d48f44506a719b9ull, 0xd21cd91c3a25a7f8ull, 0x17325daf6de12fcbull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "ffedfbf2f1caf38b", "94cfe33bf096609d"},
    {"s4", "s4", "uniform", 0.5, "", 0, "random", 0x779be6e150a30898ull, 0x61a6a9e29b1200daull, 0x991c0c4ad9241306ull, 0x17325daf6de12fcbull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "9777b7a793ab6399", "41b6171e7f9c3b77"},
    {"u4", "u4", "uniform", 0.5, "", 0, "random", 0x5e2266a41d4728ccull, 0x22ebce6642d5d6d2ull, 0x911844feae5bd146ull, 0x17325daf6de12fcbull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "aeff3fcca81b8deb", "c93e9f96f714b3ff"},
    {"f16", "f16", "normal", 0, "", 0, "random", 0x987d655b7ed8d70dull, 0x7975bd832f7fac5dull, 0x80527ca24e75326dull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "f3c0863c53bcebba", "383ddb3daa373839"},
    {"bf16", "bf16", "normal", 0, "", 0, "random", 0x94eab515da2a9ae8ull, 0x5d8daa9b1b2b979cull, 0xdf090767f68ecc41ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "1ec0913f8abf5dbf", "a73fbb3ff53e273f"},
    {"tf32", "tf32", "normal", 0, "", 0, "random", 0xa3a39805222c1935ull, 0xedde5d977a6dd9aeull, 0xcb114f5d31afae31ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "00601ec000c0903f", "0000a73f0060bb3f"},
    {"e4m3", "e4m3", "normal", 0, "", 0, "random", 0x4d652719fd6a0bbaull, 0x2c8f6d96c4f1d849ull, 0xab86e9dcf7ad365eull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "c239b9b6b3beb837", "3a3c2f32c138373b"},
    {"e5m2", "e5m2", "normal", 0, "", 0, "random", 0xe5e9589f07b3c54eull, 0x358ec5489a01eab3ull, 0x81fbbe4f07ada8e5ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "c13dbcbbb9bfbc3c", "3d3e3839c03c3c3e"},
    {"e3m2", "e3m2", "normal", 0, "", 0, "random", 0xc58876e8033101a8ull, 0x358ec5489a01eab3ull, 0xad3ebde3442c661bull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "3d193837353b3818", "191a14153c18181a"},
    {"e2m3", "e2m3", "normal", 0, "", 0, "random", 0x5a4dd64292605726ull, 0x76e2a248f0fe372aull, 0xf3440b11d6ed3b46ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "3f193936333e3817", "1a1c0f123f18171b"},
    {"e2m1", "e2m1", "normal", 0, "", 0, "random", 0x02bc43ffad8eae39ull, 0x9ca506abc8c59c13ull, 0x39638c1c85781e59ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "7ffffe7f7df57ffc", "77657f77f7a27477"},
    {"s8", "s8", "normal", 0, "", 0, "random", 0x65a2267881b0f4ccull, 0x5110e14d2a33d061ull, 0xbc627a12166a2887ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "b124dee5ebcadf1f", "292e0f15bc1f1e2c"},
    {"u8", "u8", "normal", 0, "", 0, "random", 0x301a8051e7fb05b5ull, 0x5d5e2f83a9e033b3ull, 0xe27208f3686fab58ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "c88c7ab55a88a0bd", "d3dd9ea900bebcd8"},
    {"s4", "s4", "normal", 0, "", 0, "random", 0xb46de6cfcfdfa982ull, 0x493bc1a027885d72ull, 0xf68bce3e958a05b6ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "0c1ed02e3f0e22cf", "32112c22c2002144"},
    {"u4", "u4", "normal", 0, "", 0, "random", 0x1a9ce5040a63155full, 0x37f289e1e6db4e34ull, 0x712b3fb5c658b821ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "8cb499b4d679a4bc", "dca9b0db0c78c9ff"},
    {"f16", "f16", "int", 0, "", 0, "random", 0x4f0631faac8f3dadull, 0xfe45473d488bb756ull, 0x1a0ac93943ba1a7dull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "004200c200c20042", "003c0040004200c0"},
    {"bf16", "bf16", "int", 0, "", 0, "random", 0x85973092e954e7daull, 0xfe45473d488bb756ull, 0x0349170dbe7c95e2ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "404040c040c04040", "803f0040404000c0"},
    {"tf32", "tf32", "int", 0, "", 0, "random", 0x6acc95c4371c14aaull, 0x2b63daf542b02a36ull, 0x2e0eb15923b6d73aull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "0000404000004040", "0000803f00000040"},
    {"e4m3", "e4m3", "int", 0, "", 0, "random", 0x5c1adac41ed061dfull, 0xfe45473d488bb756ull, 0x4560de6ac5ee376full, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "44c4c44444c044c4", "384044c04438b838"},
    {"e5m2", "e5m2", "int", 0, "", 0, "random", 0x22bb7a15cdd35a05ull, 0xfe45473d488bb756ull, 0xbbc7719f8c559a7dull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "42c2c24242c042c2", "3c4042c0423cbc3c"},
    {"e3m2", "e3m2", "int", 0, "", 0, "random", 0x926e40eed7ae46f5ull, 0xfe45473d488bb756ull, 0x7f0f28af3d1ada2dull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "1232321212301232", "0c101230120c2c0c"},
    {"e2m3", "e2m3", "int", 0, "", 0, "random", 0xf38f3d8ae833082full, 0xfe45473d488bb756ull, 0x5d56564279c8c83full, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "1434341414301434", "0810143014082808"},
    {"e2m1", "e2m1", "int", 0, "", 0, "random", 0xc90102ec04abd668ull, 0xfe45473d488bb756ull, 0x202bfb87c09fbc72ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "d55dc5d5d4dc44d5", "42c5252a50da2c55"},
    {"s8", "s8", "int", 0, "", 0, "random", 0x09f0ab272c88976dull, 0xfe45473d488bb756ull, 0x648b61246794d975ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "03fdfd0303fe03fd", "010203fe0301ff01"},
    {"u8", "u8", "int", 0, "", 0, "random", 0x06cfc74e623d82c8ull, 0x002c58454bca4044ull, 0xefb592d76d0157daull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "0303030303030302", "0203030003020102"},
    {"s4", "s4", "int", 0, "", 0, "random", 0xcd64b5968b8a6689ull, 0x3cd26c675d3934b0ull, 0x43b44e7856d97309ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "d333e3d3d2ee32dd", "21e3131f30df1e33"},
    {"u4", "u4", "int", 0, "", 0, "random", 0x832e7a250e631fb8ull, 0x4a022e7ba3b6f21bull, 0xd4a907efc5f82c35ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "2333033322022332", "3203232131012033"},
    {"e4m3", "e5m2", "uniform", 0, "", 0, "random", 0x984bf3f692b2dc97ull, 0x79babb770c1bf1b5ull, 0xc7ba52d88d978f27ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "3836b83736b136b4", "31393ab83b32b433"},
    {"u8", "s8", "uniform", 1, "", 0, "random", 0x655caa6873511187ull, 0x4d48f44506a719b9ull, 0xbe54ec8fba2ceff8ull, 0x17325daf6de12fcbull, 0x14650fb0739d0383ull, 0x14650fb0739d0383ull, "ffedfbf2f1caf38b", "144f63bb7016e01d"},
    {"e2m1", "e2m1", "uniform", 0, "ue8m0", 32, "random", 0x38ca9aa704fad545ull, 0x4926061f3524c506ull, 0xad556e43a312cfa5ull, 0x14650fb0739d0383ull, 0xa875dec49fe6a28bull, 0x711f4322c1d66281ull, "e777d7e7e5ed65fe", "62d6273b78ed4d77"},
    {"e2m1", "e2m1", "normal", 0, "ue4m3", 16, "amax", 0x4456599fc225209aull, 0xb48994fed1b69bf0ull, 0x209d4c50a4f09d62ull, 0x14650fb0739d0383ull, 0x75a91843e6a187d5ull, 0x9b244413503d3018ull, "8f4ce14d6a9e56fa", "65335f65f5915277"},
    {"e4m3", "e4m3", "uniform", 0, "ue8m0", 32, "amax", 0xce05918159dc0c3full, 0xae91eb99f468742dull, 0xc0c3d9b24907721full, 0x14650fb0739d0383ull, 0x3ece48dae4a31af3ull, 0xdb37ee1d985fc773ull, "7e7efe7e7e797efc", "6a7a7cf97e6bf06f"},
    {"e2m1", "e2m1", "uniform", 0, "ue8m0", 64, "amax", 0x34e6dffd344de011ull, 0x4926061f3524c506ull, 0xc31315bd78cd3132ull, 0x14650fb0739d0383ull, 0x6c90f7a118757643ull, 0xaaafbdf353e81c43ull, "f777e7f7f6fe76ff", "63e7374c78fd5e77"},
};

uint64_t fnv(const std::vector<uint8_t>& v) {
    uint64_t h = 1469598103934665603ull;
    for (const uint8_t x : v) {
        h ^= x;
        h *= 1099511628211ull;
    }
    return h;
}

std::string head(const std::vector<uint8_t>& v) {
    std::string s;
    char b[4];
    for (size_t i = 0; i < 8 && i < v.size(); ++i) {
        std::snprintf(b, sizeof b, "%02x", v[i]);
        s += b;
    }
    return s;
}

}  // namespace

TEST_CASE("seed 1234 gives the pinned operands for every type, distribution and scaling", "[operands][pinned]") {
    for (const Pin& pin : kPins) {
        Problem p;
        p.m = 37;
        p.n = 29;
        p.k = 128;
        p.a = *parse_dtype(pin.a);
        p.b = *parse_dtype(pin.b);
        p.dist = *parse_distribution(pin.dist);
        p.beta = pin.beta;
        p.seed = 1234;
        if (pin.scale[0]) {
            p.scale = *parse_dtype(pin.scale);
            p.scale_block = pin.scale_block;
            p.scale_gen = *parse_scale_gen(pin.gen);
        }
        apply_default_types(p, false, false, false);
        const Operands o = generate_operands(p);
        INFO(p.label() << " " << pin.dist << " " << pin.gen);
        CHECK(fnv(o.a.values) == pin.a_values);
        CHECK(fnv(o.a.indices) == pin.a_indices);
        CHECK(fnv(o.b) == pin.b_hash);
        CHECK(fnv(o.c) == pin.c_hash);
        CHECK(fnv(o.scale_a) == pin.scale_a);
        CHECK(fnv(o.scale_b) == pin.scale_b);
        CHECK(head(o.a.values) == pin.a_head);
        CHECK(head(o.b) == pin.b_head);
    }
}

// Random mma.sp inputs whose result is exact in any summation order (see mma_sp.hpp).
#include <spmma/isa/mma_sp.hpp>

#include <cmath>
#include <random>
#include <stdexcept>

namespace spmma::isa {
namespace {

// NOTES: std::mt19937_64 is fully specified; the distributions of <random> are not, so the
// bounded draws are done here (modulo bias is irrelevant for test data).
struct Rng {
    std::mt19937_64 g;
    uint32_t bits() { return static_cast<uint32_t>(g() >> 32); }
    int in(int lo, int hi) { return lo + static_cast<int>(g() % static_cast<uint64_t>(hi - lo + 1)); }
};

// A code of t whose value is m * 2^e, |m| <= max_m, e in [emin, emax].
uint32_t code_of(DType t, Rng& r, int max_m, int emin, int emax) {
    for (;;) {
        const double v = std::ldexp(r.in(-max_m, max_m), r.in(emin, emax));
        const uint32_t c = encode(t, v);
        if (decode(t, c) == v) return c;
    }
}

}  // namespace

// NOTES: exactness budget (f32 has 24 bits, f16 11): f32 accumulators get A/B values m*2^e with
// |m| <= 7, e in [-2, 2] (products span 2^-4 .. 2^10, 32 kept terms at most: < 20 bits);
// block-scaled forms get integer A/B values and scales 2^-2 .. 2^2 (x1.5 for ue4m3): < 24 bits;
// f16 accumulators get integers |v| <= 3 and C |c| <= 64: sums stay below 2^9.
MmaSpWarp mma_sp_random_warp(const MmaSp& f, uint64_t seed) {
    if (auto why = invalid_reason(f)) throw std::invalid_argument("not an mma.sp form: " + *why);
    Rng r{std::mt19937_64(seed)};
    MmaSpWarp w{};
    for (int lane = 0; lane < 32; ++lane) {
        for (int i = 0; i < 4; ++i) {
            w.a[lane][i] = r.bits();
            w.b[lane][i] = r.bits();
            w.c[lane][i] = r.bits();
        }
        w.e[lane] = r.bits();
        w.scale_a[lane] = r.bits();
        w.scale_b[lane] = r.bits();
    }
    w.selector = r.in(0, selector_count(f) - 1);

    const bool f16_acc = f.d == DType::F16;
    const bool block = is_block_scaled(f);
    auto element = [&](DType t) -> uint32_t {
        if (is_integer(t)) return r.bits() & ((1u << info(t).bits) - 1);
        uint32_t code;
        if (f16_acc) code = code_of(t, r, 3, 0, 0);
        else if (block) code = code_of(t, r, 7, 0, 0);
        else code = code_of(t, r, 7, -2, 2);
        if (f.kind == MmaSp::Kind::F8F6F4 || f.kind == MmaSp::Kind::MXF8F6F4) return to_f8f6f4_container(t, code);
        return code;  // tf32: f32 bits with the low 13 zero
    };
    auto fill = [&](std::array<std::array<uint32_t, 4>, 32>& regs, int count, DType t) {
        const int per = elements_per_register(t, f.kind), bits = 32 / per;
        for (auto& lane : regs)
            for (int i = 0; i < count; ++i) {
                uint32_t v = 0;
                for (int e = 0; e < per; ++e) v |= (bits == 32 ? element(t) : element(t) & ((1u << bits) - 1)) << (e * bits);
                lane[i] = v;
            }
    };
    fill(w.a, a_registers(f), f.a);
    fill(w.b, b_registers(f), f.b);
    for (auto& lane : w.c)
        for (int i = 0; i < c_registers(f); ++i) {
            if (f.c == DType::S32) lane[i] = static_cast<uint32_t>(r.in(-(1 << 30), 1 << 30));
            else if (f.c == DType::F32) lane[i] = encode(DType::F32, std::ldexp(r.in(-7, 7), r.in(-2, 2)));
            else lane[i] = encode(DType::F16, r.in(-64, 64)) | (encode(DType::F16, r.in(-64, 64)) << 16);
        }

    // metadata: valid nibbles where the instruction reads them, garbage elsewhere
    const int chunks = f.k / chunk_width(f);
    for (int row = 0; row < 16; ++row)
        for (int chunk = 0; chunk < chunks; ++chunk) {
            uint32_t nib;
            if (f.a == DType::TF32) {
                nib = r.in(0, 1) ? 0b1110 : 0b0100;
            } else {
                int i0 = r.in(0, 3), i1;
                do i1 = r.in(0, 3); while (i1 == i0);
                if (f.ordered_metadata && i0 > i1) std::swap(i0, i1);
                nib = static_cast<uint32_t>(i0 | (i1 << 2));
            }
            const MetaPos p = metadata_position(f, w.selector, row, chunk);
            w.e[p.lane] = (w.e[p.lane] & ~(0xfu << (4 * p.nibble))) | (nib << (4 * p.nibble));
        }

    if (block) {
        w.thread_id_a = static_cast<uint16_t>(r.in(0, 1));
        w.thread_id_b = static_cast<uint16_t>(r.in(0, 3));
        auto byte_id = [&] { return static_cast<uint16_t>(f.scale_vec == 1 ? r.in(0, 3) : f.scale_vec == 2 ? 2 * r.in(0, 1) : 0); };
        w.byte_id_a = byte_id();
        w.byte_id_b = byte_id();
        auto scale = [&]() -> uint32_t {
            if (f.scale_type == DType::UE8M0) return static_cast<uint32_t>(127 + r.in(-2, 2));
            return encode(DType::UE4M3, std::ldexp(r.in(0, 1) ? 1.5 : 1.0, r.in(-2, 2)));
        };
        for (int j = 0; j < f.scale_vec; ++j) {
            for (int m = 0; m < 16; ++m) {
                const ScalePos p = scale_a_position(f, w, m, j);
                w.scale_a[p.lane] = (w.scale_a[p.lane] & ~(0xffu << (8 * p.byte))) | (scale() << (8 * p.byte));
            }
            for (int n = 0; n < 8; ++n) {
                const ScalePos p = scale_b_position(f, w, n, j);
                w.scale_b[p.lane] = (w.scale_b[p.lane] & ~(0xffu << (8 * p.byte))) | (scale() << (8 * p.byte));
            }
        }
    }
    return w;
}

}  // namespace spmma::isa

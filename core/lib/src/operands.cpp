#include <spmma/core/operands.hpp>

#include <algorithm>
#include <cmath>

namespace spmma {
namespace {

enum Stream : uint64_t { kStreamA = 1, kStreamB = 2, kStreamC = 3, kStreamScaleA = 4, kStreamScaleB = 5 };

uint64_t mix(uint64_t x) {  // splitmix64 finalizer
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t bits(uint64_t seed, uint64_t stream, uint64_t index, uint64_t draw) {
    return mix(mix(mix(seed) ^ (stream * 0x632be59bd9b4e019ull)) ^ (index * 4 + draw));
}

double unit(uint64_t b) { return static_cast<double>(b >> 11) * 0x1p-53; }  // [0, 1)

// Half-width of the uniform range for a float type: +-1 for wide types, wider for the 6/4-bit
// ones so their few code points are all used.
double float_range(DType t) {
    if (info(t).cls != TypeClass::Float) return 1.0;
    switch (t) {
        case DType::E2M1: return 6.0;
        case DType::E2M3: return 4.0;
        case DType::E3M2: return 8.0;
        default: return 1.0;
    }
}

void fill(Distribution d, DType t, uint64_t seed, uint64_t stream, std::vector<uint8_t>& buf, int64_t count) {
    buf.assign(storage_bytes(t, count), 0);
    const bool packed = info(t).storage_bits == 4;
    // NOTES: 4-bit elements share bytes; each thread writes whole bytes (element pairs).
    const int64_t step = packed ? 2 : 1;
#pragma omp parallel for schedule(static)
    for (int64_t i0 = 0; i0 < count; i0 += step)
        for (int64_t i = i0; i < std::min(count, i0 + step); ++i)
            store_code(t, buf.data(), i, encode(t, draw(d, t, seed, stream, static_cast<uint64_t>(i))));
}

}  // namespace

double draw(Distribution d, DType t, uint64_t seed, uint64_t stream, uint64_t index) {
    const TypeInfo& ti = info(t);
    const double u = unit(bits(seed, stream, index, 0));
    if (d == Distribution::Int) {
        // Small integers: exact in every operand type and in every accumulator.
        const int lo = ti.is_signed ? -3 : 0;
        return lo + static_cast<int>(u * (4 - lo));
    }
    double x;
    if (d == Distribution::Uniform) {
        x = 2.0 * u - 1.0;  // [-1, 1)
    } else {
        const double u2 = unit(bits(seed, stream, index, 1));
        x = std::sqrt(-2.0 * std::log1p(-u)) * std::cos(6.283185307179586 * u2);  // N(0, 1)
    }
    if (ti.cls == TypeClass::Integer) {
        if (t == DType::S32) return std::nearbyint(x * 65536.0);
        const double lo = ti.is_signed ? -(ti.max_finite + 1) : 0.0;
        if (d == Distribution::Uniform) return std::floor(lo + u * (ti.max_finite - lo + 1));
        return std::clamp(std::nearbyint(x * ti.max_finite / 4.0 + (ti.is_signed ? 0 : ti.max_finite / 2)), lo, ti.max_finite);
    }
    return x * float_range(t);
}

spmma_operands Operands::view() const {
    spmma_operands o{};
    o.struct_size = sizeof o;
    o.a_values = a.values.data();
    o.a_values_bytes = a.values.size();
    o.a_indices = a.indices.data();
    o.a_indices_bytes = a.indices.size();
    o.b = b.data();
    o.b_bytes = b.size();
    o.c = c.empty() ? nullptr : c.data();
    o.c_bytes = c.size();
    o.scale_a = scale_a.empty() ? nullptr : scale_a.data();
    o.scale_a_bytes = scale_a.size();
    o.scale_b = scale_b.empty() ? nullptr : scale_b.data();
    o.scale_b_bytes = scale_b.size();
    return o;
}

namespace {

double random_scale(const Problem& p, uint64_t stream, uint64_t index) {
    const double u = unit(bits(p.seed, stream, index, 0));
    return std::exp2(std::log2(p.scale_min) + u * (std::log2(p.scale_max) - std::log2(p.scale_min)));
}

uint32_t amax_scale(const Problem& p, DType element, double amax) {
    if (!(amax > 0)) return encode(p.scale, 1.0);
    if (p.scale == DType::UE8M0) {
        // OCP MX: the shared exponent puts amax in the element type's top binade.
        const int emax = static_cast<int>(std::floor(std::log2(info(element).max_finite)));
        return encode(DType::UE8M0, std::ldexp(1.0, static_cast<int>(std::floor(std::log2(amax))) - emax));
    }
    // NVFP4: amax maps to the element type's largest value; never a zero scale.
    const uint32_t c = encode(p.scale, amax / info(element).max_finite);
    return decode(p.scale, c) > 0 ? c : 1u;
}

// Scaled operands from real values: draw, prune A, take each block's amax (or a random scale),
// quantize each element by its block's scale.
void generate_scaled(const Problem& p, Operands& o) {
    const int64_t blocks = p.k / p.scale_block;
    const bool amax = p.scale_gen == ScaleGen::Amax;
    // Real values (as f32) of A, pruned, and of B (column-major, so a column's k runs are contiguous).
    std::vector<uint8_t> real_a, real_b;
    fill(p.dist, DType::F32, p.seed, kStreamA, real_a, p.m * p.k);
    prune_by_magnitude(DType::F32, p.pattern, real_a.data(), p.m, p.k);
    fill(p.dist, DType::F32, p.seed, kStreamB, real_b, p.k * p.n);
    auto quantize = [&](const std::vector<uint8_t>& real, int64_t rows, DType t, uint64_t stream, std::vector<uint8_t>& scales,
                        std::vector<uint8_t>& out) {
        scales.assign(static_cast<size_t>(rows * blocks), 0);
        out.assign(storage_bytes(t, rows * p.k), 0);
        // NOTES: blocks are 16 or 32 elements, so 4-bit elements of different rows never share a byte.
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t b = 0; b < blocks; ++b) {
                const int64_t base = r * p.k + b * p.scale_block;
                double mx = 0;
                for (int64_t e = 0; e < p.scale_block; ++e) mx = std::max(mx, std::fabs(decode(DType::F32, load_code(DType::F32, real.data(), base + e))));
                const uint32_t sc = amax ? amax_scale(p, t, mx) : encode(p.scale, random_scale(p, stream, static_cast<uint64_t>(r * blocks + b)));
                scales[static_cast<size_t>(r * blocks + b)] = static_cast<uint8_t>(sc);
                const double s = decode(p.scale, sc);
                for (int64_t e = 0; e < p.scale_block; ++e) {
                    const double x = decode(DType::F32, load_code(DType::F32, real.data(), base + e));
                    // Random scales scale the drawn element values; amax scales quantize real values.
                    const double v = amax ? x / s : x * float_range(t);
                    store_code(t, out.data(), base + e, encode(t, v));
                }
            }
    };
    std::vector<uint8_t> dense_a;
    quantize(real_a, p.m, p.a, kStreamScaleA, o.scale_a, dense_a);
    // Quantization can only zero elements, so A still fits its pattern.
    o.a = compress(p.a, p.pattern, dense_a.data(), p.m, p.k);
    quantize(real_b, p.n, p.b, kStreamScaleB, o.scale_b, o.b);
}

}  // namespace

Operands generate_operands(const Problem& p) {
    Operands o;
    if (p.scale != DType::None) {
        generate_scaled(p, o);
    } else {
        std::vector<uint8_t> dense;
        fill(p.dist, p.a, p.seed, kStreamA, dense, p.m * p.k);
        prune_by_magnitude(p.a, p.pattern, dense.data(), p.m, p.k);
        o.a = compress(p.a, p.pattern, dense.data(), p.m, p.k);
        dense = {};
        fill(p.dist, p.b, p.seed, kStreamB, o.b, p.k * p.n);
    }
    if (p.beta != 0.0) fill(p.dist, p.c, p.seed, kStreamC, o.c, p.m * p.n);
    return o;
}

}  // namespace spmma

#include <spmma/core/operands.hpp>

#include "draw_batch.hpp"
#include "drawer.hpp"

#include <spmma/fast_encode.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace spmma {

using detail::BatchDrawer;
using detail::Drawer;
using detail::float_range;
using detail::kStreamA;
using detail::kStreamB;
using detail::kStreamC;
using detail::kStreamScaleA;
using detail::kStreamScaleB;
using detail::kStreamBias;
using detail::kStreamColScale;
using detail::kStreamRowScale;
using detail::unit;

double draw(Distribution d, DType t, uint64_t seed, uint64_t stream, uint64_t index) { return Drawer(d, t, seed, stream)(index); }

const char* operand_generator_isa() { return detail::isa_name(detail::usable_isas().back()); }

OperandSizes OperandSizes::of(const Problem& p) {
    OperandSizes s;
    s.a_values = storage_bytes(p.a, p.m * (p.k / 2));
    s.a_indices = static_cast<size_t>(p.m * (p.k / group_size(p.pattern)));
    s.b = storage_bytes(p.b, p.k * p.n);
    if (p.beta != 0.0) s.c = storage_bytes(p.c, p.m * p.n);
    if (p.scale != DType::None) {
        s.scale_a = static_cast<size_t>(p.m * (p.k / p.scale_block));
        s.scale_b = static_cast<size_t>(p.n * (p.k / p.scale_block));
    }
    if (p.row_scale.present()) s.row_scale = static_cast<size_t>(p.m) * sizeof(float);
    if (p.col_scale.present()) s.col_scale = static_cast<size_t>(p.n) * sizeof(float);
    if (p.bias.present()) s.bias = storage_bytes(p.bias_type, p.bias_axis == BiasAxis::Row ? p.m : p.n);
    return s;
}

float draw_epilogue_scale(uint64_t seed, uint64_t stream, uint64_t index) {
    const double u = unit(Drawer(Distribution::Uniform, DType::F32, seed, stream).bits(index));
    return static_cast<float>(std::exp2(4 * u - 2));
}

namespace {

// The epilogue's vectors of a view (plugin.h 1.2 fields), null where empty.
struct EpilogueSpans {
    const uint8_t *row_scale = nullptr, *col_scale = nullptr, *bias = nullptr;
    size_t row_scale_bytes = 0, col_scale_bytes = 0, bias_bytes = 0;
};

spmma_operands make_view(const uint8_t* av, size_t avb, const uint8_t* ai, size_t aib, const uint8_t* b, size_t bb, const uint8_t* c,
                         size_t cb, const uint8_t* sa, size_t sab, const uint8_t* sb, size_t sbb, const EpilogueSpans& e) {
    spmma_operands o{};
    o.struct_size = sizeof o;
    o.a_values = av;
    o.a_values_bytes = avb;
    o.a_indices = ai;
    o.a_indices_bytes = aib;
    o.b = b;
    o.b_bytes = bb;
    o.c = cb ? c : nullptr;
    o.c_bytes = cb;
    o.scale_a = sab ? sa : nullptr;
    o.scale_a_bytes = sab;
    o.scale_b = sbb ? sb : nullptr;
    o.scale_b_bytes = sbb;
    o.row_scale = e.row_scale_bytes ? reinterpret_cast<const float*>(e.row_scale) : nullptr;
    o.row_scale_bytes = e.row_scale_bytes;
    o.col_scale = e.col_scale_bytes ? reinterpret_cast<const float*>(e.col_scale) : nullptr;
    o.col_scale_bytes = e.col_scale_bytes;
    o.bias = e.bias_bytes ? e.bias : nullptr;
    o.bias_bytes = e.bias_bytes;
    return o;
}

// The epilogue's vectors: drawn from the seed (scales log-uniform, the bias from the problem's
// distribution in its type) or one given value everywhere.
void generate_epilogue(const Problem& p, const OperandBuffers& out) {
    auto scales = [&](const EpilogueVector& v, uint64_t stream, int64_t count, uint8_t* dst) {
        for (int64_t x = 0; x < count; ++x) {
            const float f = v.source == EpilogueVector::Source::Given ? static_cast<float>(v.value)
                                                                       : draw_epilogue_scale(p.seed, stream, static_cast<uint64_t>(x));
            std::memcpy(dst + 4 * x, &f, 4);
        }
    };
    if (p.row_scale.present()) scales(p.row_scale, kStreamRowScale, p.m, out.row_scale);
    if (p.col_scale.present()) scales(p.col_scale, kStreamColScale, p.n, out.col_scale);
    if (p.bias.present()) {
        const int64_t count = p.bias_axis == BiasAxis::Row ? p.m : p.n;
        const Drawer d(p.dist, p.bias_type, p.seed, kStreamBias);
        for (int64_t x = 0; x < count; ++x) {
            const double v = p.bias.source == EpilogueVector::Source::Given ? p.bias.value : d(static_cast<uint64_t>(x));
            store_code(p.bias_type, out.bias, x, encode(p.bias_type, v));
        }
    }
}

// Code x of a canonical buffer of `Bits`-bit elements (8, 16 or 32; 4-bit ones go in pairs).
template <int Bits>
inline void put(uint8_t* buf, int64_t x, uint32_t code) {
    if constexpr (Bits == 8) buf[x] = static_cast<uint8_t>(code);
    else if constexpr (Bits == 16) { const auto v = static_cast<uint16_t>(code); std::memcpy(buf + 2 * x, &v, 2); }
    else std::memcpy(buf + 4 * x, &code, 4);
}

template <Distribution D>
using DistC = std::integral_constant<Distribution, D>;
template <EncodeKind K>
using KindC = std::integral_constant<EncodeKind, K>;

// An encoding fixed at compile time: a kind (KindC) or a minifloat format (MiniC; Tf32 spreads
// the code into f32 bits).
template <class Format, bool Tf32>
struct MiniC {};

template <EncodeKind K>
[[gnu::always_inline]] inline uint32_t encode_with(const FastEncoder& e, KindC<K>, double v) {
    return e.encode_as<K>(v);
}
template <class Format, bool Tf32>
[[gnu::always_inline]] inline uint32_t encode_with(const FastEncoder& e, MiniC<Format, Tf32>, double v) {
    return e.encode_mini<Format, Tf32>(v);
}

// Calls body(DistC<d>, encoding, BitsC<bits>) with all three as compile-time constants, so each
// generation loop is compiled for one distribution, one encoding (the minifloat formats each
// with their own constants) and one element width.
template <class Body>
void dispatch(Distribution d, const FastEncoder& enc, int bits, Body&& body) {
    using B4 = std::integral_constant<int, 4>;
    using B8 = std::integral_constant<int, 8>;
    using B16 = std::integral_constant<int, 16>;
    using B32 = std::integral_constant<int, 32>;
    auto with_encoding = [&](auto dc) {
        switch (enc.kind()) {
            case EncodeKind::Mini: {
                const int m = enc.man_bits(), e = enc.emin();
                if (m == 10 && e == -14 && bits == 16) return body(dc, MiniC<MiniFormat<10, -14>, false>{}, B16{});  // f16
                if (m == 7 && e == -126 && bits == 16) return body(dc, MiniC<MiniFormat<7, -126>, false>{}, B16{});  // bf16
                if (m == 3 && e == -6 && bits == 8) return body(dc, MiniC<MiniFormat<3, -6>, false>{}, B8{});       // e4m3, ue4m3
                if (m == 2 && e == -14 && bits == 8) return body(dc, MiniC<MiniFormat<2, -14>, false>{}, B8{});     // e5m2
                if (m == 2 && e == -2 && bits == 8) return body(dc, MiniC<MiniFormat<2, -2>, false>{}, B8{});       // e3m2
                if (m == 3 && e == 0 && bits == 8) return body(dc, MiniC<MiniFormat<3, 0>, false>{}, B8{});         // e2m3
                if (m == 1 && e == 0 && bits == 4) return body(dc, MiniC<MiniFormat<1, 0>, false>{}, B4{});         // e2m1
                if (bits == 4) return body(dc, KindC<EncodeKind::Mini>{}, B4{});
                if (bits == 8) return body(dc, KindC<EncodeKind::Mini>{}, B8{});
                return body(dc, KindC<EncodeKind::Mini>{}, B16{});
            }
            case EncodeKind::Int:
                if (bits == 4) return body(dc, KindC<EncodeKind::Int>{}, B4{});
                if (bits == 8) return body(dc, KindC<EncodeKind::Int>{}, B8{});
                return body(dc, KindC<EncodeKind::Int>{}, B32{});
            case EncodeKind::F32: return body(dc, KindC<EncodeKind::F32>{}, B32{});
            case EncodeKind::Tf32: return body(dc, MiniC<MiniFormat<10, -126>, true>{}, B32{});
            case EncodeKind::Other: return body(dc, KindC<EncodeKind::Other>{}, B8{});
        }
    };
    switch (d) {
        case Distribution::Uniform: return with_encoding(DistC<Distribution::Uniform>{});
        case Distribution::Int: return with_encoding(DistC<Distribution::Int>{});
        case Distribution::Normal: return with_encoding(DistC<Distribution::Normal>{});
    }
}

// Elements drawn and encoded per step: a multiple of every group (8) and of a byte's two nibbles.
constexpr int64_t kChunk = 1024;

// Codes of elements [first, first + n): eight at a time where the batch drawer covers the
// distribution and encoding (draw_batch.hpp), one at a time otherwise.
template <Distribution D, class Enc>
void draw_codes(const std::optional<BatchDrawer>& batch, const Drawer& draw, const FastEncoder& enc, int64_t first, int64_t n, uint32_t* out) {
    if (batch) return batch->codes(static_cast<uint64_t>(first), n, out);
    for (int64_t i = 0; i < n; ++i) out[i] = encode_with(enc, Enc{}, draw.value<D>(static_cast<uint64_t>(first + i)));
}

// NOTES: the generator and encoder are copied into each thread's frame so the loop keeps their
// fields in registers (reached through the shared pointers OpenMP passes, every store to buf
// would make the compiler load them again).
template <Distribution D, class Enc, int Bits>
void fill_elements(const Drawer& draw, const FastEncoder& enc, uint8_t* buf, int64_t count) {
    const int64_t chunks = (count + kChunk - 1) / kChunk;
#pragma omp parallel
    {
        const Drawer d = draw;
        const FastEncoder e = enc;
        const auto batch = BatchDrawer::of(d, e);
        uint32_t codes[kChunk];
#pragma omp for schedule(static)
        for (int64_t c = 0; c < chunks; ++c) {
            const int64_t first = c * kChunk, len = std::min(kChunk, count - first);
            draw_codes<D, Enc>(batch, d, e, first, len, codes);
            if constexpr (Bits == 4) {
                // NOTES: 4-bit elements share bytes; a chunk starts on an even element, so each
                // thread writes whole bytes (element pairs).
                for (int64_t x = 0; x < (len + 1) / 2; ++x) {
                    const uint32_t hi = 2 * x + 1 < len ? codes[2 * x + 1] : 0u;
                    buf[first / 2 + x] = static_cast<uint8_t>((codes[2 * x] & 0xf) | ((hi & 0xf) << 4));
                }
            } else {
                for (int64_t i = 0; i < len; ++i) put<Bits>(buf, first + i, codes[i]);
            }
        }
    }
}

// Elements [0, count) of stream `stream` in type t into buf (count elements' storage).
void fill(Distribution dist, DType t, uint64_t seed, uint64_t stream, uint8_t* buf, int64_t count) {
    const Drawer draw(dist, t, seed, stream);
    const FastEncoder enc(t);
    dispatch(dist, enc, info(t).storage_bits,
             [&](auto d, auto k, auto bits) { fill_elements<d.value, decltype(k), bits.value>(draw, enc, buf, count); });
}

void fill(Distribution d, DType t, uint64_t seed, uint64_t stream, std::vector<uint8_t>& buf, int64_t count) {
    buf.assign(storage_bytes(t, count), 0);
    fill(d, t, seed, stream, buf.data(), count);
}

// A group's shape: elements, elements per unit (pairs for 4:8), units, units kept.
struct GroupShape {
    int group, unit, units, keep;
};
constexpr GroupShape kShape24{4, 1, 4, 2}, kShape12{2, 1, 2, 1}, kShape48{8, 2, 4, 2};

// The units compress keeps for each mask of non-zero units (at most `keep` set after pruning):
// the non-zero ones in order, then the lowest zero ones, increasing (sparsity.cpp's compress).
class PickTable {
public:
    explicit PickTable(const GroupShape& s) {
        for (unsigned mask = 0; mask < 16; ++mask) {
            int* pick = table_[mask];
            int n = 0;
            for (int u = 0; u < s.units && n < s.keep; ++u)
                if (mask >> u & 1) pick[n++] = u;
            for (int u = 0; u < s.units && n < s.keep; ++u)
                if (!(mask >> u & 1) && std::find(pick, pick + n, u) == pick + n) pick[n++] = u;
            if (s.keep == 2 && pick[0] > pick[1]) std::swap(pick[0], pick[1]);
        }
    }
    const int* of(unsigned nz_mask) const { return table_[nz_mask]; }

private:
    int table_[16][2] = {};
};

// Compressed A straight from the generator: each group is drawn, pruned by magnitude and
// compressed in registers, with the same outcome as fill + prune_by_magnitude + compress
// (sparsity.hpp) on the dense matrix, which tests/core/operands checks.
template <Distribution D, class Enc, int Bits, const GroupShape& s>
void generate_a_rows(const Problem& p, const Drawer& draw_in, const FastEncoder& enc_in, uint8_t* values, uint8_t* indices) {
    const DType t = p.a;
    const int64_t groups = p.k / s.group, kept_per_row = p.k / 2;
    const float* table = Bits <= 16 ? decode_table(t).data() : nullptr;
    const PickTable picks(s);
    const uint32_t tf32_mask = t == DType::TF32 ? ~0x1fffu : ~0u;
    auto value = [&](uint32_t code) -> double {
        if constexpr (Bits <= 16) return table[code];
        float f;
        const uint32_t u = code & tf32_mask;
        std::memcpy(&f, &u, 4);
        return f;
    };
    static_assert(kChunk % 8 == 0, "a chunk holds whole groups of every pattern");
#pragma omp parallel
    {
        const Drawer draw = draw_in;  // see fill_elements
        const FastEncoder enc = enc_in;
        const auto batch = BatchDrawer::of(draw, enc);
        uint32_t drawn[kChunk];
#pragma omp for schedule(static)
        for (int64_t i = 0; i < p.m; ++i) {
            for (int64_t g = 0; g < groups; ++g) {
                const int64_t base = i * p.k + g * s.group, in_chunk = (g * s.group) % kChunk;
                if (in_chunk == 0) draw_codes<D, Enc>(batch, draw, enc, base, std::min(kChunk, p.k - g * s.group), drawn);
                uint32_t code[8];
                for (int e = 0; e < s.group; ++e) code[e] = drawn[in_chunk + e];
                // Prune: keep the `keep` units of largest magnitude (NaN counts as infinite), ties
                // to the lower column: unit u stays when fewer than `keep` units rank before it.
                double mag[4];
                for (int u = 0; u < s.units; ++u) {
                    mag[u] = 0;
                    for (int e = 0; e < s.unit; ++e) {
                        const double v = std::fabs(value(code[u * s.unit + e]));
                        mag[u] += std::isnan(v) ? INFINITY : v;
                    }
                }
                unsigned nz_mask = 0;
                for (int u = 0; u < s.units; ++u) {
                    int rank = 0;
                    for (int v = 0; v < s.units; ++v) rank += (mag[v] > mag[u]) | ((mag[v] == mag[u]) & (v < u));
                    bool nz = false;
                    for (int e = 0; e < s.unit; ++e) {
                        uint32_t& c = code[u * s.unit + e];
                        c = rank < s.keep ? c : 0u;
                        nz = nz || value(c) != 0.0;
                    }
                    nz_mask |= static_cast<unsigned>(nz) << u;
                }
                // Compress: the non-zero units in order, then the lowest zero units, increasing.
                const int* pick = picks.of(nz_mask);
                indices[i * groups + g] = static_cast<uint8_t>(s.keep == 1 ? pick[0] : (pick[0] | (pick[1] << 2)));
                const int64_t dst = i * kept_per_row + g * (s.group / 2);
                uint32_t kept[4];
                int c = 0;
                for (int r = 0; r < s.keep; ++r)
                    for (int e = 0; e < s.unit; ++e) kept[c++] = code[pick[r] * s.unit + e];
                if constexpr (Bits == 4) {
                    // NOTES: a group keeps 2 or 4 nibbles and starts on an even element (k/2 is
                    // even for every 4-bit pattern): whole bytes.
                    for (int x = 0; x < c; x += 2) values[(dst + x) / 2] = static_cast<uint8_t>((kept[x] & 0xf) | ((kept[x + 1] & 0xf) << 4));
                } else {
                    for (int x = 0; x < c; ++x) put<Bits>(values, dst + x, kept[x]);
                }
            }
        }
    }
}

void generate_a(const Problem& p, uint8_t* values, uint8_t* indices) {
    const Drawer draw(p.dist, p.a, p.seed, kStreamA);
    const FastEncoder enc(p.a);
    dispatch(p.dist, enc, info(p.a).storage_bits, [&](auto d, auto k, auto bits) {
        using K = decltype(k);
        switch (p.pattern) {
            case Pattern::P2_4: return generate_a_rows<d.value, K, bits.value, kShape24>(p, draw, enc, values, indices);
            case Pattern::P1_2: return generate_a_rows<d.value, K, bits.value, kShape12>(p, draw, enc, values, indices);
            case Pattern::P4_8: return generate_a_rows<d.value, K, bits.value, kShape48>(p, draw, enc, values, indices);
            default: throw std::invalid_argument("no sparsity pattern");
        }
    });
}

double random_scale(const Problem& p, uint64_t stream, uint64_t index) {
    const double u = unit(Drawer(p.dist, DType::F32, p.seed, stream).bits(index));
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
void generate_scaled(const Problem& p, const OperandBuffers& out) {
    const int64_t blocks = p.k / p.scale_block;
    const bool amax = p.scale_gen == ScaleGen::Amax;
    // Real values (as f32) of A, pruned, and of B (column-major, so a column's k runs are contiguous).
    std::vector<uint8_t> real_a, real_b;
    fill(p.dist, DType::F32, p.seed, kStreamA, real_a, p.m * p.k);
    prune_by_magnitude(DType::F32, p.pattern, real_a.data(), p.m, p.k);
    fill(p.dist, DType::F32, p.seed, kStreamB, real_b, p.k * p.n);
    auto quantize = [&](const std::vector<uint8_t>& real, int64_t rows, DType t, uint64_t stream, uint8_t* scales, uint8_t* dst) {
        // NOTES: blocks are 16 or more elements, so 4-bit elements of different rows never share a byte.
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t b = 0; b < blocks; ++b) {
                const int64_t base = r * p.k + b * p.scale_block;
                double mx = 0;
                for (int64_t e = 0; e < p.scale_block; ++e) mx = std::max(mx, std::fabs(decode(DType::F32, load_code(DType::F32, real.data(), base + e))));
                const uint32_t sc = amax ? amax_scale(p, t, mx) : encode(p.scale, random_scale(p, stream, static_cast<uint64_t>(r * blocks + b)));
                scales[r * blocks + b] = static_cast<uint8_t>(sc);
                const double s = decode(p.scale, sc);
                for (int64_t e = 0; e < p.scale_block; ++e) {
                    const double x = decode(DType::F32, load_code(DType::F32, real.data(), base + e));
                    // Random scales scale the drawn element values; amax scales quantize real values.
                    const double v = amax ? x / s : x * float_range(t);
                    store_code(t, dst, base + e, encode(t, v));
                }
            }
    };
    std::vector<uint8_t> dense_a(storage_bytes(p.a, p.m * p.k), 0);
    quantize(real_a, p.m, p.a, kStreamScaleA, out.scale_a, dense_a.data());
    // Quantization can only zero elements, so A still fits its pattern.
    const CompressedA a = compress(p.a, p.pattern, dense_a.data(), p.m, p.k);
    std::memcpy(out.a_values, a.values.data(), a.values.size());
    std::memcpy(out.a_indices, a.indices.data(), a.indices.size());
    quantize(real_b, p.n, p.b, kStreamScaleB, out.scale_b, out.b);
}

}  // namespace

spmma_operands OperandBuffers::view() const {
    return make_view(a_values, sizes.a_values, a_indices, sizes.a_indices, b, sizes.b, c, sizes.c, scale_a, sizes.scale_a, scale_b,
                     sizes.scale_b, {row_scale, col_scale, bias, sizes.row_scale, sizes.col_scale, sizes.bias});
}

spmma_operands Operands::view() const {
    return make_view(a.values.data(), a.values.size(), a.indices.data(), a.indices.size(), b.data(), b.size(), c.data(), c.size(),
                     scale_a.data(), scale_a.size(), scale_b.data(), scale_b.size(),
                     {row_scale.data(), col_scale.data(), bias.data(), row_scale.size(), col_scale.size(), bias.size()});
}

void generate_operands(const Problem& p, const OperandBuffers& out) {
    if (p.scale != DType::None) {
        generate_scaled(p, out);
    } else {
        generate_a(p, out.a_values, out.a_indices);
        fill(p.dist, p.b, p.seed, kStreamB, out.b, p.k * p.n);
    }
    if (p.beta != 0.0) fill(p.dist, p.c, p.seed, kStreamC, out.c, p.m * p.n);
    generate_epilogue(p, out);
}

Operands generate_operands(const Problem& p) {
    const OperandSizes s = OperandSizes::of(p);
    Operands o;
    o.a.values.assign(s.a_values, 0);
    o.a.indices.assign(s.a_indices, 0);
    o.b.assign(s.b, 0);
    o.c.assign(s.c, 0);
    o.scale_a.assign(s.scale_a, 0);
    o.scale_b.assign(s.scale_b, 0);
    o.row_scale.assign(s.row_scale, 0);
    o.col_scale.assign(s.col_scale, 0);
    o.bias.assign(s.bias, 0);
    OperandBuffers buf{o.a.values.data(), o.a.indices.data(), o.b.data(), o.c.data(), o.scale_a.data(), o.scale_b.data(),
                       o.row_scale.data(), o.col_scale.data(), o.bias.data(), s};
    generate_operands(p, buf);
    return o;
}

}  // namespace spmma

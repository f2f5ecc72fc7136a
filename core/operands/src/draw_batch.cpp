#include "draw_batch.hpp"

#include <cstring>

// NOTES: this file is built with -ffp-contract=off (core/CMakeLists.txt): a fused multiply-add
// in an AVX2 or AVX-512 build would round differently from the scalar path.

namespace spmma::detail {
namespace {

// Vectors of N 64-bit lanes: N = 8 for AVX-512, 4 for AVX2, 2 for baseline x86-64.
// NOTES: each build uses its native width; GCC takes the lanes of a wider vector's comparisons
// and selects one at a time.
template <int N>
struct Lanes {
    typedef uint64_t U64 __attribute__((vector_size(8 * N)));
    typedef int64_t I64 __attribute__((vector_size(8 * N)));
    typedef double F64 __attribute__((vector_size(8 * N)));
    typedef uint32_t U32 __attribute__((vector_size(4 * N)));
    typedef float F32 __attribute__((vector_size(4 * N)));
    typedef int8_t I8 __attribute__((vector_size(N)));
};
#define SPMMA_LANE_TYPES                   \
    using U64 = typename Lanes<N>::U64;    \
    using I64 = typename Lanes<N>::I64;    \
    using F64 = typename Lanes<N>::F64;    \
    using U32 = typename Lanes<N>::U32;    \
    using F32 = typename Lanes<N>::F32;    \
    using I8 = typename Lanes<N>::I8
#define SPMMA_LANES template <int N> [[gnu::always_inline]] inline

// 1.5 * 2^52: (y + kRound) - kRound is y rounded half to even for |y| < 2^51, and the low bits
// of y + kRound are that integer plus 2^51.
constexpr double kRound = 0x1.8p52;
constexpr uint64_t kRoundBits = 0x4338000000000000ull;

// Casts between vector types of one size keep the bits.
template <class To, class From>
[[gnu::always_inline]] inline To bits_as(From x) {
    return (To)x;
}

SPMMA_LANES typename Lanes<N>::U64 mix(typename Lanes<N>::U64 x) {  // drawer.hpp's mix, per lane
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// drawer.hpp's unit: the top 53 bits as a double (in two exact halves, as no instruction before
// AVX-512 converts 64-bit integers), times 2^-53.
SPMMA_LANES typename Lanes<N>::F64 unit(typename Lanes<N>::U64 b) {
    SPMMA_LANE_TYPES;
    const U64 v = b >> 11;
    const F64 hi = bits_as<F64>((v >> 32) | 0x4330000000000000ull) - 0x1p52;
    const F64 lo = bits_as<F64>((v & 0xffffffffull) | 0x4330000000000000ull) - 0x1p52;
    return (hi * 0x1p32 + lo) * 0x1p-53;
}

SPMMA_LANES typename Lanes<N>::F64 round_even(typename Lanes<N>::F64 y) { return (y + kRound) - kRound; }
SPMMA_LANES typename Lanes<N>::F64 floor_small(typename Lanes<N>::F64 y) {  // |y| < 2^51
    const auto r = round_even<N>(y);
    return r > y ? r - 1.0 : r;
}

// Drawer::value<Uniform or Int>, per lane.
SPMMA_LANES typename Lanes<N>::F64 value(const BatchDrawer::Plan& p, typename Lanes<N>::F64 u) {
    using V = BatchDrawer::Value;
    switch (p.value) {
        case V::Int: return p.lo + floor_small<N>(u * p.span);
        case V::UniformFloat: return (2.0 * u - 1.0) * p.span;
        case V::UniformInt: return floor_small<N>(p.lo + u * p.span);
        case V::UniformS32: return round_even<N>((2.0 * u - 1.0) * 65536.0);
    }
    return u;
}

// FastEncoder's minifloat rounding, per lane; `redo` marks the lanes left to the scalar encoder
// (NaN, infinity and values above the largest finite one).
// NOTES: every compared quantity is below 2^63 and compared as signed, and shifts right are
// logical: AVX2 has neither unsigned nor arithmetic-shift forms for 64-bit lanes.
SPMMA_LANES typename Lanes<N>::U64 encode_mini(const FastEncoder::Constants& c, typename Lanes<N>::F64 v, typename Lanes<N>::I64& redo) {
    SPMMA_LANE_TYPES;
    const U64 bits = bits_as<U64>(v), abs_bits = bits & 0x7fffffffffffffffull;
    redo = bits_as<I64>(abs_bits) > static_cast<int64_t>(c.max_bits);
    const I64 neg = bits_as<I64>(bits >> 63) != 0;
    const U64 zero{}, sign = neg ? zero + c.sign_bit : zero;
    const I64 dexp = bits_as<I64>(abs_bits >> 52);
    const I64 e = dexp - 1023;
    const I64 binade = e > c.emin ? e : I64{} + c.emin;
    const I64 shift = binade - c.man_bits - e + 52;
    // Half the smallest subnormal or less: the signed zero. Zero and the double's subnormals
    // (dexp 0) are in: their shift is over 900 for every format.
    const I64 tiny = shift >= 64;
    const U64 sh = bits_as<U64>(tiny ? I64{} + 63 : shift);
    const U64 sig = (abs_bits & ((1ull << 52) - 1)) | (1ull << 52);
    // Half to even without comparisons: adding half - 1 plus the kept lowest bit carries into the
    // kept bits exactly when the dropped ones are above half, or at half with the lowest bit odd.
    const U64 half = (zero + 1) << (sh - 1);
    U64 units = (sig + (half - 1) + ((sig >> sh) & 1)) >> sh;
    const I64 sub = bits_as<I64>(units) < (1ll << c.man_bits);
    const I64 carry = units == (1ull << (c.man_bits + 1));
    const I64 exp_field = sub ? I64{} : binade - c.emin + 1 - carry;
    units >>= bits_as<U64>(carry & 1);
    U64 code = (bits_as<U64>(exp_field) << c.man_bits) | (units & ((1ull << c.man_bits) - 1));
    code = bits_as<I64>(code) > static_cast<int64_t>(c.max_code) ? zero + (c.ieee ? c.inf_code : c.max_code) : code;
    code = tiny ? sign : (sign | code);
    if (!c.has_sign) code = neg ? zero : code;  // unsigned: negative values clamp to 0
    return code;
}

// FastEncoder's integer rounding and clamping, per lane; NaN lanes are left to the scalar encoder.
SPMMA_LANES typename Lanes<N>::U64 encode_int(const FastEncoder::Constants& c, typename Lanes<N>::F64 v, typename Lanes<N>::I64& redo) {
    SPMMA_LANE_TYPES;
    redo = v != v;
    const F64 r = round_even<N>(v);
    const F64 clamped = r < c.int_lo ? F64{} + c.int_lo : (r > c.int_hi ? F64{} + c.int_hi : r);
    return (bits_as<U64>(clamped + kRound) - kRoundBits) & c.int_mask;
}

SPMMA_LANES typename Lanes<N>::U64 encode(const BatchDrawer::Plan& p, typename Lanes<N>::F64 v, typename Lanes<N>::I64& redo) {
    SPMMA_LANE_TYPES;
    using C = BatchDrawer::Code;
    redo = I64{};
    switch (p.code) {
        case C::Mini: return encode_mini<N>(p.enc, v, redo);
        case C::Tf32: {
            const U64 m = encode_mini<N>(p.enc, v, redo);
            return ((m >> 18) << 31) | (((m >> 10) & 0xff) << 23) | ((m & 0x3ff) << 13);
        }
        case C::F32: {
            const F32 f = __builtin_convertvector(v, F32);
            return __builtin_convertvector(bits_as<U32>(f), U64);
        }
        case C::Int: return encode_int<N>(p.enc, v, redo);
    }
    return U64{};
}

// Stores N codes and a byte per lane that says whether to redo it.
SPMMA_LANES void store(typename Lanes<N>::U64 code, typename Lanes<N>::I64 redo, int64_t at, uint32_t* out, int8_t* redo_flags) {
    SPMMA_LANE_TYPES;
    const U32 c = __builtin_convertvector(code, U32);
    std::memcpy(out + at, &c, sizeof c);
    const I8 f = __builtin_convertvector(redo, I8);
    std::memcpy(redo_flags + at, &f, sizeof f);
}

// Any lane set, tested once per call rather than per block.
SPMMA_LANES bool any(typename Lanes<N>::I64 m) {
    int64_t x = 0;
    for (int l = 0; l < N; ++l) x |= m[l];
    return x != 0;
}

// Where a run of values comes from: drawn for elements first, first + 1, ... (values null), or
// read from `values` (the encoder alone).
struct Source {
    uint64_t first = 0;
    const double* values = nullptr;
    Source from(int64_t at) const { return {first + static_cast<uint64_t>(at), values ? values + at : nullptr}; }
};

// Codes of `count` values of `src` (a multiple of 8); true when a lane is left to redo (redo_flags).
SPMMA_LANES bool code_lanes(const BatchDrawer::Plan& p, Source src, int64_t count, uint32_t* out, int8_t* redo_flags) {
    SPMMA_LANE_TYPES;
    U64 lane;
    for (int l = 0; l < N; ++l) lane[l] = static_cast<uint64_t>(l);
    I64 seen{};
    for (int64_t at = 0; at < count; at += N) {
        F64 x;
        if (src.values) {
            std::memcpy(&x, src.values + at, sizeof x);
        } else {
            const U64 index = (U64{} + (src.first + static_cast<uint64_t>(at))) + lane;
            x = value<N>(p, unit<N>(mix<N>(p.key ^ (index * 4))));
        }
        I64 redo;
        const U64 code = encode<N>(p, x, redo);
        store<N>(code, redo, at, out, redo_flags);
        seen |= redo;
    }
    return any<N>(seen);
}

// One copy of the loop per instruction set (the templates above are inlined into each).
#if defined(__x86_64__)
[[gnu::target("avx512f,avx512dq,avx512vl,avx512bw")]] bool code_avx512(const BatchDrawer::Plan& p, Source s, int64_t n, uint32_t* o, int8_t* r) {
    return code_lanes<8>(p, s, n, o, r);
}
[[gnu::target("avx2")]] bool code_avx2(const BatchDrawer::Plan& p, Source s, int64_t n, uint32_t* o, int8_t* r) { return code_lanes<4>(p, s, n, o, r); }
#endif
bool code_baseline(const BatchDrawer::Plan& p, Source s, int64_t n, uint32_t* o, int8_t* r) { return code_lanes<2>(p, s, n, o, r); }

bool code_with(Isa isa, const BatchDrawer::Plan& p, Source src, int64_t count, uint32_t* out, int8_t* redo_flags) {
#if defined(__x86_64__)
    if (isa == Isa::Avx512) return code_avx512(p, src, count, out, redo_flags);
    if (isa == Isa::Avx2) return code_avx2(p, src, count, out, redo_flags);
#endif
    return code_baseline(p, src, count, out, redo_flags);
}

// Elements per call of a vector loop (their redo flags fit on the stack), in blocks of eight
// (every build's lanes divide it).
constexpr int64_t kChunk = 1024, kBlock = 8;

// Codes of `n` values of `src` into out: the vector loop a chunk at a time, then scalar(i) for
// the lanes it left and the tail.
template <class Scalar>
void code_chunks(Isa isa, const BatchDrawer::Plan& p, Source src, int64_t n, uint32_t* out, Scalar scalar) {
    int8_t redo[kChunk];
    for (int64_t done = 0; done < n;) {
        const int64_t len = std::min(kChunk, n - done), whole = len / kBlock * kBlock;
        if (code_with(isa, p, src.from(done), whole, out + done, redo))
            for (int64_t i = 0; i < whole; ++i)
                if (redo[i]) out[done + i] = scalar(done + i);
        for (int64_t i = whole; i < len; ++i) out[done + i] = scalar(done + i);
        done += len;
    }
}

}  // namespace

const char* isa_name(Isa isa) {
    switch (isa) {
        case Isa::Baseline: return "baseline";
        case Isa::Avx2: return "avx2";
        case Isa::Avx512: return "avx512";
    }
    return "?";
}

const std::vector<Isa>& usable_isas() {
    static const std::vector<Isa> isas = [] {
        std::vector<Isa> out{Isa::Baseline};
#if defined(__x86_64__)
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2")) out.push_back(Isa::Avx2);
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
            __builtin_cpu_supports("avx512bw"))
            out.push_back(Isa::Avx512);
#endif
        return out;
    }();
    return isas;
}

std::optional<BatchDrawer> BatchDrawer::of(const Drawer& d, const FastEncoder& e) {
    Plan p{};
    p.key = d.key();
    p.enc = e.constants();
    switch (e.kind()) {
        case EncodeKind::Mini: p.code = Code::Mini; break;
        case EncodeKind::Tf32: p.code = Code::Tf32; break;
        case EncodeKind::F32: p.code = Code::F32; break;
        case EncodeKind::Int: p.code = Code::Int; break;
        case EncodeKind::Other: return std::nullopt;
    }
    if (d.distribution() == Distribution::Int) {
        p.value = Value::Int;
        p.lo = d.int_lo();
        p.span = 4 - p.lo;
    } else if (d.distribution() != Distribution::Uniform) {
        return std::nullopt;
    } else if (!d.integer()) {
        p.value = Value::UniformFloat;
        p.span = d.range();
    } else if (d.type() == DType::S32) {
        p.value = Value::UniformS32;
    } else {
        p.value = Value::UniformInt;
        p.lo = d.uniform_int_lo();
        p.span = d.max() - p.lo + 1;
    }
    BatchDrawer b(d, e, p);
    b.best_ = usable_isas().back();
    return b;
}

void BatchDrawer::codes(Isa isa, uint64_t first, int64_t n, uint32_t* out) const {
    code_chunks(isa, plan_, Source{first, nullptr}, n, out, [&](int64_t i) { return enc_(draw_(first + static_cast<uint64_t>(i))); });
}

void BatchDrawer::encode(Isa isa, const double* values, int64_t n, uint32_t* out) const {
    code_chunks(isa, plan_, Source{0, values}, n, out, [&](int64_t i) { return enc_(values[i]); });
}

}  // namespace spmma::detail

// Throughput probe kernels for bench/sm90a/wgmma_rate.cpp: every CTA (one per SM) runs WG
// warpgroups that issue wgmma.mma_async(.sp) back to back from shared memory, one commit group
// per 64-wide k stage and one group in flight, cycling over four stages of operands as the GEMM
// kernels do, with no TMA and no epilogue. Variants take A from registers instead of shared
// memory, or add one more warpgroup that streams 16-byte loads from global memory (L2) or from
// shared memory while the wgmmas run. What it measures: the rate at which the tensor cores take
// sparse and dense wgmma per SM and clock, and whether that rate is bounded by the bytes shared
// memory serves (the machine model of plugins/sm90a/NOTES.md). With a nonzero `seed` the operands
// are random f16 or e4m3 (sign and mantissa drawn, exponents of 2^-4 .. 2^-1 or 2^-3 .. 2^0, like
// the benchmark's uniform data) instead of a pattern that varies three bits per byte: under the
// power cap the data sets the clock.
#include <cstdint>

#include "ptx_sm90.cuh"
#include "ptx_sm90a_wgmma.cuh"
#include "random_operands.hpp"
#include "sm90a_instr.cuh"

namespace {

using namespace spmma_ptx;
using spmma_sm90a::kmajor_desc;

constexpr int kStages = 4;
constexpr uint32_t kAStageBytes = 64 * 128;  // per warpgroup: 64 rows x 128 B (dense A; sparse uses 64 B rows)
// kOwnLdg / kOwnNoAlloc / kOwnDeep: no streaming warpgroup; the wgmma warpgroups load their own A
// fragments from global memory (L2): two stages ahead (ld.global.nc with and without an L1 line),
// or six stages ahead (without). kOwnLds: from their A stages in shared memory, two stages ahead.
// kTma: a warpgroup of its own writes shared memory through the tensor copy engine (what a GEMM's
// stage fills do), 16 bulk copies of 4 KiB in flight, as fast as they complete.
enum Stream { kNoStream = 0, kLdg = 1, kLds = 2, kOwnLdg = 3, kOwnNoAlloc = 4, kOwnDeep = 5, kOwnLds = 6, kTma = 7 };
constexpr bool has_stream_warpgroup(int stream) { return stream == kLdg || stream == kLds || stream == kTma; }
constexpr bool loads_own_a(int stream) { return stream >= kOwnLdg && stream <= kOwnLds; }
constexpr uint32_t kTmaCopyBytes = 4096, kTmaCopies = 16;

// One variant: the instruction, its k steps per 128-byte B row and operand geometry.
template <bool SPARSE, bool F8, bool AREG>
struct Variant {
    static constexpr int kSteps = SPARSE ? 2 : 4;              // instructions per stage (k of 64 f16 / 128 fp8)
    static constexpr uint32_t kARowBytes = SPARSE ? 64 : 128;  // A stage row (swizzle width)
    static constexpr uint32_t kAStep = 32;                     // A bytes per row per instruction
    static constexpr uint32_t kBStep = SPARSE ? 64 : 32;       // B bytes per row per instruction
    static constexpr bool kAreg = AREG;
    static constexpr bool kF8 = F8;
    template <int N>
    __device__ static __forceinline__ void mma(float (&d)[N / 2], uint64_t da, const uint32_t (&areg)[4], uint64_t db,
                                               uint32_t meta, uint32_t scale_d) {
        if constexpr (kAreg) wgmma_sp_f32_f16_f16_rs<N, 0>(d, areg, db, meta, scale_d);
        else if constexpr (SPARSE && F8) spmma_sm90a::instr_e4m3e4m3_f32::mma<N, 0>(d, da, db, meta, scale_d);
        else if constexpr (SPARSE) spmma_sm90a::instr_f16f16_f32::mma<N, 0>(d, da, db, meta, scale_d);
        else if constexpr (F8) wgmma_f32_e4m3_e4m3<N>(d, da, db, scale_d);
        else wgmma_f32_f16_f16<N>(d, da, db, scale_d);
    }
};

template <int N, int WG>
constexpr uint32_t b_base() { return kStages * WG * kAStageBytes; }

__device__ __forceinline__ uint32_t random_e4m3x4(uint32_t h) { return spmma_rate::e4m3x4_from_bits(spmma_rate::scramble(h)); }
__device__ __forceinline__ uint32_t random_f16x2(uint32_t h) { return spmma_rate::f16x2_from_bits(spmma_rate::scramble(h)); }

// The wgmma loop with A fragments loaded by the warpgroup itself: 32 bytes per thread per stage
// (two 16-byte loads, the four registers of each of the stage's two m64 k32 steps), coalesced
// 4 KiB per warpgroup, into a ring of register sets; the loads for stage s + ahead are issued as
// stage s starts, into the set stage s + ahead - ring used (complete when ahead <= ring - 2: at
// most one group is pending after s - 1).
template <class V, int N, int WG, int STREAM>
__device__ __forceinline__ void own_a_loop(int iters, uint32_t base, const uint8_t* smem_base, int wg, uint32_t meta, const uint4* buf,
                                           uint32_t buf_vecs, uint32_t* sink) {
    const uint32_t stride = gridDim.x * WG * 256u;  // uint4 per stage over the grid
    const uint32_t period = buf_vecs / stride;      // stages before the addresses wrap
    const uint4* mine = buf + (blockIdx.x * WG + wg) * 256u + (threadIdx.x % 128) * 2u;
    constexpr int kRing = STREAM == kOwnDeep ? 8 : 4, kAhead = kRing - 2;
    uint32_t a[kRing][2][4];
    // NOTES: in shared memory a thread's two 16-byte pieces lie 2 KiB apart, so each quarter-warp
    // reads 128 contiguous bytes (no bank conflict).
    const uint8_t* my_smem = smem_base + wg * kAStageBytes + (threadIdx.x % 128) * 16u;
    auto load = [&](uint32_t (&set)[2][4], int stage) {
        const uint4* p = STREAM == kOwnLds ? reinterpret_cast<const uint4*>(my_smem + (stage % kStages) * WG * kAStageBytes)
                                           : mine + (static_cast<uint32_t>(stage) % period) * stride;
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            const uint4 v = STREAM == kOwnLds ? p[j * 128] : STREAM == kOwnLdg ? __ldg(p + j) : ld_global_nc_no_allocate_v4(p + j);
            set[j][0] = v.x;
            set[j][1] = v.y;
            set[j][2] = v.z;
            set[j][3] = v.w;
        }
    };
#pragma unroll
    for (int q = 0; q < kAhead; ++q) load(a[q], q);
    float acc[N / 2];
    for (int it = 0; it < iters; it += kRing) {  // iters is a multiple of the ring
#pragma unroll
        for (int q = 0; q < kRing; ++q) {
            load(a[(q + kAhead) % kRing], it + q + kAhead);
            const int s = (it + q) % kStages;
            const uint32_t b = base + b_base<N, WG>() + s * N * 128u;
            wgmma_fence();
#pragma unroll
            for (int step = 0; step < V::kSteps; ++step)
                V::template mma<N>(acc, 0, a[q][step], kmajor_desc(b, 128, 0, step * V::kBStep), meta, (it + q > 0 || step > 0) ? 1u : 0u);
            wgmma_commit_group();
            wgmma_wait_group<1>();
        }
    }
    wgmma_wait_group<0>();
    float sum = 0.f;
#pragma unroll
    for (int r = 0; r < N / 2; ++r) sum += acc[r];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = __float_as_uint(sum);
}

// The filling warpgroup: one thread keeps 16 bulk copies in flight into a 4 KiB scratch area
// after the operands (their writes overlap: only their traffic matters) until the wgmmas are done.
template <int N, int WG>
__device__ __forceinline__ void fill_stream(uint32_t base, uint32_t bar, volatile int& done, const uint4* buf, uint32_t buf_vecs,
                                            long long* cycles) {
    if (threadIdx.x % 128 != 0) return;
    const uint32_t scratch = base + b_base<N, WG>() + kStages * N * 128u;
    const uint32_t chunks = buf_vecs * 16u / kTmaCopyBytes;
    uint32_t next = blockIdx.x * 977u % chunks, parity = 0;
    long long n = 0;
    while (!done) {
        mbarrier_arrive_expect_tx(bar, kTmaCopies * kTmaCopyBytes);
        for (uint32_t c = 0; c < kTmaCopies; ++c) {
            bulk_load_1d(scratch, reinterpret_cast<const uint8_t*>(buf) + static_cast<size_t>(next) * kTmaCopyBytes, kTmaCopyBytes, bar);
            next = next + 1 == chunks ? 0 : next + 1;
        }
        mbarrier_wait_parity<BarrierScope::Cta>(bar, parity);
        parity ^= 1;
        n += kTmaCopies * kTmaCopyBytes;
    }
    cycles[2 * blockIdx.x + 1] = n;
}

// The streaming warpgroup: 16-byte loads (from L2, or from the operands in shared memory) until
// the wgmmas are done.
template <int STREAM>
__device__ __forceinline__ void load_stream(const uint4* smem, uint32_t smem_vecs, volatile int& done, const uint4* buf,
                                            uint32_t buf_vecs, uint32_t* sink, long long* cycles) {
    uint4 x = make_uint4(0, 0, 0, 0);
    long long n = 0;
    const uint32_t t = threadIdx.x % 128;
    uint32_t i = (blockIdx.x * 977u * 128u + t) % buf_vecs;
    while (!done) {
#pragma unroll
        for (int r = 0; r < 16; ++r) {
            uint4 v;
            if constexpr (STREAM == kLdg) {
                v = __ldg(buf + i);
                i += 128;
                if (i >= buf_vecs) i -= buf_vecs;
            } else {
                v = smem[(r * 128 + t) % smem_vecs];
            }
            x.x ^= v.x;
            x.y += v.y;
            x.z ^= v.z;
            x.w += v.w;
        }
        n += 16;
    }
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x.x ^ x.y ^ x.z ^ x.w;
    if (t == 0) cycles[2 * blockIdx.x + 1] = n * 16 * 128;
}

// The wgmma loop with A from its shared-memory stages, or from registers that are never loaded.
// Returns the loop's clock64 cycles.
template <class V, int N, int WG>
__device__ __forceinline__ long long fixed_a_loop(int iters, uint32_t seed, uint32_t base, int wg, uint32_t meta, uint32_t* sink) {
    // NOTES: two sets of A registers taken in turn (read only, so no wgmma in flight sees a
    // register change): with random data A's bits toggle from stage to stage as loaded A's would.
    uint32_t areg[2][4] = {{0x3C003800u ^ threadIdx.x, 0x38003C00u, 0x3C00B800u, 0xB8003C00u},
                           {0x3C003800u ^ threadIdx.x, 0x38003C00u, 0x3C00B800u, 0xB8003C00u}};
    if (seed)
#pragma unroll
        for (int set = 0; set < 2; ++set)
#pragma unroll
            for (int r = 0; r < 4; ++r) areg[set][r] = random_f16x2(seed + 0x9E3779B9u * (threadIdx.x * 8 + set * 4 + r + 1));
    float acc[N / 2];
    const long long t0 = clock64();
    for (int it = 0; it < iters; it += 2) {  // iters is a multiple of 8
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int s = (it + half) % kStages;
            const uint32_t a = base + (s * WG + wg) * kAStageBytes, b = base + b_base<N, WG>() + s * N * 128u;
            wgmma_fence();
#pragma unroll
            for (int step = 0; step < V::kSteps; ++step)
                V::template mma<N>(acc, kmajor_desc(a, V::kARowBytes, 0, step * V::kAStep), areg[half],
                                   kmajor_desc(b, 128, 0, step * V::kBStep), meta, (it + half > 0 || step > 0) ? 1u : 0u);
            wgmma_commit_group();
            wgmma_wait_group<1>();
        }
    }
    wgmma_wait_group<0>();
    const long long t1 = clock64();
    float sum = 0.f;
#pragma unroll
    for (int r = 0; r < N / 2; ++r) sum += acc[r];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = __float_as_uint(sum);
    return t1 - t0;
}

// cycles[2 * cta]: the wgmma warpgroups' cycles; cycles[2 * cta + 1]: bytes the streaming
// warpgroup, or the own-load warpgroups, loaded meanwhile.
template <class V, int N, int WG, int STREAM>
__device__ __forceinline__ void rate_body(int iters, uint32_t seed, const uint4* buf, uint32_t buf_vecs, uint32_t* sink,
                                          long long* cycles) {
    extern __shared__ uint8_t smem_raw[];
    __shared__ volatile int done;
    __shared__ alignas(8) uint64_t tma_bar;
    const uint32_t raw = smem_addr(smem_raw);
    const uint32_t base = (raw + 1023u) & ~1023u;
    uint32_t* words = reinterpret_cast<uint32_t*>(smem_raw + (base - raw));
    // Finite, varied operands: f16 halves and fp8 bytes with exponents near 1.
    const uint32_t total = (b_base<N, WG>() + kStages * N * 128u) / 4;
    for (uint32_t i = threadIdx.x; i < total; i += blockDim.x)
        words[i] = !seed   ? 0x38383838u ^ ((i * 2654435761u) & 0x07070707u)
                   : V::kF8 ? random_e4m3x4(seed ^ (i * 2654435761u))
                            : random_f16x2(seed ^ (i * 2654435761u));
    if (threadIdx.x == 0) {
        done = 0;
        mbarrier_init(smem_addr(&tma_bar), 1);
    }
    fence_proxy_async_shared_cta();
    __syncthreads();

    const int wg = threadIdx.x / 128;
    if constexpr (STREAM == kTma) {
        if (wg == WG) return fill_stream<N, WG>(base, smem_addr(&tma_bar), done, buf, buf_vecs, cycles);
    } else if constexpr (has_stream_warpgroup(STREAM)) {
        if (wg == WG) return load_stream<STREAM>(reinterpret_cast<const uint4*>(words), total / 4, done, buf, buf_vecs, sink, cycles);
    }
    const uint32_t meta = 0x44444444u;  // positions 0 and 1 of every group: valid for every type
    if constexpr (loads_own_a(STREAM)) {
        static_assert(V::kAreg, "a warpgroup loading its own A takes A from registers");
        const long long t0 = clock64();
        own_a_loop<V, N, WG, STREAM>(iters, base, reinterpret_cast<const uint8_t*>(words), wg, meta, buf, buf_vecs, sink);
        const long long t1 = clock64();
        if (threadIdx.x == 0) {
            cycles[2 * blockIdx.x] = t1 - t0;
            cycles[2 * blockIdx.x + 1] = static_cast<long long>(iters) * WG * 128 * 32;  // bytes of A loaded
        }
        return;
    }
    const long long loop_cycles = fixed_a_loop<V, N, WG>(iters, seed, base, wg, meta, sink);
    if (threadIdx.x == 0) {
        done = 1;
        cycles[2 * blockIdx.x] = loop_cycles;
    }
}

}  // namespace

// rate_<sp|dense>_<f16|e4m3>_n<N>_wg<WG>[_areg][_ldg|_lds]
#define SPMMA_RATE_KERNEL(NAME, SPARSE, F8, N, WG, AREG, STREAM)                                              \
    extern "C" __global__ void __launch_bounds__(128 * (WG + has_stream_warpgroup(STREAM)), 1)               \
        NAME(int iters, uint32_t seed, const uint4* buf, uint32_t buf_vecs, uint32_t* sink, long long* cycles) { \
        rate_body<Variant<SPARSE, F8, AREG>, N, WG, STREAM>(iters, seed, buf, buf_vecs, sink, cycles);        \
    }
#include "sm90a_wgmma_rate.inc"

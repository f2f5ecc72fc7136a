// Throughput probe kernels for bench/sm80/mma_rate.cpp: every CTA (one per SM) runs warps that
// issue the sm_80 warp-level mma.sp (or dense mma) back to back over a warp tile of MI x NJ
// 16x8 accumulators, as the plugin's GEMM loop does (plugins/sm80/device/sm80_spgemm.cuh), with
// progressively more of that loop around the instructions (sm80_mma_rate.inc, "mode"): the
// bare instruction rate, + the shared-memory operand loads, + the per-stage barrier, + the
// cp.async refill from global memory, or the same refill by bulk copies (sm_90). The loop modes
// run on sm_90 from compute_90 PTX (cp.async.bulk) and elsewhere from compute_80 (mode 4 is then
// not built and the host skips it). What it measures: the ceiling of mma.sp on this GPU per
// SM and clock, and which part of the GEMM loop costs how much of it (plugins/sm80/NOTES.md).
#include <cstdint>
#include <type_traits>

#include "ptx_sm80.cuh"
#include "ptx_sm80_mma.cuh"
#include "ptx_sm90.cuh"
#include "mma_rate_data.hpp"

namespace {

namespace ptx = spmma_sm80::ptx;
using spmma_ptx::smem_addr;

// One stage of the 256x128 GEMM (4 warp rows of 64 rows, 128 B columns of k): A values in lane
// order (per 16-row atom and k step 512 B), B columns of 128 B XOR-swizzled in 16 B chunks,
// metadata one word per lane per atom.
constexpr int kSlots = 4;
constexpr int kWarpRows = 4;
constexpr uint32_t kARegion = 0, kABytes = kWarpRows * 4 * 2 * 512;   // 16 KB
constexpr uint32_t kBRegion = kABytes, kBBytes = 128 * 128;            // 16 KB
constexpr uint32_t kERegion = kBRegion + kBBytes, kEBytes = kWarpRows * 4 * 32 * 4;  // 2 KB
constexpr uint32_t kSlotBytes = kERegion + kEBytes;
static_assert(kSlotBytes == 34 * 1024, "a slot is one 256x128 f16 stage of the GEMM kernel (34 KB)");

// The instruction of each form, accumulating in place (sparsity selector SEL). NOTES: a function
// template, not a generic lambda in rate_body: cicc of CUDA 13.0 crashed (segmentation fault) on
// the lambda with `if constexpr` over the forms.
template <int FORM, int SEL, class AccT, int R>
__device__ __forceinline__ void mma(AccT (&d)[R], const uint32_t (&a)[4], const uint32_t (&b)[4], uint32_t e) {
    if constexpr (FORM == 0) ptx::mma_sp_m16n8k32_f32_f16<true, SEL>(d, a, b, e);
    else if constexpr (FORM == 1) ptx::mma_sp_m16n8k32_f16_f16<true, SEL>(d, a, b, e);
    else ptx::mma_m16n8k16_f32_f16(d, a, {b[0], b[1]});
}

template <int FORM, int WARPS, int MI, int NJ, int MODE, int DATA>
__device__ __forceinline__ void rate_body(int iters, const uint4* buf, uint32_t buf_vecs, uint32_t* sink,
                                          long long* cycles) {
    static_assert(MODE == 0 || FORM == 0, "the loop modes issue the sparse f16 -> f32 form only");
    static_assert(MODE == 0 || (WARPS / kWarpRows) * NJ * 8 <= 128, "a warp column reads past the 128 B columns");
    static_assert(MI <= 4, "A holds 4 atoms per warp row");
    constexpr int kThreads = WARPS * 32;
    extern __shared__ __align__(128) uint8_t smem[];
    __shared__ unsigned long long slowest;
    __shared__ __align__(8) uint64_t full[kSlots];  // mode 4: one mbarrier per slot (bulk copies landed)
    (void)full;
    const uint32_t s0 = smem_addr(smem);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp % kWarpRows, wn = warp / kWarpRows;
    // Operands as the host's buffer holds them (mma_rate_data.hpp), metadata 0x4444 (indices 0
    // and 1 of every group: valid for the ordered form).
    for (uint32_t i = tid; i < kSlots * kSlotBytes / 4; i += kThreads) {
        const uint32_t in_slot = (i * 4) % kSlotBytes;
        reinterpret_cast<uint32_t*>(smem)[i] = in_slot >= kERegion ? kMetaWord : operand_word(i, DATA);
    }
    if (tid == 0) slowest = 0;
#if __CUDA_ARCH__ >= 900
    if constexpr (MODE == 4) {
        if (tid == 0)
            for (int i = 0; i < kSlots; ++i) spmma_ptx::mbarrier_init(smem_addr(&full[i]), 1);
        spmma_ptx::fence_proxy_async_shared_cta();
    }
#endif
    __syncthreads();

    using AccT = std::conditional_t<FORM == 1, uint32_t, float>;
    constexpr int kAccRegs = FORM == 1 ? 2 : 4;
    AccT acc[MI][NJ][kAccRegs];
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NJ; ++j)
#pragma unroll
            for (int r = 0; r < kAccRegs; ++r) acc[i][j][r] = AccT(0);


    long long t0 = 0, t1 = 0;
    if constexpr (MODE == 0) {
        // ---- registers only ----
        uint32_t a[MI][4], b[NJ][4];
#pragma unroll
        for (int i = 0; i < MI; ++i)
#pragma unroll
            for (int r = 0; r < 4; ++r) a[i][r] = operand_word(uint32_t(tid * 64 + i * 4 + r), DATA);
#pragma unroll
        for (int j = 0; j < NJ; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) b[j][r] = operand_word(uint32_t(tid * 64 + 32 + j * 4 + r), DATA);
        const uint32_t e = kMetaWord;
        t0 = clock64();
#pragma unroll 1
        for (int it = 0; it < iters; ++it) {
#pragma unroll
            for (int j = 0; j < NJ; ++j)
#pragma unroll
                for (int ii = 0; ii < MI; ++ii) {
                    const int i = (j & 1) ? MI - 1 - ii : ii;
                    mma<FORM, 0>(acc[i][j], a[i], b[j], e);
                }
#pragma unroll
            for (int j = 0; j < NJ; ++j)
#pragma unroll
                for (int ii = 0; ii < MI; ++ii) {
                    const int i = (j & 1) ? ii : MI - 1 - ii;
                    mma<FORM, 1>(acc[i][j], a[i], b[j], e);
                }
        }
        t1 = clock64();
    } else {
        // ---- the GEMM loop's operand traffic: two k steps per stage, slots in rotation ----
        auto load_a = [&](int slot, int step, uint32_t (&a)[MI][4]) {
#pragma unroll
            for (int i = 0; i < MI; ++i) {
                const uint4 v = *reinterpret_cast<const uint4*>(smem + slot * kSlotBytes + kARegion +
                                                                (((wm * 4 + i) * 2 + step) * 32 + lane) * 16);
                a[i][0] = v.x; a[i][1] = v.y; a[i][2] = v.z; a[i][3] = v.w;
            }
        };
        auto load_e = [&](int slot, uint32_t (&e)[MI]) {
#pragma unroll
            for (int i = 0; i < MI; ++i)
                e[i] = *reinterpret_cast<const uint32_t*>(smem + slot * kSlotBytes + kERegion + ((wm * 4 + i) * 32 + lane) * 4);
        };
        auto load_b = [&](int slot, int step, int j, uint32_t (&bj)[4]) {
            const int col = wn * NJ * 8 + j * 8 + (lane & 7);
            const int chunk = step * 4 + (lane >> 3);
            spmma_ptx::ldmatrix_x4(bj, s0 + slot * kSlotBytes + kBRegion + col * 128 + ((chunk ^ (col & 7)) * 16));
        };
        // The refill of one slot: 34 KB in 16-byte cp.async, part `part` of `parts` of them; A and B
        // from the buffer's operand area (buf_vecs vectors, a power of two, after the metadata),
        // metadata from its first 2 KB.
        constexpr int kChunks = kSlotBytes / 16, kCopies = (kChunks + kThreads - 1) / kThreads;
        constexpr uint32_t kEChunk0 = kERegion / 16;
        const uint4* operands = buf + kMetaVecs;
        uint32_t fetch = (blockIdx.x * 7919u * kChunks) & (buf_vecs - 1);
        auto refill = [&](int slot, int part, int parts) {
#pragma unroll
            for (int o = 0; o < kCopies; ++o) {
                if (o * parts / kCopies != part) continue;
                const uint32_t c = tid + o * kThreads;
                if (kChunks % kThreads == 0 || c < kChunks)
                    spmma_ptx::cp_async_16(s0 + slot * kSlotBytes + c * 16,
                                           c >= kEChunk0 ? buf + (c - kEChunk0) : operands + ((fetch + c) & (buf_vecs - 1)));
            }
        };
        // Mode 4 (sm_90): the same 34 KB as two bulk copies issued by one thread (A and B: 32 KB
        // of operands; metadata: 2 KB), landing on the slot's mbarrier.
        auto bulk_refill = [&](int slot) {
#if __CUDA_ARCH__ >= 900
            if (tid == 0) {
                const uint32_t bar = smem_addr(&full[slot]);
                spmma_ptx::mbarrier_arrive_expect_tx(bar, kSlotBytes);
                spmma_ptx::bulk_load_1d(s0 + slot * kSlotBytes, operands + (fetch & (buf_vecs - 1) & ~2047u), kERegion, bar);
                spmma_ptx::bulk_load_1d(s0 + slot * kSlotBytes + kERegion, buf, kEBytes, bar);
            }
#endif
        };
        auto bulk_wait = [&](int stage) {
#if __CUDA_ARCH__ >= 900
            spmma_ptx::mbarrier_wait_parity<spmma_ptx::BarrierScope::Cta>(smem_addr(&full[stage % kSlots]),
                                                                         uint32_t(stage / kSlots) & 1u);
#endif
        };
        auto step = [&](auto step_c, const uint32_t (&a)[MI][4], uint32_t (&b)[NJ][4], const uint32_t (&e)[MI],
                        int next_slot, int next_step, auto&& between) {
#pragma unroll
            for (int j = 0; j < NJ; ++j) {
#pragma unroll
                for (int ii = 0; ii < MI; ++ii) {
                    const int i = (j & 1) ? MI - 1 - ii : ii;
                    mma<FORM, decltype(step_c)::value>(acc[i][j], a[i], b[j], e[i]);
                }
                load_b(next_slot, next_step, j, b[j]);
                between(j);
            }
        };
        uint32_t a0[MI][4], a1[MI][4], b[NJ][4], e_cur[MI], e_next[MI];
        if constexpr (MODE == 3) {
#pragma unroll
            for (int s = 0; s < kSlots - 1; ++s) spmma_ptx::cp_async_commit();
        }
        if constexpr (MODE == 4) {
            __syncthreads();  // the barriers' initialisation is visible
            for (int s = 0; s < kSlots - 1; ++s) {
                bulk_refill(s);
                fetch = (fetch + kChunks) & (buf_vecs - 1);
            }
            bulk_wait(0);
        }
        load_a(0, 0, a0);
        load_e(0, e_cur);
#pragma unroll
        for (int j = 0; j < NJ; ++j) load_b(0, 0, j, b[j]);
        int rd = 0, wr = kSlots - 1;
        t0 = clock64();
#pragma unroll 1
        for (int ks = 0; ks < iters; ++ks) {
            load_a(rd, 1, a1);
            step(std::integral_constant<int, 0>{}, a0, b, e_cur, rd, 1, [&](int j) {
                if constexpr (MODE == 3) refill(wr, j, NJ);
                if constexpr (MODE == 4) {
                    if (j == 0) bulk_refill(wr);
                }
            });
            uint32_t zero = 0;
            if constexpr (MODE == 3) {
                spmma_ptx::cp_async_commit();
                fetch = (fetch + kChunks) & (buf_vecs - 1);
                spmma_ptx::cp_async_wait<kSlots - 2>();
            }
            if constexpr (MODE == 4) {
                fetch = (fetch + kChunks) & (buf_vecs - 1);
                bulk_wait(ks + 1);
            }
            if constexpr (MODE >= 2) zero = uint32_t(__syncthreads_count(1) - kThreads);  // as the GEMM loop
            rd = rd + 1 == kSlots ? 0 : rd + 1;
            wr = wr + 1 == kSlots ? 0 : wr + 1;
            load_a(rd, 0, a0);
            load_e(rd, e_next);
            uint32_t e1[MI];
#pragma unroll
            for (int i = 0; i < MI; ++i) e1[i] = e_cur[i] ^ zero;
            step(std::integral_constant<int, 1>{}, a1, b, e1, rd, 0, [](int) {});
#pragma unroll
            for (int i = 0; i < MI; ++i) e_cur[i] = e_next[i];
        }
        t1 = clock64();
        if constexpr (MODE == 3) spmma_ptx::cp_async_wait<0>();
        if constexpr (MODE == 4) {
            // The copies issued for stages past the loop land before the CTA exits.
            for (int s = iters + 1; s < iters + kSlots - 1; ++s) bulk_wait(s);
        }
    }

    // ---- results: a checksum (keeps every mma live) and the slowest warp's cycles ----
    uint32_t sum = 0;
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NJ; ++j)
#pragma unroll
            for (int r = 0; r < kAccRegs; ++r) {
                if constexpr (FORM == 1) sum ^= acc[i][j][r];
                else sum ^= __float_as_uint(acc[i][j][r]);
            }
    sink[blockIdx.x * kThreads + tid] = sum;
    if (lane == 0) atomicMax(&slowest, static_cast<unsigned long long>(t1 - t0));
    __syncthreads();
    if (tid == 0) cycles[blockIdx.x] = static_cast<long long>(slowest);
}

}  // namespace

#define SPMMA_MMA_RATE_KERNEL(NAME, FORM, WARPS, MI, NJ, MODE, DATA)                                               \
    extern "C" __global__ void __launch_bounds__(WARPS * 32, 1)                                               \
        NAME(int iters, const uint4* buf, uint32_t buf_vecs, uint32_t* sink, long long* cycles) {             \
        rate_body<FORM, WARPS, MI, NJ, MODE, DATA>(iters, buf, buf_vecs, sink, cycles);                             \
    }
#include "sm80_mma_rate.inc"

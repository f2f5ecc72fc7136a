// The sm80 sparse GEMM kernel: D = alpha * A(sparse) * B + beta * C with mma.sp, for every
// operand type (the data path is byte-level, see include/spmma_sm80/layout.hpp; the type shows
// only in the instruction and the epilogue).
//
// Sections: types, shared memory, barriers, producer (cp.async), consumer (fragments + mma.sp),
// epilogue.
#pragma once

#include "mma_ops.cuh"
#include "../../kit/device/epilogue_store.cuh"
#include "../../kit/device/fused_epilogue.cuh"
#include "../../kit/device/ptx_sm80.cuh"

#include <spmma/plugin.h>
#include <spmma_sm80/layout.hpp>
#include <spmma_sm80/params.hpp>
#include <spmma_sm80/split_k.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace spmma_sm80 {

// ---- types ---------------------------------------------------------------------------------
template <class Op, int BM, int BN, int WM, int WN, int STAGES>
struct SpGemmConfig {
    static constexpr Tile kTile{BM, BN, WM, WN, STAGES};
    static constexpr Family kFamily = Op::kFamily;
    static constexpr int kThreads = kTile.threads();
    static constexpr int kWarpsM = BM / WM;
    static constexpr int kMI = WM / kAtomRows;  // 16-row A atoms per warp
    static constexpr int kNJ = WN / kAtomCols;  // 8-column B atoms per warp
    static constexpr int kEW = kFamily.e_words_per_stage();
    static constexpr int kStageBytes = kTile.stage_bytes(kFamily);
    static constexpr int kARegion = smem_a_region(kTile);
    static constexpr int kBRegion = smem_b_region(kTile);
    static constexpr int kERegion = smem_e_region(kTile);
    static constexpr int kAChunks = int(a_stage_bytes(BM)) / 16;          // 16-byte cp.async per stage
    static constexpr int kBChunks = BN * (kStageKBytes / 16);
    static constexpr int kEChunks = int(e_stage_words(kFamily, BM)) * 4 / 16;

    static_assert(BM % WM == 0 && BN % WN == 0, "the CTA tile must be a whole number of warp tiles");
    static_assert(WM % kAtomRows == 0 && WN % kAtomCols == 0, "warp tiles are whole 16x8 mma atoms");
    static_assert(kThreads % 64 == 0, "B copies assume whole groups of 8 columns per pass");
    static_assert(kAChunks % kThreads == 0, "every thread copies the same number of A chunks");
    static_assert(kBChunks % kThreads == 0, "every thread copies the same number of B chunks");
    static_assert(kStageBytes % 128 == 0, "stages stay 128-byte aligned (B swizzle, cp.async)");
    static_assert(kBRegion % 128 == 0 && kERegion % 16 == 0, "regions are aligned for cp.async");
    static_assert(STAGES >= 2, "the pipeline needs at least two stages");
    static_assert(kTile.smem_bytes(kFamily) <= 227 * 1024, "shared memory beyond sm_90's 227 KiB");
    static_assert(BN % 4 == 0 && (epilogue_row_words(BN) * 4) % 16 == 0, "epilogue rows are 16-byte vectors");
};

// ---- epilogue helpers (C reads and D stores in float: ../../kit/device/epilogue_store.cuh) ----
// alpha * acc + beta * C in 64-bit integers, then wrapped (or clamped with saturate) to s32.
__device__ __forceinline__ int32_t int_epilogue(const GemmParams& p, int32_t acc, int64_t i) {
    int64_t x = p.alpha_i * int64_t(acc);
    if (!p.beta_zero) x += p.beta_i * int64_t(static_cast<const int32_t*>(p.c)[i]);
    if (p.saturate) return x > INT32_MAX ? INT32_MAX : (x < INT32_MIN ? INT32_MIN : int32_t(x));
    return int32_t(uint32_t(uint64_t(x)));
}

// Four consecutive 32-bit accumulators of D's row `row` from column `col` on (raw: s32 or f32
// bits) through alpha/beta (and ABI 1.2's scales, bias and activation where the problem has
// them) and the conversion to D: loads of C and stores of D are 16-byte (f32/s32) or 8-byte
// (f16/bf16) vectors where aligned. Rows past m and columns past n are not written.
template <bool kInt>
__device__ __forceinline__ void epilogue_chunk(const GemmParams& p, int row, int col, const uint4 raw) {
    if (row >= p.m || col >= p.n) return;
    const int count = p.n - col < 4 ? p.n - col : 4;
    const int64_t i = int64_t(row) * p.n + col;
    const bool vec = count == 4 && (i & 3) == 0;
    if constexpr (kInt) {
        const int32_t v[4] = {int32_t(raw.x), int32_t(raw.y), int32_t(raw.z), int32_t(raw.w)};
        int32_t* d = static_cast<int32_t*>(p.d) + i;
        if (vec) {
            *reinterpret_cast<int4*>(d) = make_int4(int_epilogue(p, v[0], i), int_epilogue(p, v[1], i + 1),
                                                    int_epilogue(p, v[2], i + 2), int_epilogue(p, v[3], i + 3));
        } else {
            for (int e = 0; e < count; ++e) d[e] = int_epilogue(p, v[e], i + e);
        }
    } else {
        float v[4] = {__uint_as_float(raw.x), __uint_as_float(raw.y), __uint_as_float(raw.z), __uint_as_float(raw.w)};
        // ABI 1.2: alpha * rs[row] * cs[col] in place of alpha, the bias and activation after C
        spmma_epilogue::scale_columns(p.epi, p.alpha, p.n, row, col, v);
        if (!p.beta_zero)
            for (int e = 0; e < count; ++e) v[e] = fmaf(p.beta, spmma_epilogue::load_float(p.c, p.c_type, i + e), v[e]);
        spmma_epilogue::finish_columns(p.epi, p.n, row, col, v);
        spmma_epilogue::store_float4(p.d, p.d_type, i, count, vec, v);
    }
}

// The CTA's accumulators (32-bit, in shared memory at epilogue_offset) to D, each thread taking
// 4 consecutive columns at a time (coalesced rows).
template <bool kInt, int BM, int BN, int kThreads>
__device__ __forceinline__ void epilogue_tile(const GemmParams& p, const uint8_t* tile, int m0, int n0, int tid) {
    constexpr int kChunksPerRow = BN / 4;
#pragma unroll 1
    for (int c = tid; c < BM * kChunksPerRow; c += kThreads) {
        const int r = c / kChunksPerRow, col4 = (c % kChunksPerRow) * 4;
        epilogue_chunk<kInt>(p, m0 + r, n0 + col4, *reinterpret_cast<const uint4*>(tile + epilogue_offset(BN, r, col4)));
    }
}

// Split-K (split_k.hpp): the CTA's partial tile (32-bit accumulators in shared memory at
// epilogue_offset) into its split's m x partials_ld slice of the workspace (rows past m left out); the
// reduction kernel (add_k_splits) adds the slices and writes D.
template <int BM, int BN, int kThreads>
__device__ __forceinline__ void store_partial(const GemmParams& p, const uint8_t* tile, int m0, int n0, int split, int tid) {
    constexpr int kChunksPerRow = BN / 4;
    uint32_t* slice = p.partials + int64_t(split) * p.m * p.partials_ld;
#pragma unroll 1
    for (int c = tid; c < BM * kChunksPerRow; c += kThreads) {
        const int r = c / kChunksPerRow, col4 = (c % kChunksPerRow) * 4;
        if (m0 + r >= p.m) break;  // c grows with r: the rest of the tile lies past m too
        __stcg(reinterpret_cast<uint4*>(slice + int64_t(m0 + r) * p.partials_ld + n0 + col4),
               *reinterpret_cast<const uint4*>(tile + epilogue_offset(BN, r, col4)));
    }
}

// The reduction after a split-K launch, one thread for 4 columns of a row: the k_splits partial
// slices added in split order (the same D from launch to launch), then the epilogue. NOTES: a
// launch of its own, every SM taking part, where the last CTA of a tile adding its tile's
// partials alone measured as a serial tail (plugins/sm80/NOTES.md, "Decode").
template <bool kInt>
__device__ __forceinline__ void add_k_splits(const GemmParams& p) {
    const int64_t chunks_per_row = p.partials_ld / 4;
    const int64_t c = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= int64_t(p.m) * chunks_per_row) return;
    const int row = int(c / chunks_per_row), col = int(c % chunks_per_row) * 4;
    if (col >= p.n) return;
    const int64_t slice = int64_t(p.m) * p.partials_ld;
    const uint4* at = reinterpret_cast<const uint4*>(p.partials + int64_t(row) * p.partials_ld + col);
    // s32 adds wrap as one sum would; f32 adds in split order
    auto add = [](uint32_t a, uint32_t b) { return kInt ? a + b : __float_as_uint(__uint_as_float(a) + __uint_as_float(b)); };
    uint4 sum = __ldcg(at);
    for (int s = 1; s < p.k_splits; ++s) {
        const uint4 v = __ldcg(at + s * slice / 4);
        sum = make_uint4(add(sum.x, v.x), add(sum.y, v.y), add(sum.z, v.z), add(sum.w, v.w));
    }
    epilogue_chunk<kInt>(p, row, col, sum);
}

// ---- the kernel ------------------------------------------------------------------------------
template <class Op, int BM, int BN, int WM, int WN, int STAGES>
__device__ __forceinline__ void spgemm(const GemmParams& p) {
    using C = SpGemmConfig<Op, BM, BN, WM, WN, STAGES>;
    using AccT = typename Op::AccT;
    constexpr Family F = C::kFamily;

    // ---- shared memory: STAGES x [A values | B (swizzled) | metadata] ----
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t smem0 = spmma_ptx::smem_addr(smem);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int warp_m = warp % C::kWarpsM, warp_n = warp / C::kWarpsM;
    // The CTA's tile and, under split-K (the decode tiles, split_k.hpp), its range of the tile's k
    // stages; the other tiles run the whole of k with the range's terms constant.
    constexpr bool kSplitK = C::kTile.splits_k();
    const int tile_id = kSplitK ? int(blockIdx.x) / p.k_splits : int(blockIdx.x);
    const int split = kSplitK ? int(blockIdx.x) - tile_id * p.k_splits : 0;
    const TileCoord tile = raster(tile_id, p.tiles_m, p.tiles_n, p.raster_group);
    const int ks_begin = kSplitK ? k_split_begin(p.k_stages, split, p.k_splits) : 0;
    const int ks_total = kSplitK ? k_split_begin(p.k_stages, split + 1, p.k_splits) - ks_begin : p.k_stages;

    // ---- producer: one stage of A, metadata and B from global memory into `slot` ----
    const int64_t a_stage0 = int64_t(tile.m) * p.k_stages + ks_begin;  // the CTA's first stage block of A
    const uint8_t* g_a = p.a + a_stage0 * a_stage_bytes(BM) + tid * 16;
    const uint8_t* g_e = reinterpret_cast<const uint8_t*>(p.e + a_stage0 * e_stage_words(F, BM)) + tid * 16;
    // Thread tid copies chunk tid % 8 of columns tid / 8 + j * (threads / 8).
    const int b_chunk = tid & 7, b_col0 = tid >> 3;
    const uint8_t* g_b = p.b + (int64_t(tile.n) * BN + b_col0) * p.ldb + int64_t(ks_begin) * kStageKBytes + b_chunk * 16;
    const int64_t g_b_pass = int64_t(C::kThreads / 8) * p.ldb;
    const uint32_t s_b_dst = C::kBRegion + b_smem_offset(b_col0, b_chunk);
    constexpr int kBPassBytes = (C::kThreads / 8) * kStageKBytes;  // smem bytes between passes

    // One stage's copies: A, then metadata, then B, 16-byte cp.async each.
    constexpr int kACopies = C::kAChunks / C::kThreads;
    constexpr int kECopies = (C::kEChunks + C::kThreads - 1) / C::kThreads;
    constexpr int kBCopies = C::kBChunks / C::kThreads;
    // The source of the next stage to fetch, advanced stage by stage (no per-stage multiplies).
    const uint8_t* fetch_a = g_a;
    const uint8_t* fetch_e = g_e;
    const uint8_t* fetch_b = g_b;
    auto advance_fetch = [&]() {
        fetch_a += a_stage_bytes(BM);
        fetch_e += e_stage_words(F, BM) * 4;
        fetch_b += kStageKBytes;
    };
    auto load_stage = [&](int slot) {
        const uint32_t s = smem0 + slot * C::kStageBytes;
#pragma unroll
        for (int j = 0; j < kACopies; ++j)
            spmma_ptx::cp_async_16(s + C::kARegion + (tid + j * C::kThreads) * 16, fetch_a + j * C::kThreads * 16);
#pragma unroll
        for (int j = 0; j < kECopies; ++j)
            if (C::kEChunks % C::kThreads == 0 || tid + j * C::kThreads < C::kEChunks)
                spmma_ptx::cp_async_16(s + C::kERegion + (tid + j * C::kThreads) * 16, fetch_e + j * C::kThreads * 16);
#pragma unroll
        for (int j = 0; j < kBCopies; ++j) spmma_ptx::cp_async_16(s + s_b_dst + j * kBPassBytes, fetch_b + j * g_b_pass);
    };

    // ---- consumer: fragments from shared memory, then mma.sp ----
    AccT acc[C::kMI][C::kNJ][Op::kAccRegs];
#pragma unroll
    for (int i = 0; i < C::kMI; ++i)
#pragma unroll
        for (int j = 0; j < C::kNJ; ++j)
#pragma unroll
            for (int r = 0; r < Op::kAccRegs; ++r) acc[i][j][r] = AccT(0);

    auto load_a = [&](int slot, int step, uint32_t (&a)[C::kMI][4]) {
        const uint8_t* s = smem + slot * C::kStageBytes + C::kARegion;
#pragma unroll
        for (int i = 0; i < C::kMI; ++i) {
            const uint4 v = *reinterpret_cast<const uint4*>(s + a_stage_offset(warp_m * C::kMI + i, step, lane));
            a[i][0] = v.x; a[i][1] = v.y; a[i][2] = v.z; a[i][3] = v.w;
        }
    };
    // B registers of the warp's atom column j (8 columns) for `step` of `slot`: one ldmatrix.x4.
    auto load_b_col = [&](int slot, int step, int j, uint32_t (&bj)[4]) {
        spmma_ptx::ldmatrix_x4(bj, smem0 + slot * C::kStageBytes + C::kBRegion +
                                       b_ldsm_offset(warp_n * WN + j * kAtomCols, step, lane));
    };
    auto load_e = [&](int slot, uint32_t (&e)[C::kMI][C::kEW]) {
        const uint32_t* s = reinterpret_cast<const uint32_t*>(smem + slot * C::kStageBytes + C::kERegion);
#pragma unroll
        for (int i = 0; i < C::kMI; ++i)
#pragma unroll
            for (int w = 0; w < C::kEW; ++w) e[i][w] = s[e_stage_offset(F, warp_m * C::kMI + i, w, lane)];
    };
    // One mma step over the warp tile, B atom column by column (rows serpentine, so the A
    // fragment at each turn is reused). NOTES: B rotates through ONE set of registers: as soon
    // as column j's last mma has been issued, b[j] is refilled with column j of the NEXT step
    // (`next_slot`, `next_step`), so the next step starts with every operand already in
    // registers, and the ldmatrix traffic is spread one per kMI mma instead of arriving as a
    // burst from all warps at once (the barrier keeps the warps in phase).
    auto mma_step = [&](auto step_c, const uint32_t (&a)[C::kMI][4], uint32_t (&b)[C::kNJ][4],
                        const uint32_t (&e)[C::kMI][C::kEW], int next_slot, int next_step) {
        constexpr int kStep = decltype(step_c)::value;
#pragma unroll
        for (int j = 0; j < C::kNJ; ++j) {
#pragma unroll
            for (int ii = 0; ii < C::kMI; ++ii) {
                const int i = (j & 1) ? C::kMI - 1 - ii : ii;
                Op::template mma<F.selector_of_step(kStep)>(acc[i][j], a[i], b[j], e[i][F.e_word_of_step(kStep)]);
            }
            load_b_col(next_slot, next_step, j, b[j]);
        }
    };

    // ---- barriers: the pipeline ----
    // NOTES: one cp.async group per stage (empty groups past the end keep the count uniform), so
    // wait_group<STAGES-2> at stage ks means "stage ks+1 has landed". Shared memory of stage ks
    // is read from the barrier of stage ks-1 (its step-0 A, metadata and B, loaded during
    // step 1 of stage ks-1) to the barrier of stage ks (its step-1 B, loaded during step 0);
    // the slot refilled at stage ks is stage ks-1's, whose reads all precede the barrier of
    // stage ks-1. After the last stage the "next" loads read a stale slot (harmless: no copy is
    // in flight then, and the values are never used).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ks_total) load_stage(s);
        spmma_ptx::cp_async_commit();
        advance_fetch();
    }
    spmma_ptx::cp_async_wait<STAGES - 2>();
    __syncthreads();

    uint32_t a0[C::kMI][4], a1[C::kMI][4], b[C::kNJ][4];
    uint32_t e_cur[C::kMI][C::kEW], e_next[C::kMI][C::kEW];
    load_a(0, 0, a0);
    load_e(0, e_cur);
#pragma unroll
    for (int j = 0; j < C::kNJ; ++j) load_b_col(0, 0, j, b[j]);
    int rd = 0, wr = STAGES - 1;
    // One pipeline stage (two mma steps); kRefill: the stage also refills the free slot.
    auto k_stage = [&](auto refill_c) {
        constexpr bool kRefill = decltype(refill_c)::value;
        // step 0: A of step 1 ahead; mma with B rotating to step 1's; then the refill of the
        // free slot as one block. NOTES: faster at every standard shape than the same copies
        // spread between step 0's B columns (plugins/sm80/NOTES.md, "Refill as one block").
        load_a(rd, 1, a1);
        mma_step(std::integral_constant<int, 0>{}, a0, b, e_cur, rd, 1);
        if constexpr (kRefill) load_stage(wr);
        spmma_ptx::cp_async_commit();
        advance_fetch();
        // step 1: wait for the next stage; its step-0 A and metadata ahead; mma with B rotating
        // to the next stage's step 0.
        spmma_ptx::cp_async_wait<STAGES - 2>();
        // NOTES: the barrier's count (always kThreads) feeds step 1's metadata, so ptxas cannot
        // hoist step 1's mma above the barrier; it would, leaving only a few mma after it to
        // cover the next stage's loads, which must follow the barrier.
        const uint32_t zero = uint32_t(__syncthreads_count(1) - C::kThreads);
        rd = rd + 1 == STAGES ? 0 : rd + 1;
        wr = wr + 1 == STAGES ? 0 : wr + 1;
        load_a(rd, 0, a0);
        load_e(rd, e_next);
        uint32_t e_step1[C::kMI][C::kEW];
#pragma unroll
        for (int i = 0; i < C::kMI; ++i)
#pragma unroll
            for (int w = 0; w < C::kEW; ++w) e_step1[i][w] = e_cur[i][w] ^ zero;
        mma_step(std::integral_constant<int, 1>{}, a1, b, e_step1, rd, 0);
#pragma unroll
        for (int i = 0; i < C::kMI; ++i)
#pragma unroll
            for (int w = 0; w < C::kEW; ++w) e_cur[i][w] = e_next[i][w];
    };
    // NOTES: the last STAGES-1 stages (nothing left to fetch) run in a second copy of the loop,
    // so the main loop's copies are neither predicated nor branched around. With a branch, ptxas
    // schedules the mma block and the copies as separate basic blocks, measured slower
    // (plugins/sm80/NOTES.md, "Refill as one block").
    const int ks_refill = ks_total - (STAGES - 1);
    int ks = 0;
#pragma unroll 1
    for (; ks < ks_refill; ++ks) k_stage(std::true_type{});
#pragma unroll 1
    for (; ks < ks_total; ++ks) k_stage(std::false_type{});

    // ---- epilogue: accumulators to shared memory (32-bit), then alpha/beta, C and the
    // conversion to D in coalesced vectors ----
    spmma_ptx::cp_async_wait<0>();
    __syncthreads();  // every warp is done with the pipeline's shared memory
#pragma unroll
    for (int i = 0; i < C::kMI; ++i)
#pragma unroll
        for (int j = 0; j < C::kNJ; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {  // rows g and g + 8 of the atom
                constexpr bool kF16 = Op::kAcc == op::Acc::F16;
                const int reg = kF16 ? h : 2 * h;  // the pair's first register (layout.hpp cd_row/cd_col)
                const int r = warp_m * WM + i * kAtomRows + cd_row(lane, reg, kF16);
                const int c = warp_n * WN + j * kAtomCols + cd_col(lane, reg, 0, kF16);
                uint8_t* dst = smem + epilogue_offset(BN, r, c);
                if constexpr (Op::kAcc == op::Acc::F16) {
                    const __half2 v = *reinterpret_cast<const __half2*>(&acc[i][j][h]);
                    *reinterpret_cast<float2*>(dst) = __half22float2(v);
                } else if constexpr (Op::kAcc == op::Acc::S32) {
                    *reinterpret_cast<int2*>(dst) = make_int2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                } else {
                    *reinterpret_cast<float2*>(dst) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                }
            }
    __syncthreads();
    if constexpr (kSplitK) {
        if (p.k_splits > 1) {
            store_partial<BM, BN, C::kThreads>(p, smem, tile.m * BM, tile.n * BN, split, tid);
            return;
        }
    }
    epilogue_tile<Op::kAcc == op::Acc::S32, BM, BN, C::kThreads>(p, smem, tile.m * BM, tile.n * BN, tid);
}

}  // namespace spmma_sm80

// The split-K reductions of a kernel file whose list has decode tiles (float and integer
// accumulators): sm80_add_k_splits_f32 / _s32 (add_k_splits, kReduceThreads a CTA).
#define SPMMA_SM80_SPLIT_REDUCTIONS()                                                                      \
    extern "C" __global__ void __launch_bounds__(spmma_sm80::kReduceThreads)                               \
        sm80_add_k_splits_f32(const __grid_constant__ spmma_sm80::GemmParams p) {                          \
        spmma_sm80::add_k_splits<false>(p);                                                                \
    }                                                                                                      \
    extern "C" __global__ void __launch_bounds__(spmma_sm80::kReduceThreads)                               \
        sm80_add_k_splits_s32(const __grid_constant__ spmma_sm80::GemmParams p) {                          \
        spmma_sm80::add_k_splits<true>(p);                                                                 \
    }

// One kernel of a kernel list (include/spmma_sm80/kernels/*.inc, kernel_tiles.hpp).
#define SPMMA_SM80_KERNEL(name, tag, ordered, bm, bn, wm, wn, stages)                                \
    extern "C" __global__ void __launch_bounds__((bm / wm) * (bn / wn) * 32,                          \
                                                 spmma_sm80::Tile{bm, bn, wm, wn, stages}.min_ctas_per_sm()) \
        name(const __grid_constant__ spmma_sm80::GemmParams p) {                                     \
        spmma_sm80::spgemm<spmma_sm80::op::tag<bool(ordered)>, bm, bn, wm, wn, stages>(p);           \
    }

// The sm120a sparse GEMM kernel: D = alpha * A(sparse) * B + beta * C with the sm_120a
// mma.sp::ordered_metadata .kind forms (forms.hpp), block scales included. The data path is
// byte-level (include/spmma_sm120a/layout.hpp): every form moves 64 B-column bytes and 32
// compressed A-row bytes per mma; the form shows only in the instruction, the scale words and the
// epilogue's accumulator type.
//
// Sections: types, shared memory, barriers, producer (cp.async), consumer (fragments + mma.sp),
// epilogue.
#pragma once

#include "mma_ops.cuh"
#include "../../kit/device/epilogue_store.cuh"
#include "../../kit/device/fused_epilogue.cuh"
#include "../../kit/device/ptx_sm80.cuh"

#include <spmma/plugin.h>
#include <spmma_sm120a/layout.hpp>
#include <spmma_sm120a/params.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM120_ALL) && !defined(__CUDA_ARCH_FEAT_SM121_ALL) && \
    !defined(SPMMA_SM120A_SOFTWARE_MMA)
#error "the sm120a kernels use sm_120a-only mma.sp forms: compile for sm_120a or sm_121a"
#endif

namespace spmma_sm120a {

// ---- types ---------------------------------------------------------------------------------
template <class OpT, int BM, int BN, int WM, int WN, int STAGES>
struct SpGemmConfig {
    static constexpr Form kForm = OpT::kForm;
    static constexpr Tile kTile{BM, BN, WM, WN, STAGES};
    static constexpr int kThreads = kTile.threads();
    static constexpr int kWarpsM = BM / WM;
    static constexpr int kMI = WM / kAtomRows;             // 16-row atoms per warp
    static constexpr int kNJ = WN / kAtomCols;             // 8-column atoms per warp
    static constexpr int kPairs = kMI / kAtomsPerScaleA;   // scale-a words per warp and word index
    static constexpr int kQuads = kNJ / kAtomsPerScaleB;   // scale-b words per warp and word index
    static constexpr bool kScaled = kForm.scaled();
    static constexpr int kW = kForm.scale_words();         // 0 unscaled
    static constexpr int kWRegs = kW > 0 ? kW : 1;
    static constexpr int kSmemStage = kTile.stage_bytes(kForm);
    static constexpr int kBRegion = kTile.b_region();
    static constexpr int kERegion = kTile.e_region();
    static constexpr int kSARegion = kTile.sa_region();
    static constexpr int kSBRegion = kTile.sb_region(kForm);
    // 16-byte cp.async chunks of one stage, per region.
    static constexpr int kAChunks = a_stage_bytes(BM) / 16;
    static constexpr int kBChunks = BN * (kStageBytes / 16);
    static constexpr int kEChunks = e_stage_words(BM) * 4 / 16;
    static constexpr int kSAWords = sa_stage_words(kForm, BM);
    static constexpr int kSBWords = sb_stage_words(kForm, BN);
    static constexpr int kSAChunks = kSAWords * 4 / 16;
    static constexpr int kSBChunks = kSBWords * 4 / 16;
    static constexpr int kBid0 = scale_byte_id(kForm, 0), kWord0 = scale_word(kForm, 0);  // step 0's selectors
    static constexpr int kBid1 = scale_byte_id(kForm, 1), kWord1 = scale_word(kForm, 1);  // step 1's
    static constexpr int kLdc = BN + 8;  // floats between rows of the epilogue's staged tile

    static_assert(BM % WM == 0 && BN % WN == 0, "the CTA tile must be a whole number of warp tiles");
    static_assert(WM % (kAtomRows * kAtomsPerScaleA) == 0,
                  "a warp holds whole scale-a atom pairs: thread-id-a is then the atom's parity in the warp");
    static_assert(WN % (kAtomCols * kAtomsPerScaleB) == 0,
                  "a warp holds whole scale-b atom quads: thread-id-b is then the atom's index mod 4 in the warp");
    static_assert(kThreads % 64 == 0, "B copies assume whole groups of 8 columns per pass (swizzle period 8)");
    static_assert(kBChunks % kThreads == 0, "every thread copies the same number of B chunks");
    static_assert(kSmemStage % 128 == 0 && kBRegion % 128 == 0,
                  "stages and B regions stay 128-byte aligned (B swizzle is bank-conflict-free only then)");
    static_assert(kERegion % 16 == 0 && kSARegion % 16 == 0 && kSBRegion % 16 == 0, "regions are cp.async aligned");
    static_assert(STAGES >= 2, "the pipeline needs at least two stages");
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
    static_assert(kThreads <= 256, "the software mma's scratch (mma_software.cuh) holds 8 warps");
#endif
    static_assert(kTile.smem_bytes(kForm) <= 99 * 1024, "shared memory beyond sm_120's 99 KiB per block");
    static_assert(BM * kLdc * 4 <= kTile.smem_bytes(kForm), "the epilogue's f32 tile reuses the pipeline's shared memory");
    static_assert(BN % 4 == 0 && (kLdc * 4) % 16 == 0, "the epilogue reads rows of the staged tile 16 bytes at a time");
    static_assert(kForm.scale_words() <= 2 && (!kForm.scaled() || kForm.mma_k() % kForm.scale_block() == 0),
                  "scale blocks tile the mma step");
};

// The mmas of one step for a warp's MI x NJ atoms. thread-id-a is the atom's parity and
// thread-id-b its index mod 4 within the warp (whole pairs and quads per warp: static_asserts in
// SpGemmConfig), so each (pair, quad) issues its 2 x 4 mmas with immediate selectors.
template <class OpT, int Bid, int Word, int MI, int NJ, int WR>
__device__ __forceinline__ void mma_atoms(typename OpT::AccT (&acc)[MI][NJ][OpT::kAccRegs], const uint32_t (&a)[MI][4],
                                          const uint32_t (&b)[NJ][4], const uint32_t (&e)[MI],
                                          const uint32_t (&sa)[MI / kAtomsPerScaleA][WR],
                                          const uint32_t (&sb)[NJ / kAtomsPerScaleB][WR]) {
#define SPMMA_SM120A_MMA(TA, TB)                                                                    \
    OpT::template mma<Bid, TA, Bid, TB>(acc[2 * q + TA][4 * r + TB], a[2 * q + TA], b[4 * r + TB], \
                                        e[2 * q + TA], sa[q][Word], sb[r][Word]);
#pragma unroll
    for (int q = 0; q < MI / kAtomsPerScaleA; ++q)
#pragma unroll
        for (int r = 0; r < NJ / kAtomsPerScaleB; ++r) {
            SPMMA_SM120A_MMA(0, 0) SPMMA_SM120A_MMA(0, 1) SPMMA_SM120A_MMA(0, 2) SPMMA_SM120A_MMA(0, 3)
            SPMMA_SM120A_MMA(1, 0) SPMMA_SM120A_MMA(1, 1) SPMMA_SM120A_MMA(1, 2) SPMMA_SM120A_MMA(1, 3)
        }
#undef SPMMA_SM120A_MMA
}

// ---- producer helper -------------------------------------------------------------------------
// Copies kChunks 16-byte chunks from src to shared address dst, spread over the CTA's threads.
template <int kChunks, int kThreads>
__device__ __forceinline__ void copy_chunks(uint32_t dst, const uint8_t* src, int tid) {
#pragma unroll
    for (int j = 0; j < (kChunks + kThreads - 1) / kThreads; ++j) {
        const int c = tid + j * kThreads;
        if (kChunks % kThreads == 0 || c < kChunks) spmma_ptx::cp_async_16(dst + c * 16, src + int64_t(c) * 16);
    }
}

// ---- epilogue helpers ------------------------------------------------------------------------
// Columns col .. col + 3 of row `row` (those below n): D = alpha * v + beta * C, rounded to the
// nearest even in d_type; one vector load and store when all four exist and are aligned. With
// ABI 1.2's epilogue, alpha * rs[row] * cs[col] in place of alpha and the bias and activation
// after C (fused_epilogue.cuh; columns past n read the last column's values, never stored).
__device__ __forceinline__ void epilogue_vec4(const GemmParams& p, int row, int col, float4 v) {
    const int64_t i = int64_t(row) * p.n + col;
    const int count = p.n - col < 4 ? p.n - col : 4;
    const bool vec = count == 4 && (i & 3) == 0;
    float x[4] = {v.x, v.y, v.z, v.w};
    spmma_epilogue::scale_columns(p.epi, p.alpha, p.n, row, col, x);
    if (!p.beta_zero) {
        float c[4] = {0.f, 0.f, 0.f, 0.f};
        if (vec && p.c_type == SPMMA_F32) {
            const float4 c4 = *reinterpret_cast<const float4*>(static_cast<const float*>(p.c) + i);
            c[0] = c4.x, c[1] = c4.y, c[2] = c4.z, c[3] = c4.w;
        } else if (vec && p.c_type == SPMMA_F16) {
            const uint2 u = *reinterpret_cast<const uint2*>(static_cast<const __half*>(p.c) + i);
            const float2 lo = __half22float2(*reinterpret_cast<const __half2*>(&u.x));
            const float2 hi = __half22float2(*reinterpret_cast<const __half2*>(&u.y));
            c[0] = lo.x, c[1] = lo.y, c[2] = hi.x, c[3] = hi.y;
        } else if (vec && p.c_type == SPMMA_BF16) {
            const uint2 u = *reinterpret_cast<const uint2*>(static_cast<const __nv_bfloat16*>(p.c) + i);
            const float2 lo = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
            const float2 hi = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
            c[0] = lo.x, c[1] = lo.y, c[2] = hi.x, c[3] = hi.y;
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                if (e >= count) break;
                c[e] = spmma_epilogue::load_float(p.c, p.c_type, i + e);
            }
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) x[e] = fmaf(p.beta, c[e], x[e]);
    }
    spmma_epilogue::finish_columns(p.epi, p.n, row, col, x);
    spmma_epilogue::store_float4(p.d, p.d_type, i, count, vec, x);
}

// ---- the kernel ------------------------------------------------------------------------------
template <class OpT, int BM, int BN, int WM, int WN, int STAGES>
__device__ __forceinline__ void spgemm(const GemmParams& p) {
    using C = SpGemmConfig<OpT, BM, BN, WM, WN, STAGES>;
    using AccT = typename OpT::AccT;
    constexpr int MI = C::kMI, NJ = C::kNJ, T = C::kThreads;

    // ---- shared memory: STAGES x [A values | B (swizzled) | metadata | scale A | scale B] ----
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t smem0 = spmma_ptx::smem_addr(smem);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int warp_m = warp % C::kWarpsM, warp_n = warp / C::kWarpsM;
    const TileCoord tile = raster(blockIdx.x, p.tiles_m, p.tiles_n, p.raster_group);
    const int ks_total = p.k_stages;

    // ---- producer: one stage of every operand from global memory into `slot` ----
    const int64_t m_blocks = int64_t(tile.m) * ks_total, n_blocks = int64_t(tile.n) * ks_total;
    const uint8_t* g_a = p.a + m_blocks * a_stage_bytes(BM);
    const uint8_t* g_e = reinterpret_cast<const uint8_t*>(p.e + m_blocks * e_stage_words(BM));
    const uint8_t* g_sa = C::kScaled ? reinterpret_cast<const uint8_t*>(p.sa + m_blocks * C::kSAWords) : nullptr;
    const uint8_t* g_sb = C::kScaled ? reinterpret_cast<const uint8_t*>(p.sb + n_blocks * C::kSBWords) : nullptr;
    // Thread tid copies chunk tid % 8 of columns tid / 8 + j * (T / 8); the swizzle's period (8
    // columns) divides T / 8, so each pass lands at a fixed shared-memory stride.
    const int b_chunk = tid & 7, b_col = tid >> 3;
    const uint8_t* g_b = p.b + (int64_t(tile.n) * BN + b_col) * p.ldb + b_chunk * 16;
    const int64_t g_b_pass = int64_t(T / 8) * p.ldb;
    const uint32_t s_b_dst = C::kBRegion + b_smem_offset(b_col, b_chunk);
    constexpr int kBPassBytes = (T / 8) * kStageBytes;

    auto load_stage = [&](int slot, int ks) {
        const uint32_t s = smem0 + slot * C::kSmemStage;
        copy_chunks<C::kAChunks, T>(s, g_a + int64_t(ks) * a_stage_bytes(BM), tid);
        copy_chunks<C::kEChunks, T>(s + C::kERegion, g_e + int64_t(ks) * e_stage_words(BM) * 4, tid);
        if constexpr (C::kScaled) {
            copy_chunks<C::kSAChunks, T>(s + C::kSARegion, g_sa + int64_t(ks) * C::kSAWords * 4, tid);
            copy_chunks<C::kSBChunks, T>(s + C::kSBRegion, g_sb + int64_t(ks) * C::kSBWords * 4, tid);
        }
        const uint8_t* b = g_b + int64_t(ks) * kStageBytes;
#pragma unroll
        for (int j = 0; j < C::kBChunks / T; ++j) spmma_ptx::cp_async_16(s + s_b_dst + j * kBPassBytes, b + j * g_b_pass);
    };

    // ---- consumer: fragments from shared memory, then mma.sp ----
    AccT acc[MI][NJ][OpT::kAccRegs];
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NJ; ++j)
#pragma unroll
            for (int r = 0; r < OpT::kAccRegs; ++r) acc[i][j][r] = AccT(0);

    const int atom0 = warp_m * MI, natom0 = warp_n * NJ;  // the warp's first atoms in the CTA
    auto load_a = [&](int slot, int step, uint32_t (&a)[MI][4]) {
        const uint8_t* s = smem + slot * C::kSmemStage;
#pragma unroll
        for (int i = 0; i < MI; ++i) {
            const uint4 v = *reinterpret_cast<const uint4*>(s + a_stage_offset(atom0 + i, step, lane));
            a[i][0] = v.x;
            a[i][1] = v.y;
            a[i][2] = v.z;
            a[i][3] = v.w;
        }
    };
    auto load_e = [&](int slot, int step, uint32_t (&e)[MI]) {
        const uint32_t* s = reinterpret_cast<const uint32_t*>(smem + slot * C::kSmemStage + C::kERegion);
#pragma unroll
        for (int i = 0; i < MI; ++i) e[i] = s[e_stage_offset(atom0 + i, step, lane)];
    };
    auto load_b = [&](int slot, int step, uint32_t (&b)[NJ][4]) {
        const uint32_t s = smem0 + slot * C::kSmemStage + C::kBRegion;
#pragma unroll
        for (int j = 0; j < NJ; ++j) spmma_ptx::ldmatrix_x4(b[j], s + b_ldsm_offset((natom0 + j) * kAtomCols, step, lane));
    };
    auto load_scales = [&](int slot, uint32_t (&sa)[C::kPairs][C::kWRegs], uint32_t (&sb)[C::kQuads][C::kWRegs]) {
        if constexpr (C::kScaled) {
            const uint8_t* s = smem + slot * C::kSmemStage;
            const uint32_t* ssa = reinterpret_cast<const uint32_t*>(s + C::kSARegion);
            const uint32_t* ssb = reinterpret_cast<const uint32_t*>(s + C::kSBRegion);
#pragma unroll
            for (int w = 0; w < C::kW; ++w) {
#pragma unroll
                for (int q = 0; q < C::kPairs; ++q) sa[q][w] = ssa[sa_stage_offset(C::kW, atom0 / kAtomsPerScaleA + q, w, lane)];
#pragma unroll
                for (int q = 0; q < C::kQuads; ++q) sb[q][w] = ssb[sb_stage_offset(C::kW, natom0 / kAtomsPerScaleB + q, w, lane)];
            }
        } else {
            sa[0][0] = sb[0][0] = 0;  // ignored by the unscaled wrappers
        }
    };
    // ---- barriers: the pipeline ----
    // NOTES: one cp.async group per stage (empty groups past the end keep the count uniform), so
    // wait_group<STAGES-2> means "the next stage has landed". The slot refilled at stage ks held
    // stage ks-1, whose last reads (its step-1 fragments) come before the barrier of stage ks-1.
    // Fragments are double-buffered: step 1's are read while step 0 multiplies, the next stage's
    // step 0 (and scale words) while step 1 multiplies.
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ks_total) load_stage(s, s);
        spmma_ptx::cp_async_commit();
    }
    spmma_ptx::cp_async_wait<STAGES - 2>();
    __syncthreads();

    uint32_t a0[MI][4], a1[MI][4], b0[NJ][4], b1[NJ][4], e0[MI], e1[MI];
    uint32_t sa[C::kPairs][C::kWRegs], sb[C::kQuads][C::kWRegs];
    uint32_t sa_next[C::kPairs][C::kWRegs], sb_next[C::kQuads][C::kWRegs];
    load_a(0, 0, a0);
    load_e(0, 0, e0);
    load_b(0, 0, b0);
    load_scales(0, sa, sb);
    int rd = 0, wr = STAGES - 1;
#pragma unroll 1
    for (int ks = 0; ks < ks_total; ++ks) {
        // step 0: step 1's fragments (the slot's last reads), refill the free slot, multiply.
        load_a(rd, 1, a1);
        load_e(rd, 1, e1);
        load_b(rd, 1, b1);
        if (ks + STAGES - 1 < ks_total) load_stage(wr, ks + STAGES - 1);
        spmma_ptx::cp_async_commit();
        mma_atoms<OpT, C::kBid0, C::kWord0, MI, NJ, C::kWRegs>(acc, a0, b0, e0, sa, sb);
        // step 1: wait for the next stage, read its step-0 fragments and scales, multiply.
        spmma_ptx::cp_async_wait<STAGES - 2>();
        __syncthreads();
        rd = rd + 1 == STAGES ? 0 : rd + 1;
        wr = wr + 1 == STAGES ? 0 : wr + 1;
        if (ks + 1 < ks_total) {
            load_a(rd, 0, a0);
            load_e(rd, 0, e0);
            load_b(rd, 0, b0);
            load_scales(rd, sa_next, sb_next);
        }
        mma_atoms<OpT, C::kBid1, C::kWord1, MI, NJ, C::kWRegs>(acc, a1, b1, e1, sa, sb);
        if constexpr (C::kScaled) {
#pragma unroll
            for (int w = 0; w < C::kW; ++w) {
#pragma unroll
                for (int q = 0; q < C::kPairs; ++q) sa[q][w] = sa_next[q][w];
#pragma unroll
                for (int q = 0; q < C::kQuads; ++q) sb[q][w] = sb_next[q][w];
            }
        }
    }

    // ---- epilogue: accumulators -> shared memory (f32) -> alpha * acc + beta * C, rounded to
    // D's type, stored four columns a thread, a warp's stores contiguous along a row ----
    // NOTES: the rows of the staged tile are BN + 8 floats apart, so the float2 writes of a warp
    // (8 rows x 4 lanes per half-warp phase) hit 32 distinct banks.
    spmma_ptx::cp_async_wait<0>();
    __syncthreads();  // every warp is done with the pipeline's shared memory
    float* cs = reinterpret_cast<float*>(smem);
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
            const int col = warp_n * WN + j * kAtomCols + cd_col(lane, 0, 0, OpT::kF16Acc);
#pragma unroll
            for (int h = 0; h < 2; ++h) {  // rows g and g + 8
                const int row = warp_m * WM + i * kAtomRows + cd_row(lane, OpT::kF16Acc ? h : 2 * h, OpT::kF16Acc);
                float2 v;
                if constexpr (OpT::kF16Acc) {
                    v = __half22float2(*reinterpret_cast<const __half2*>(&acc[i][j][h]));
                } else {
                    v = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                }
                *reinterpret_cast<float2*>(cs + row * C::kLdc + col) = v;
            }
        }
    __syncthreads();
    constexpr int kVecPerRow = BN / 4;
#pragma unroll 1
    for (int idx = tid; idx < BM * kVecPerRow; idx += T) {
        const int r = idx / kVecPerRow, c4 = idx % kVecPerRow;
        const int row = tile.m * BM + r, col = tile.n * BN + 4 * c4;
        if (row < p.m && col < p.n) epilogue_vec4(p, row, col, *reinterpret_cast<const float4*>(cs + r * C::kLdc + 4 * c4));
    }
}

}  // namespace spmma_sm120a

// One kernel of a kernel list (include/spmma_sm120a/kernels/*.inc, kernel_tiles.hpp).
#define SPMMA_SM120A_KERNEL(name, KIND, A, B, ACC, SV, SCALE, bm, bn, wm, wn, stages)                   \
    extern "C" __global__ void __launch_bounds__((bm / wm) * (bn / wn) * 32, 1)                          \
        name(const __grid_constant__ spmma_sm120a::GemmParams p) {                                      \
        spmma_sm120a::spgemm<spmma_sm120a::Op<spmma_sm120a::Kind::KIND, SPMMA_##A, SPMMA_##B, SPMMA_##ACC, SV, \
                                              SPMMA_##SCALE>,                                           \
                             bm, bn, wm, wn, stages>(p);                                                \
    }

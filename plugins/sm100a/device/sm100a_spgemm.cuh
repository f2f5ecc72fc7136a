// The sm100a structured-sparse GEMM: D = alpha * A * B + beta * C with A 2:4 (1:2 for tf32,
// pairwise 4:8 for mxf4*) sparse, on tcgen05.mma.sp with the accumulator in tensor memory. One
// template for every kind; the kernel files (sm100a_spgemm_<kind>.cu) instantiate it per tile
// configuration from the lines of include/spmma_sm100a/kernels/<kind>.inc.
//
// Shape of the kernel (plugins/sm100a/NOTES.md says more):
//   - persistent: one CTA (or CTA pair) per SM (pair of SMs), walking output tiles in a banded
//     raster order (TileScheduler);
//   - warp specialised (tile_config.hpp): warp 0 issues TMA copies of the compressed A tile, the
//     B tile, the metadata chunk and the scale chunks into a ring of stages (mbarriers "full");
//     warp 1 owns tensor memory and one of its threads moves each stage's metadata and scales to
//     tensor memory (tcgen05.cp) and issues the stage's two tcgen05.mma.sp, then frees the stage
//     with tcgen05.commit (mbarriers "empty"); warps 2..5 are the epilogue: tcgen05.ld of D,
//     alpha/beta, conversion, stores with m and n tails checked; C is read only when beta != 0;
//   - accumulators: one or two buffers in tensor memory (acc_full / acc_empty mbarriers), so the
//     epilogue of a tile overlaps the mainloop of the next when two fit;
//   - cta_group::2: a CTA pair computes a 256-row tile; each CTA loads its 128 rows of A, its
//     half of B's columns, its metadata and the whole tile's scale B, all completing on the even
//     CTA's full barrier; the even CTA's MMA thread issues for both, and its commits arrive on
//     both CTAs' barriers.
// Sections: types, shared memory, barriers, producer, consumer (MMA issue), epilogue.
#pragma once

#include <cuda.h>  // CUtensorMap
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <spmma/plugin.h>
#include <spmma_sm100a/descriptors.hpp>
#include <spmma_sm100a/kernel_params.hpp>
#include <spmma_sm100a/tile_config.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "fused_epilogue.cuh"
#include "ptx_sm100a_tcgen05.cuh"
#include "ptx_sm90.cuh"
#include "static_for.cuh"

namespace spmma_sm100a {

// ================================ types ==========================================================

enum class AccKind { F32, F16, S32 };

template <Kind K, ScaleVec SV, AccKind ACC, int CG, int BN, int STAGES>
struct SpGemm {
    static constexpr TileConfig cfg{K, SV, CG, BN, STAGES};
    static constexpr Kind kKind = K;
    static constexpr ScaleVec kScaleVec = SV;
    static constexpr AccKind kAcc = ACC;
    static constexpr bool kScaled = is_block_scaled(K);
    static constexpr int kAccBuffers = cfg.acc_buffers();
    // Tensor-memory allocation: a power of two of at least 32 columns covering what the layout uses.
    static constexpr uint32_t kTmemAlloc = cfg.tmem_columns_used() <= 32    ? 32
                                           : cfg.tmem_columns_used() <= 64  ? 64
                                           : cfg.tmem_columns_used() <= 128 ? 128
                                           : cfg.tmem_columns_used() <= 256 ? 256
                                                                            : 512;

    static_assert(cfg.valid(), "tile configuration breaks an invariant of TileConfig::valid()");
    static_assert(cfg.a_stage_bytes() % 1024 == 0 && cfg.b_stage_bytes() % 1024 == 0,
                  "A and B stages must keep the 1024-byte alignment of the swizzle patterns");
    static_assert(cfg.meta_stage_bytes() % 128 == 0 && kScaleTileBytes % 128 == 0,
                  "TMA destinations must be 128-byte aligned");
    static_assert(cfg.bk() * traits(K).elem_bits / 8 == kStageBRowBytes, "a stage is one 128-byte B row");
    static_assert(cfg.tmem_columns_used() <= kTmemColumns, "tensor memory overflow");
    static_assert(cfg.meta_column(0) % 4 == 0, "metadata slots must be 4-column aligned (selector pairs)");
    static_assert(ACC == AccKind::S32 ? K == Kind::I8 : K != Kind::I8, "kind::i8 accumulates in s32, only it");
    static_assert(ACC != AccKind::F16 || K == Kind::F16 || K == Kind::F8F6F4,
                  "f16 accumulation exists for kind::f16 and kind::f8f6f4 only");
    static_assert(kThreads == 192 && kEpilogueWarps * 32 == kRowsPerCta, "one epilogue thread per row");
};

// Which output tile a CTA (pair) computes at step L of the persistent loop: bands of `group`
// tile rows, inside a band down first then across, so that the tiles in flight together share
// a few row blocks of A and column blocks of B in L2.
struct TileScheduler {
    int tiles_m, tiles_n, group;

    __device__ int total() const { return tiles_m * tiles_n; }
    __device__ void tile(int L, int& tm, int& tn) const {
        const int per_band = group * tiles_n;
        const int band = L / per_band, r = L % per_band;
        const int first = band * group;
        const int h = min(group, tiles_m - first);
        tm = first + r % h;
        tn = r / h;
    }
};

using spmma_device::static_for;  // a loop with a compile-time index (static_for.cuh)

// ================================ epilogue helpers =================================================

__device__ __forceinline__ int32_t finish_int(int64_t v, bool saturate) {
    if (saturate) return static_cast<int32_t>(v < INT32_MIN ? INT32_MIN : (v > INT32_MAX ? INT32_MAX : v));
    return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

// Accumulator cell -> float: f32 bits, or an f16 in bits 15..0 (one f16 accumulator a column).
template <AccKind ACC>
__device__ __forceinline__ float acc_value(uint32_t cell) {
    if constexpr (ACC == AccKind::F16) {
        return __half2float(__ushort_as_half(static_cast<unsigned short>(cell & 0xffffu)));
    } else {
        return __uint_as_float(cell);
    }
}

// 16 consecutive columns of one row (row, col .. col + 15 at d-offset off): D = alpha * acc +
// beta * C, rounded to nearest even into Out (float, __half, __nv_bfloat16). `vec`: the 16
// columns are inside n and 16-byte aligned. With ABI 1.2's epilogue, alpha * rs[row] * cs[col]
// in place of alpha and the bias and activation after C (fused_epilogue.cuh; columns past n read
// the last column's values and are not stored).
template <AccKind ACC, class Out>
__device__ __forceinline__ void store_float16(const KernelParams& p, const uint32_t (&r)[16], int64_t off, int count,
                                              bool vec, int row, int col) {
    float v[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) v[i] = acc_value<ACC>(r[i]);
    spmma_epilogue::scale_columns(p.epi, p.alpha, p.n, row, col, v);
    if (p.use_c) {
        const float* c = static_cast<const float*>(p.c) + off;
        if (vec) {
#pragma unroll
            for (int i = 0; i < 16; i += 4) {
                const float4 cv = *reinterpret_cast<const float4*>(c + i);
                v[i] = fmaf(p.beta, cv.x, v[i]);
                v[i + 1] = fmaf(p.beta, cv.y, v[i + 1]);
                v[i + 2] = fmaf(p.beta, cv.z, v[i + 2]);
                v[i + 3] = fmaf(p.beta, cv.w, v[i + 3]);
            }
        } else {
#pragma unroll
            for (int i = 0; i < 16; ++i)
                if (i < count) v[i] = fmaf(p.beta, c[i], v[i]);
        }
    }
    spmma_epilogue::finish_columns(p.epi, p.n, row, col, v);
    Out* d = static_cast<Out*>(p.d) + off;
    if constexpr (std::is_same_v<Out, float>) {
        if (vec) {
#pragma unroll
            for (int i = 0; i < 16; i += 4) *reinterpret_cast<float4*>(d + i) = make_float4(v[i], v[i + 1], v[i + 2], v[i + 3]);
        } else {
#pragma unroll
            for (int i = 0; i < 16; ++i)
                if (i < count) d[i] = v[i];
        }
    } else {
        uint16_t o[16];  // the bits of the 16 results
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            if constexpr (std::is_same_v<Out, __half>) o[i] = __half_as_ushort(__float2half_rn(v[i]));
            else o[i] = __bfloat16_as_ushort(__float2bfloat16_rn(v[i]));
        }
        if (vec) {
            uint32_t w[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) w[i] = static_cast<uint32_t>(o[2 * i]) | (static_cast<uint32_t>(o[2 * i + 1]) << 16);
            *reinterpret_cast<uint4*>(d) = make_uint4(w[0], w[1], w[2], w[3]);
            *reinterpret_cast<uint4*>(d + 8) = make_uint4(w[4], w[5], w[6], w[7]);
        } else {
            uint16_t* dbits = reinterpret_cast<uint16_t*>(d);
#pragma unroll
            for (int i = 0; i < 16; ++i)
                if (i < count) dbits[i] = o[i];
        }
    }
}

// Integer epilogue of 16 columns: D = alpha * acc + beta * C in 64-bit arithmetic, then wrapped
// to 32 bits or clamped.
__device__ __forceinline__ void store_int16(const KernelParams& p, const uint32_t (&r)[16], int64_t off, int count,
                                            bool vec) {
    const int32_t* c = static_cast<const int32_t*>(p.c) + off;
    int32_t* d = static_cast<int32_t*>(p.d) + off;
    const bool sat = p.saturate != 0;
    int32_t o[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
        int64_t v = p.alpha_i * static_cast<int64_t>(static_cast<int32_t>(r[i]));
        if (p.use_c && i < count) v += p.beta_i * static_cast<int64_t>(c[i]);
        o[i] = finish_int(v, sat);
    }
    if (vec) {
#pragma unroll
        for (int i = 0; i < 16; i += 4) *reinterpret_cast<int4*>(d + i) = make_int4(o[i], o[i + 1], o[i + 2], o[i + 3]);
    } else {
#pragma unroll
        for (int i = 0; i < 16; ++i)
            if (i < count) d[i] = o[i];
    }
}

// ================================ the kernel =====================================================

template <class G>
__device__ __forceinline__ void spgemm_body(const CUtensorMap* tm_a, const CUtensorMap* tm_b, const CUtensorMap* tm_e,
                                            const CUtensorMap* tm_sfa, const CUtensorMap* tm_sfb,
                                            const KernelParams& p) {
    using namespace spmma_ptx;
    constexpr TileConfig cfg = G::cfg;
    constexpr Kind K = G::kKind;
    constexpr ScaleVec SV = G::kScaleVec;
    constexpr int CG = cfg.cg, BN = cfg.bn, STAGES = cfg.stages, ACC_BUFS = G::kAccBuffers;
    constexpr uint16_t kPairMask = 0x3;  // the two CTAs of the pair (the cluster is the pair)

    // ---- shared memory: [A][B][metadata][scale A][scale B] stages, barriers, tmem base slot ----
    extern __shared__ uint8_t smem_raw[];
    const uint32_t raw_addr = smem_addr(smem_raw);
    const uint32_t base = (raw_addr + 1023u) & ~1023u;
    auto a_stage = [&](int s) { return base + cfg.a_offset() + s * cfg.a_stage_bytes(); };
    auto b_stage = [&](int s) { return base + cfg.b_offset() + s * cfg.b_stage_bytes(); };
    auto meta_stage = [&](int s) { return base + cfg.meta_offset() + s * cfg.meta_stage_bytes(); };
    auto sfa_stage = [&](int s) { return base + cfg.sfa_offset() + s * cfg.sfa_stage_bytes(); };
    auto sfb_stage = [&](int s) { return base + cfg.sfb_offset() + s * cfg.sfb_stage_bytes(); };
    auto full_bar = [&](int s) { return base + cfg.barrier_offset() + 8 * s; };
    auto empty_bar = [&](int s) { return base + cfg.barrier_offset() + 8 * (STAGES + s); };
    auto acc_full_bar = [&](int b) { return base + cfg.barrier_offset() + 8 * (2 * STAGES + b); };
    auto acc_empty_bar = [&](int b) { return base + cfg.barrier_offset() + 8 * (2 * STAGES + ACC_BUFS + b); };
    const uint32_t tmem_slot = base + cfg.tmem_slot_offset();
    const volatile uint32_t* tmem_slot_ptr =
        reinterpret_cast<const volatile uint32_t*>(smem_raw + (tmem_slot - raw_addr));

    const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
    const uint32_t cluster_rank = CG == 2 ? cluster_ctarank() : 0u;
    const int rank = static_cast<int>(cluster_rank & 1u);  // place in the CTA pair
    const uint32_t even_rank = cluster_rank & ~1u;         // the pair's even CTA (issues the MMAs)

    // ---- barriers ----
    // full[s]: the even CTA's producer arrives once (expecting the bytes of both CTAs' loads).
    // empty[s], acc_full[b]: one arrival from the MMA thread's tcgen05.commit.
    // acc_empty[b]: one arrival per epilogue warp of every CTA of the group.
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbarrier_init(full_bar(s), 1);
            mbarrier_init(empty_bar(s), 1);
        }
        for (int b = 0; b < ACC_BUFS; ++b) {
            mbarrier_init(acc_full_bar(b), 1);
            mbarrier_init(acc_empty_bar(b), kEpilogueWarps * CG);
        }
        fence_mbarrier_init_cluster();
    }
    if (warp == kMmaWarp) {
        tmem_alloc<CG>(tmem_slot, G::kTmemAlloc);
        tmem_relinquish_alloc_permit<CG>();
    }
    tcgen05_fence_before_thread_sync();
    if constexpr (CG == 2) {
        cluster_sync();
    } else {
        __syncthreads();
    }
    tcgen05_fence_after_thread_sync();
    const uint32_t tmem_base = *tmem_slot_ptr;

    const TileScheduler sched{p.tiles_m, p.tiles_n, p.raster_group > 0 ? p.raster_group : 1};
    const int first_tile = CG == 2 ? static_cast<int>(cluster_id_x()) : static_cast<int>(blockIdx.x);
    const int tile_step = CG == 2 ? static_cast<int>(cluster_count_x()) : static_cast<int>(gridDim.x);
    const int k_stages = p.k_stages;

    if (warp == kProducerWarp) {
        // ================================ producer ================================
        if (elect_one()) {
            prefetch_tensormap(tm_a);
            prefetch_tensormap(tm_b);
            prefetch_tensormap(tm_e);
            if constexpr (G::kScaled) {
                prefetch_tensormap(tm_sfa);
                prefetch_tensormap(tm_sfb);
            }
            auto load = [&](uint32_t dst, const CUtensorMap* map, int s, int c0, int c1) {
                if constexpr (CG == 1) {
                    tma_load_2d(dst, map, full_bar(s), c0, c1);
                } else {
                    tma_load_2d_cta_pair(dst, map, mapa_shared_cluster(full_bar(s), even_rank), c0, c1);
                }
            };
            int stage = 0;
            uint32_t phase = 0;
            for (int L = first_tile; L < sched.total(); L += tile_step) {
                int tm, tn;
                sched.tile(L, tm, tn);
                const int m_block = tm * CG + rank;  // this CTA's 128-row block of A
                const int a_row = m_block * kRowsPerCta;
                const int b_row = tn * BN + rank * cfg.bn_cta();
                for (int kt = 0; kt < k_stages; ++kt) {
                    mbarrier_wait_parity(empty_bar(stage), phase ^ 1u);
                    if (rank == 0) mbarrier_arrive_expect_tx(full_bar(stage), cfg.stage_tx_bytes());
                    load(a_stage(stage), tm_a, stage, kt * kStageARowBytes, a_row);
                    load(b_stage(stage), tm_b, stage, kt * kStageBRowBytes, b_row);
                    load(meta_stage(stage), tm_e, stage, 0, (m_block * k_stages + kt) * kRowsPerCta);
                    if constexpr (G::kScaled) {
                        load(sfa_stage(stage), tm_sfa, stage, 0, (m_block * k_stages + kt) * cfg.sfa_tiles() * kScaleTileRows);
                        load(sfb_stage(stage), tm_sfb, stage, 0, (tn * k_stages + kt) * cfg.sfb_tiles() * kScaleTileRows);
                    }
                    if (++stage == STAGES) {
                        stage = 0;
                        phase ^= 1u;
                    }
                }
            }
        }
    } else if (warp == kMmaWarp) {
        // ================================ consumer (MMA issue) ================================
        if (rank == 0 && elect_one()) {
            int stage = 0, acc = 0;
            uint32_t phase = 0, acc_phase = 0;
            for (int L = first_tile; L < sched.total(); L += tile_step) {
                mbarrier_wait_parity(acc_empty_bar(acc), acc_phase ^ 1u);
                tcgen05_fence_after_thread_sync();
                const uint32_t d_tmem = tmem_base + static_cast<uint32_t>(cfg.acc_column(acc));
                for (int kt = 0; kt < k_stages; ++kt) {
                    mbarrier_wait_parity(full_bar(stage), phase);
                    tcgen05_fence_after_thread_sync();
                    // Metadata and scales of the stage -> its tensor-memory slots. tcgen05.cp and
                    // tcgen05.mma from one thread execute in issue order, and the slot's previous
                    // readers completed before this stage's full barrier could complete again.
                    tcgen05_cp_128x128b<CG>(tmem_base + static_cast<uint32_t>(cfg.meta_column(stage)),
                                            rows16_desc(meta_stage(stage)));
                    if constexpr (G::kScaled) {
#pragma unroll
                        for (int i = 0; i < cfg.sfa_tiles(); ++i)
                            tcgen05_cp_32x128b_warpx4<CG>(
                                tmem_base + static_cast<uint32_t>(cfg.sfa_column(stage) + kScaleColsPerTile * i),
                                rows16_desc(sfa_stage(stage) + kScaleTileBytes * i));
#pragma unroll
                        for (int i = 0; i < cfg.sfb_tiles(); ++i)
                            tcgen05_cp_32x128b_warpx4<CG>(
                                tmem_base + static_cast<uint32_t>(cfg.sfb_column(stage) + kScaleColsPerTile * i),
                                rows16_desc(sfb_stage(stage) + kScaleTileBytes * i));
                    }
                    static_for<kStepsPerStage>([&](auto step_c) {
                        constexpr int step = decltype(step_c)::value;
                        const MetaOperand meta = meta_operand(K, static_cast<uint32_t>(cfg.meta_column(stage)), step);
                        uint32_t idesc = idesc_with_selector(p.idesc, meta.selector);
                        uint32_t sfa = 0, sfb = 0;
                        if constexpr (G::kScaled) {
                            constexpr int id = scale_id_of_step(SV, step), tile = scale_tile_of_step(SV, step);
                            idesc = idesc_with_scale_ids(idesc, id, id);
                            sfa = tmem_base + static_cast<uint32_t>(cfg.sfa_column(stage) + kScaleColsPerTile * tile);
                            sfb = tmem_base +
                                  static_cast<uint32_t>(cfg.sfb_column(stage) + kScaleColsPerTile * cfg.n_groups() * tile);
                        }
                        tcgen05_mma_sp<K, CG, SV>(d_tmem, a_desc(a_stage(stage), step), b_desc(b_stage(stage), step),
                                                  tmem_base + meta.column, idesc, sfa, sfb,
                                                  (kt > 0 || step > 0) ? 1u : 0u);
                    });
                    tcgen05_commit<CG>(empty_bar(stage), kPairMask);
                    if (++stage == STAGES) {
                        stage = 0;
                        phase ^= 1u;
                    }
                }
                tcgen05_commit<CG>(acc_full_bar(acc), kPairMask);
                if (++acc == ACC_BUFS) {
                    acc = 0;
                    acc_phase ^= 1u;
                }
            }
        }
    } else {
        // ================================ epilogue ================================
        const int quarter = warp % 4;  // the 32 tensor-memory lanes this warp may read
        const int row_in_cta = 32 * quarter + lane;
        const bool vec_ok = G::kAcc == AccKind::S32 || p.d_type == SPMMA_F32 ? (p.n % 4) == 0 : (p.n % 8) == 0;
        int acc = 0;
        uint32_t acc_phase = 0;
        for (int L = first_tile; L < sched.total(); L += tile_step) {
            int tm, tn;
            sched.tile(L, tm, tn);
            mbarrier_wait_parity(acc_full_bar(acc), acc_phase);
            tcgen05_fence_after_thread_sync();
            const int row = (tm * CG + rank) * kRowsPerCta + row_in_cta;
            const uint32_t t_row =
                tmem_base + (static_cast<uint32_t>(32 * quarter) << 16) + static_cast<uint32_t>(cfg.acc_column(acc));
#pragma unroll 1
            for (int c = 0; c < BN; c += kEpilogueColumns) {
                const int col = tn * BN + c;
                if (col >= p.n) break;  // uniform across the warp
                uint32_t r[kEpilogueColumns];
                tcgen05_ld_32x32b_x16(t_row + static_cast<uint32_t>(c), r);
                tcgen05_wait_ld();
                if (row < p.m) {
                    const int count = min(kEpilogueColumns, p.n - col);
                    const bool vec = vec_ok && count == kEpilogueColumns;
                    const int64_t off = static_cast<int64_t>(row) * p.n + col;
                    if constexpr (G::kAcc == AccKind::S32) {
                        store_int16(p, r, off, count, vec);
                    } else {
                        switch (p.d_type) {
                            case SPMMA_F16: store_float16<G::kAcc, __half>(p, r, off, count, vec, row, col); break;
                            case SPMMA_BF16: store_float16<G::kAcc, __nv_bfloat16>(p, r, off, count, vec, row, col); break;
                            default: store_float16<G::kAcc, float>(p, r, off, count, vec, row, col); break;
                        }
                    }
                }
            }
            // This warp's lanes of the buffer are read: hand it back to the MMA thread.
            tcgen05_fence_before_thread_sync();
            __syncwarp();
            if (lane == 0) {
                if constexpr (CG == 1) {
                    mbarrier_arrive(acc_empty_bar(acc));
                } else {
                    mbarrier_arrive_cluster(mapa_shared_cluster(acc_empty_bar(acc), even_rank));
                }
            }
            if (++acc == ACC_BUFS) {
                acc = 0;
                acc_phase ^= 1u;
            }
        }
    }

    // ---- teardown: every tile's epilogue has run, so every MMA has completed ----
    // NOTES: the producer and MMA warps ran their loops on one elected lane; the barriers below
    // are .aligned (the whole warp must execute them together), so reconverge first.
    __syncwarp();
    tcgen05_fence_before_thread_sync();
    if constexpr (CG == 2) {
        cluster_sync();
    } else {
        __syncthreads();
    }
    if (warp == kMmaWarp) {
        tcgen05_fence_after_thread_sync();
        tmem_dealloc<CG>(tmem_base, G::kTmemAlloc);
    }
}

}  // namespace spmma_sm100a

// One kernel: extern "C", named sm100a_<kind token>_<acc>_<bm>x<bn>x<bk>_cg<cg>_s<stages>.
#define SPMMA_SM100A_KERNEL(TOK, KIND, SV, ACC, BM, BN, BK, CG, S)                                                  \
    using spmma_sm100a_cfg_##TOK##_##ACC##_##BM##x##BN##x##BK##_cg##CG##_s##S =                                     \
        spmma_sm100a::SpGemm<spmma_sm100a::Kind::KIND, spmma_sm100a::ScaleVec::SV,                                  \
                             spmma_sm100a::acc_kind_##ACC, CG, BN, S>;                                              \
    static_assert(spmma_sm100a_cfg_##TOK##_##ACC##_##BM##x##BN##x##BK##_cg##CG##_s##S::cfg.bk() == BK,              \
                  "the kernel name's k must be the kind's stage k");                                                \
    static_assert(spmma_sm100a_cfg_##TOK##_##ACC##_##BM##x##BN##x##BK##_cg##CG##_s##S::cfg.bm() == BM,              \
                  "the kernel name's m must be 128 * CTA group");                                                   \
    extern "C" __global__ void __launch_bounds__(spmma_sm100a::kThreads, 1)                                         \
        sm100a_##TOK##_##ACC##_##BM##x##BN##x##BK##_cg##CG##_s##S(                                                  \
            const __grid_constant__ CUtensorMap tm_a, const __grid_constant__ CUtensorMap tm_b,                     \
            const __grid_constant__ CUtensorMap tm_e, const __grid_constant__ CUtensorMap tm_sfa,                   \
            const __grid_constant__ CUtensorMap tm_sfb, const spmma_sm100a::KernelParams p) {                       \
        spmma_sm100a::spgemm_body<spmma_sm100a_cfg_##TOK##_##ACC##_##BM##x##BN##x##BK##_cg##CG##_s##S>(            \
            &tm_a, &tm_b, &tm_e, &tm_sfa, &tm_sfb, p);                                                              \
    }

namespace spmma_sm100a {
constexpr AccKind acc_kind_f32 = AccKind::F32;
constexpr AccKind acc_kind_f16 = AccKind::F16;
constexpr AccKind acc_kind_s32 = AccKind::S32;
}  // namespace spmma_sm100a

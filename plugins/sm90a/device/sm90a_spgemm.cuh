// The sm90a structured-sparse GEMM: D = alpha * A * B + beta * C with A 2:4 (1:2 for tf32)
// sparse, on wgmma.mma_async.sp. One template for every type; the kernel files
// (sm90a_spgemm_<family>.cu) instantiate it per instruction variant and tile configuration.
//
// Shape of the kernel (see plugins/sm90a/NOTES.md for the why and the measurements):
//   - persistent: one CTA per SM (per cluster slot), walking the output tiles of its cluster in a
//     banded raster order (TileScheduler) so that concurrently running tiles share A and B in L2;
//     where whole tiles would leave clusters idle in the last turn (SPMMA_SM90A_STREAMK=on), the
//     tiles of the last turn are split along k into one equal range per cluster (stream-K,
//     stream_k.hpp): partial sums meet in a global workspace, the range with a tile's last k-tile
//     writes D; where every tile is s equal ranges, a narrow tile's s run as a cluster of s and
//     the partials go into the owner's shared memory (KernelParams::sk_cluster_ranges);
//   - warp specialised: warpgroup 0 is the producer (one elected thread issues TMA copies of the
//     compressed A tile, its metadata and the B tile into a ring of `stages` shared-memory stages,
//     completing on "full" mbarriers); warpgroups 1..2 are consumers, each owning bm/consumers
//     rows of the tile, issuing wgmma.mma_async.sp from shared memory and releasing a stage on
//     its "empty" mbarrier once the wgmmas that read it have completed;
//   - clusters: CTAs of a cluster column (same n tile) share B, CTAs of a cluster row share A and
//     its metadata: each loads a slice and multicasts it to its peers;
//   - epilogue: alpha and conversion in registers, then through a shared-memory buffer per
//     consumer and TMA stores, so the warps go on with the next tile while D is written; with C
//     (beta != 0) or rows of D that TMA cannot address, alpha/beta in registers and direct stores
//     with bounds checks (m and n tails); ABI 1.2's epilogue (scales, bias, activation) is applied
//     on either path where the accumulators become D (scaled_pair), in its own instantiation.
// Sections: types, shared memory, barriers, producer, consumer, stream-K, epilogue.
#pragma once

#include <cuda.h>  // CUtensorMap
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <spmma/plugin.h>
#include <spmma_sm90a/epilogue_form.hpp>
#include <spmma_sm90a/kernel_params.hpp>
#include <spmma_sm90a/layout.hpp>
#include <spmma_sm90a/tile_config.hpp>
#include <spmma_sm90a/tile_scheduler.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "fused_epilogue.cuh"
#include "ptx_sm90.cuh"
#include "static_for.cuh"
#include "ptx_sm90a_wgmma.cuh"
#include "sm90a_instr.cuh"

namespace spmma_sm90a {

// ================================ types ==========================================================

template <class Instr_, int BM, int BN, int CM, int CN, int STAGES>
struct SpGemm {
    using Instr = Instr_;
    using Acc = typename Instr::Acc;
    static constexpr TileConfig cfg{Instr::kFamily, BM, BN, CM, CN, STAGES};
    static constexpr Family kFamily = Instr::kFamily;
    static constexpr int kConsumers = cfg.consumers();
    static constexpr int kThreads = cfg.threads();
    static constexpr int kMBlocks = cfg.m_blocks();
    static constexpr int kUnits = cfg.units();
    static constexpr int kCluster = cfg.cluster_size();
    static constexpr int kAccRegs = Instr::regs(BN);
    static constexpr int kBK = cfg.bk();
    // ABI 1.2's epilogue has its own instantiation of the stores in the float kernels with room
    // for it (TileConfig::fuses_epilogue; the host refuses it on the others).
    static constexpr bool kFusesEpilogue = Instr::kAcc != AccKind::S32 && cfg.fuses_epilogue(kAccRegs * kMBlocks);
    static constexpr bool kFusesEpilogueTma = kFusesEpilogue && cfg.fuses_epilogue_in_tma_stores(kAccRegs * kMBlocks);
    // NOTES: the epilogue's terms (TileTerms) held through the main loop only beside at most 64
    // accumulator registers (the decode tiles and 128x128): the 128-register consumers have no
    // such room in their main loop.
    static constexpr bool kTermsBeforeMainLoop = kAccRegs * kMBlocks <= 64;
    static_assert(cfg.acc_regs(Instr::kAcc == AccKind::F16) == kAccRegs * kMBlocks,
                  "the host's count of accumulator registers (TileConfig::acc_regs) must be the kernel's");

    static_assert(cfg.valid(), "tile configuration breaks an invariant of TileConfig::valid()");
    static_assert(kStepsPerStage * kInstrBRowBytes == kStageBRowBytes &&
                      kStepsPerStage * kInstrARowBytes == kStageARowBytes,
                  "a stage must hold whole instructions along k");
    static_assert(kStepsPerStage == kUnits * traits(kFamily).steps_per_unit,
                  "the metadata units of a stage must cover its instructions exactly");
    static_assert(cfg.a_stage_bytes() % 1024 == 0 && cfg.b_stage_bytes() % 1024 == 0,
                  "A and B stages must keep the 1024-byte alignment of the swizzle patterns");
    static_assert(cfg.e_stage_bytes() % 128 == 0, "TMA destinations must be 128-byte aligned");
    static_assert(!cfg.epi_borrows() || (cfg.b_offset() % 1024 == 0 && cfg.epi_buffer_bytes() % 1024 == 0),
                  "borrowed epilogue buffers must keep the 1024-byte alignment of the swizzle pattern");
    static_assert(kConsumers * kMBlocks * 64 == BM, "consumers must cover the tile's rows");
    // Besides its accumulators a consumer thread holds two metadata sets, addresses, loop state
    // and the epilogue's temporaries: at least 24 registers (ptxas reports spills, test_sass
    // rejects local memory).
    static constexpr int kProducerRegs = cfg.producer_regs(kAccRegs * kMBlocks);
    static constexpr int kConsumerRegs = cfg.consumer_regs(kAccRegs * kMBlocks);
    static_assert(kAccRegs * kMBlocks + 24 <= kConsumerRegs, "accumulators must fit the consumer register budget");
    static_assert(!cfg.uses_setmaxnreg() || 128 * kProducerRegs + 128 * kConsumers * kConsumerRegs <= 65536,
                  "register file overflow");
    static_assert(!cfg.uses_setmaxnreg() || (kProducerRegs % 8 == 0 && kConsumerRegs % 8 == 0 &&
                                             kProducerRegs >= 24 && kConsumerRegs <= 256),
                  "setmaxnreg takes multiples of 8 in 24..256");
    static_assert(!cfg.uses_setmaxnreg() || kProducerRegs <= 65536 / kThreads / 8 * 8,
                  "the producer can only give registers back (setmaxnreg.dec)");

    // Bytes that land in each CTA's stage (its own slices and its peers' multicasts).
    static constexpr uint32_t kStageTxBytes = cfg.stage_bytes();
};

using spmma_device::static_for;  // a loop with a compile-time index (static_for.cuh)

// Named barriers (0 is __syncthreads): 1 + c for consumer c's 128 threads, and this one for both
// consumers' 256 threads (the borrowed epilogue buffers: store_tile_tma).
inline constexpr uint32_t kBothConsumersBarrier = 3;

// ================================ epilogue helpers =================================================

// Two horizontally adjacent accumulators (block i, row half h) from the wgmma D fragment
// (layout.hpp: acc_reg32 / acc_reg16).
template <AccKind K, class Acc>
__device__ __forceinline__ float2 acc_pair_f(const Acc* a, int i, int h) {
    if constexpr (K == AccKind::F16) {
        const uint32_t r = a[acc_reg16(i, h)];
        return __half22float2(*reinterpret_cast<const __half2*>(&r));
    } else {
        return make_float2(a[acc_reg32(i, h)], a[acc_reg32(i, h) + 1]);
    }
}

template <class Out>
__device__ __forceinline__ void store_pair(Out* d, float2 v, bool two, bool vec) {
    if constexpr (sizeof(Out) == 4) {  // f32
        if (two && vec) {
            *reinterpret_cast<float2*>(d) = v;
        } else {
            d[0] = v.x;
            if (two) d[1] = v.y;
        }
    } else if constexpr (std::is_same_v<Out, __half>) {
        if (two && vec) {
            *reinterpret_cast<__half2*>(d) = __floats2half2_rn(v.x, v.y);
        } else {
            d[0] = __float2half_rn(v.x);
            if (two) d[1] = __float2half_rn(v.y);
        }
    } else {
        if (two && vec) {
            *reinterpret_cast<__nv_bfloat162*>(d) = __floats2bfloat162_rn(v.x, v.y);
        } else {
            d[0] = __float2bfloat16_rn(v.x);
            if (two) d[1] = __float2bfloat16_rn(v.y);
        }
    }
}

// Which epilogue a store instantiation applies: the plain one (alpha, beta * C), ABI 1.2's
// scales with a row bias or none (Linear), or the general one: scales, a row or column bias and
// an activation (General). NOTES: template variants, not tests of p.epi, so the plain kernels'
// stores are the code they were and no fused one tests anything per element
// (fused_epilogue.cuh). Linear is the serving op's (an output channel's bias is a row's): two
// instructions an element where General takes four (plugins/sm90a/NOTES.md, "The serving op's
// epilogue in two instructions an element"). General is compiled into the direct stores only
// (tma_epilogue_possible keeps a column bias and an activation off the TMA path): each variant
// is unrolled over the whole tile in every store path and D type, and compile time follows.
enum class Epi { Plain, Linear, General };

// alpha * (two adjacent accumulators) + beta * C at d-offset off (C read only where it exists;
// never with kMayReadC false, the TMA-store path, which runs only without C). With a fused
// epilogue, ABI 1.2's of elements (row, col) and (row, col + 1) in plugin.h's order: alpha *
// rs[row] * cs[col] before C, the bias and the activation after, the row's and the column
// pair's terms taken by the caller (row_of, pair_of) once for the elements they apply to.
// Linear without C is (acc * cs) * (alpha * rs) + row bias in one FMUL and one FFMA: the same
// terms in f32 with one rounding fewer than General's order (the tolerance's, D rounded once).
// NOTES: the TMA path writes whole boxes, so row and col may lie past D (TMA drops those
// elements); the vectors are read at the last row / column pair there, never past their end
// (col is even; the column vectors have an even length). A runtime test of p.use_c measured
// slower than the template flags.
template <class K, bool kMayReadC = true, Epi kEpi = Epi::Plain, class Acc>
__device__ __forceinline__ float2 scaled_pair(const Acc* a, int i, int h, const KernelParams& p, int64_t off, bool two,
                                              spmma_epilogue::RowTerms row = {}, spmma_epilogue::PairTerms col = {}) {
    float2 v = acc_pair_f<K::Instr::kAcc>(a, i, h);
    const bool with_c = kMayReadC && p.use_c;
    if constexpr (kEpi == Epi::Linear) {
        v.x *= col.scale.x;
        v.y *= col.scale.y;
        if (!with_c) return make_float2(fmaf(v.x, row.factor, row.bias), fmaf(v.y, row.factor, row.bias));
        v.x *= row.factor;
        v.y *= row.factor;
    } else if constexpr (kEpi == Epi::General) {
        v.x *= row.factor * col.scale.x;
        v.y *= row.factor * col.scale.y;
    } else {
        v.x *= p.alpha;
        v.y *= p.alpha;
    }
    if (with_c) {
        const float* cv = static_cast<const float*>(p.c);
        v.x = fmaf(p.beta, cv[off], v.x);
        if (two) v.y = fmaf(p.beta, cv[off + 1], v.y);
    }
    if constexpr (kEpi == Epi::Linear) {
        v.x += row.bias;
        v.y += row.bias;
    } else if constexpr (kEpi == Epi::General) {
        // (activate() takes relu, gelu-tanh or silu: no activation keeps the sum, by selection)
        const bool act = p.epi.activation != SPMMA_ACTIVATION_NONE;
        const float x = v.x + row.bias + col.bias.x, y = v.y + row.bias + col.bias.y;
        v.x = act ? spmma_epilogue::activate(p.epi.activation, x) : x;
        v.y = act ? spmma_epilogue::activate(p.epi.activation, y) : y;
    }
    return v;
}

// ABI 1.2's epilogue terms of one consumer's tile: the thread's rows (alpha * rs and the row
// bias; kMBlocks x 2 rows) and the tile's column pairs in groups of 64 columns spread over the
// warp, lane l of group g holding the pair at column col0 + 64 g + 2 l (group), from which every
// thread takes its accumulator block's pair with shuffles (pair).
// NOTES: a thread's own column terms, four registers per 8-column block, loaded chunk by chunk
// beside 128 accumulators made ptxas spill in the TMA stores (plugins/sm90a/NOTES.md,
// "Registers"); spread over the warp a group is four registers for 64 columns. The consumers with
// at most 64 accumulator registers (the decode tiles, 128x128) hold every row and group of the
// tile. The narrow tiles (kStaged: TileConfig::stages_terms) copy them into shared memory as the
// tile starts and read them into registers once the main loop is done (ready); 128x128, without
// that room, loads them into registers before the main loop, where its first wgmma waits for
// them (bench/NOTES.md 2026-11-27 12:52). The wide tiles with room for them (kWide:
// TileConfig::stages_wide_terms) copy them into a shared region of the consumer as the tile
// starts and read each where it is used. The others
// load a group where its chunk is stored (group) and a row's terms where they are used (the whole
// tile's groups beside 128 accumulators spilled too; a form that loaded the rows once and the
// groups one ahead measured slower, plugins/sm90a/NOTES.md). Rows and columns past D
// are clamped to the last row / column pair (TMA boxes past D compute values nobody stores); the
// column vectors have an even length. The kernels that fuse no epilogue hold nothing.
template <class K, bool kOn = K::kFusesEpilogue>
struct TileTerms {
    static constexpr bool kHeld = false, kWide = false;
};

template <class K>
struct TileTerms<K, true> {
    static constexpr int kGroups = (K::cfg.bn + 63) / 64;
    static constexpr bool kHeld = K::kTermsBeforeMainLoop;
    static constexpr bool kStaged = kHeld && K::cfg.stages_terms();
    static constexpr bool kWide = !kHeld && K::cfg.stages_wide_terms();
    // The consumer's shared region when wide (TileConfig::wide_terms_offset): row r's scale and
    // bias at 8 r, then column pair q's two scales and two biases at kWideCols + 16 q.
    static constexpr int kWideCols = K::cfg.wg_m() * 8;
    static_assert(!kWide || kWideCols + K::cfg.bn / 2 * 16 == K::cfg.wide_terms_consumer_bytes(),
                  "a wide tile's terms fill the consumer's region: its rows and the tile's column pairs");
    // The warp's shared region when staged (TileConfig::terms_offset): the row scales of its 16
    // rows per m64 block, their biases, then each lane's column scale pair and bias pair.
    static constexpr int kRowWords = K::kMBlocks * 16;
    static constexpr int kColsOffset = 2 * kRowWords * 4;
    static_assert(!kStaged || (kGroups == 1 && kColsOffset + 32 * 16 == K::cfg.terms_warp_bytes()),
                  "a staged tile's terms fill the warp's region: its rows and one 64-column group");
    // Held: every row and group of the tile; otherwise each is loaded at its use.
    spmma_epilogue::RowTerms rows[kHeld ? K::kMBlocks : 1][2];
    spmma_epilogue::PairTerms cols[kHeld ? kGroups : 1];
    int row0, col0;  // the consumer's first row of D, the tile's first column
    const uint8_t* region;  // the consumer's shared region when wide (ready)

    // Where this thread's terms are staged (kStaged: its warp's region; kWide: its consumer's).
    __device__ __forceinline__ static int region_offset(int consumer, int w4) {
        constexpr TileConfig cfg = K::cfg;  // a copy: device code may not refer to K::cfg at run time
        return kWide ? cfg.wide_terms_offset(consumer) : cfg.terms_offset(consumer, w4);
    }

    // Loads the held terms, or starts their copy into the region at shared address `to`
    // when staged or wide: wg_row0, the consumer's first row of D; col0, the tile's first column;
    // bar, the consumer's named barrier.
    __device__ __forceinline__ void load(const KernelParams& p, int wg_row0, int tile_col0, uint32_t to, uint32_t bar) {
        row0 = wg_row0;
        col0 = tile_col0;
        if constexpr (kWide) {
            constexpr int kRows = K::cfg.wg_m(), kPairs = K::cfg.bn / 2;
            const int t = static_cast<int>(threadIdx.x % 128);
            spmma_ptx::named_barrier_sync(bar, 128);  // every thread has read the previous tile's terms
#pragma unroll
            for (int r0 = 0; r0 < kRows; r0 += 128)
                if (r0 + t < kRows) {
                    const int r = min(wg_row0 + r0 + t, p.m - 1);
                    const uint32_t at = to + static_cast<uint32_t>(8 * (r0 + t));
                    spmma_ptx::cp_async_ca<4>(at, p.epi.row_scale + r);
                    spmma_ptx::cp_async_ca<4>(at + 4, p.epi.row_bias + r);
                }
#pragma unroll
            for (int q0 = 0; q0 < kPairs; q0 += 128)
                if (q0 + t < kPairs) {
                    const int c = min(tile_col0 + 2 * (q0 + t), (p.n - 1) & ~1);
                    const uint32_t at = to + static_cast<uint32_t>(kWideCols + 16 * (q0 + t));
                    spmma_ptx::cp_async_ca<8>(at, p.epi.col_scale + c);
                    spmma_ptx::cp_async_ca<8>(at + 8, p.epi.col_bias + c);
                }
            spmma_ptx::cp_async_commit();
        } else if constexpr (kStaged) {
            const int lane = static_cast<int>(threadIdx.x % 32), w4 = static_cast<int>(threadIdx.x / 32) % 4;
            __syncwarp();  // every lane has read the previous tile's terms out of the region (ready)
            if (lane < 16) {
#pragma unroll
                for (int j = 0; j < K::kMBlocks; ++j) {
                    const int r = min(wg_row0 + 64 * j + 16 * w4 + lane, p.m - 1);
                    const uint32_t at = to + static_cast<uint32_t>(4 * (16 * j + lane));
                    spmma_ptx::cp_async_ca<4>(at, p.epi.row_scale + r);
                    spmma_ptx::cp_async_ca<4>(at + 4 * kRowWords, p.epi.row_bias + r);
                }
            }
            const int c = min(tile_col0 + 2 * lane, (p.n - 1) & ~1);
            spmma_ptx::cp_async_ca<8>(to + kColsOffset + 8 * lane, p.epi.col_scale + c);
            spmma_ptx::cp_async_ca<8>(to + kColsOffset + 256 + 8 * lane, p.epi.col_bias + c);
            spmma_ptx::cp_async_commit();
        } else if constexpr (kHeld) {
            const int lane = static_cast<int>(threadIdx.x % 32), w4 = static_cast<int>(threadIdx.x / 32) % 4;
#pragma unroll
            for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) rows[j][h] = fetch_row(p, wg_row0 + 64 * j + acc_row(w4, lane, h));
#pragma unroll
            for (int g = 0; g < kGroups; ++g) cols[g] = fetch_group(p, tile_col0, g);
        }
    }

    // After the main loop: the staged terms into the held registers (the warp's region at
    // `at`), alpha applied to the row scales; the wide terms made visible to the consumer (its
    // region at `at`, its named barrier bar); nothing otherwise.
    __device__ __forceinline__ void ready(const KernelParams& p, const uint8_t* at, uint32_t bar) {
        if constexpr (kWide) {
            spmma_ptx::cp_async_wait<0>();
            spmma_ptx::named_barrier_sync(bar, 128);  // the other threads' copies are visible
            region = at;
        } else if constexpr (kStaged) {
            const int lane = static_cast<int>(threadIdx.x % 32);
            spmma_ptx::cp_async_wait<0>();
            __syncwarp();  // the other lanes' copies of the rows are visible
            const float* w = reinterpret_cast<const float*>(at);
#pragma unroll
            for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int r = 16 * j + lane / 4 + 8 * h;  // acc_row(w4, lane, h) less the warp's first row
                    rows[j][h] = {p.alpha * w[r], w[kRowWords + r]};
                }
            const float2* c = reinterpret_cast<const float2*>(at + kColsOffset);
            cols[0] = {c[lane], c[32 + lane]};
        }
    }

    // Row half h of m block j, which is row `row` of D.
    __device__ __forceinline__ spmma_epilogue::RowTerms row(const KernelParams& p, int j, int h, int row) const {
        if constexpr (kHeld) {
            return rows[j][h];
        } else if constexpr (kWide) {
            const int lane = static_cast<int>(threadIdx.x % 32), w4 = static_cast<int>(threadIdx.x / 32) % 4;
            const float2 v = *reinterpret_cast<const float2*>(region + 8 * (64 * j + acc_row(w4, lane, h)));
            return {p.alpha * v.x, v.y};
        } else {
            return fetch_row(p, row);
        }
    }

    // Column group g of the tile (this lane's pair of it); nothing when wide (pair reads the region).
    __device__ __forceinline__ spmma_epilogue::PairTerms group(const KernelParams& p, int g) const {
        if constexpr (kHeld) return cols[g];
        else if constexpr (kWide) return {};
        else return fetch_group(p, col0, g);
    }
    // Row half h of m block j (the TMA stores).
    __device__ __forceinline__ spmma_epilogue::RowTerms row(const KernelParams& p, int j, int h) const {
        const int lane = static_cast<int>(threadIdx.x % 32), w4 = static_cast<int>(threadIdx.x / 32) % 4;
        return row(p, j, h, row0 + 64 * j + acc_row(w4, lane, h));
    }

    // The pair of accumulator block i (columns acc_col(lane, i) and the next): from the region
    // when wide, else from its group (group(p, i / 8)), where lane 4 (i % 8) + lane % 4 holds it
    // and every lane of the warp must take part.
    __device__ __forceinline__ spmma_epilogue::PairTerms pair(const spmma_epilogue::PairTerms& g, int i) const {
        if constexpr (kWide) {
            const float4 v = *reinterpret_cast<const float4*>(region + kWideCols + 16 * (4 * i + static_cast<int>(threadIdx.x % 4)));
            return {make_float2(v.x, v.y), make_float2(v.z, v.w)};
        }
        const int src = 4 * (i % 8) + static_cast<int>(threadIdx.x % 4);
        return {make_float2(__shfl_sync(0xffffffffu, g.scale.x, src), __shfl_sync(0xffffffffu, g.scale.y, src)),
                make_float2(__shfl_sync(0xffffffffu, g.bias.x, src), __shfl_sync(0xffffffffu, g.bias.y, src))};
    }

    // Accumulator block i's pair, at column col, for the direct stores: from the held groups
    // (shuffles: every lane of the warp takes part), else this thread's own load, as late as its
    // use (the 128-register consumers spilled with a group held through the direct stores).
    __device__ __forceinline__ spmma_epilogue::PairTerms own_pair(const KernelParams& p, int i, int col) const {
        if constexpr (kHeld) return pair(cols[i / 8], i);
        else if constexpr (kWide) return pair({}, i);
        else return spmma_epilogue::pair_terms(p.epi, min(col, (p.n - 1) & ~1));
    }

private:
    __device__ __forceinline__ static spmma_epilogue::RowTerms fetch_row(const KernelParams& p, int row) {
        return spmma_epilogue::row_terms(p.epi, p.alpha, min(row, p.m - 1));
    }
    __device__ __forceinline__ static spmma_epilogue::PairTerms fetch_group(const KernelParams& p, int col0, int g) {
        return spmma_epilogue::pair_terms(p.epi, min(col0 + 64 * g + 2 * static_cast<int>(threadIdx.x % 32), (p.n - 1) & ~1));
    }
};

// The terms of block j's row half h, row `row` of D, for scaled_pair; nothing for the plain
// epilogue.
template <Epi kEpi, class Terms>
__device__ __forceinline__ spmma_epilogue::RowTerms row_of(const Terms& terms, const KernelParams& p, int j, int h, int row) {
    if constexpr (kEpi == Epi::Plain) return {};
    else return terms.row(p, j, h, row);
}
// The same in the TMA stores, the row from the tile's.
template <Epi kEpi, class Terms>
__device__ __forceinline__ spmma_epilogue::RowTerms tma_row_of(const Terms& terms, const KernelParams& p, int j, int h) {
    if constexpr (kEpi == Epi::Plain) return {};
    else return terms.row(p, j, h);
}

// Column group g for pair_of, nothing for the plain epilogue.
template <Epi kEpi, class Terms>
__device__ __forceinline__ spmma_epilogue::PairTerms group_of(const Terms& terms, const KernelParams& p, int g) {
    if constexpr (kEpi == Epi::Plain) return {};
    else return terms.group(p, g);
}

// The terms of accumulator block i's column pair from its group (group_of(terms, p, i / 8)), nothing
// for the plain epilogue (warp-wide: TileTerms::pair).
template <Epi kEpi, class Terms>
__device__ __forceinline__ spmma_epilogue::PairTerms pair_of(const Terms& terms, const spmma_epilogue::PairTerms& group, int i) {
    if constexpr (kEpi == Epi::Plain) return {};
    else return terms.pair(group, i);
}

template <class Out>
__device__ __forceinline__ uint32_t pack_pair(float2 v) {
    if constexpr (std::is_same_v<Out, __half>) {
        const __half2 h = __floats2half2_rn(v.x, v.y);
        return *reinterpret_cast<const uint32_t*>(&h);
    } else {
        const __nv_bfloat162 b = __floats2bfloat162_rn(v.x, v.y);
        return *reinterpret_cast<const uint32_t*>(&b);
    }
}

// Float epilogue of one consumer thread: D = alpha * acc + beta * C, rounded to nearest even.
// NOTES: a quad of lanes holds 8 adjacent columns of a row per block, 16 bytes of f16/bf16: half
// a 32-byte sector, whose other half the next block's store writes. Those partial-sector writes
// made 16-bit D slower than f32 D. So for 16-bit D, two blocks' pairs are exchanged inside the
// quad (lane t gets the four columns 4t..4t+3 of the 16) and each lane writes 8 bytes: a whole
// sector per quad and row. The exchange runs on every lane (shuffles need the whole warp); only
// the store is per row. It paid for bf16 D of the one-m-block tiles alone; f16 D and the
// two-m-block tiles lost (bench/NOTES.md, "16-bit D in whole sectors"), so only those take it.
template <class K, class Out>
inline constexpr bool kSectorStores = std::is_same_v<Out, __nv_bfloat16> && K::kMBlocks == 1;

// kMayReadC false: C is not read (p.use_c is false, tested once a tile by the caller; tested per
// element, each element's two forms issued under a predicate). NOTES: a held tile of at most 64
// columns (kColsOnce) takes every block's column pair once, not again for each row half: fewer
// shuffles, level in time on its own (plugins/sm90a/NOTES.md, "The decode tiles' serving-op
// stores without the C test and with their column terms taken once").
template <class K, class Out, Epi kEpi = Epi::Plain, bool kMayReadC = true>
__device__ __forceinline__ void store_tile_float(const typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs],
                                                 const KernelParams& p, int row0, int col0, const TileTerms<K>& terms) {
    static_assert(K::cfg.bn % 16 == 0, "the 16-bit epilogue pairs 8-column blocks");
    constexpr bool kColsOnce = kEpi != Epi::Plain && TileTerms<K>::kHeld && K::cfg.bn <= 64;
    Out* d = static_cast<Out*>(p.d);
    const bool vec = (p.n % 2) == 0;
    const int t = static_cast<int>(threadIdx.x % 4), quad0 = static_cast<int>(threadIdx.x % 32) - t;
    const int lo = quad0 + (2 * t) % 4, hi = quad0 + (2 * t + 1) % 4;
    [[maybe_unused]] spmma_epilogue::PairTerms cols[kColsOnce ? K::cfg.bn / 8 : 1] = {};
    if constexpr (kColsOnce) {
#pragma unroll
        for (int i = 0; i < K::cfg.bn / 8; ++i) cols[i] = terms.own_pair(p, i, 0);
    }
#pragma unroll
    for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + 64 * j + 8 * h;
            const bool row_ok = row < p.m;
            const int64_t row_off = static_cast<int64_t>(row) * p.n;
            const spmma_epilogue::RowTerms rt = row_of<kEpi>(terms, p, j, h, row);
#pragma unroll
            for (int i = 0; i < K::cfg.bn / 8; i += 2) {
                const int first = col0 - 2 * t + 8 * i;  // the 16 columns of blocks i and i + 1 (same for the warp)
                // Block i + b's column terms: held ones shuffled here, before any branch that
                // diverges; a thread's own loaded where they are used.
                [[maybe_unused]] spmma_epilogue::PairTerms held[2] = {};
                if constexpr (kEpi != Epi::Plain && TileTerms<K>::kHeld && !kColsOnce) held[0] = terms.own_pair(p, i, 0), held[1] = terms.own_pair(p, i + 1, 0);
                auto ct = [&](int b, int col) -> spmma_epilogue::PairTerms {
                    if constexpr (kEpi == Epi::Plain) return {};
                    else if constexpr (kColsOnce) return cols[i + b];
                    else if constexpr (TileTerms<K>::kHeld) return held[b];
                    else return terms.own_pair(p, i + b, col);
                };
                if constexpr (kSectorStores<K, Out>) {
                    if ((p.n % 4) == 0 && first + 16 <= p.n) {  // warp-uniform
                        const uint32_t w0 = row_ok ? pack_pair<Out>(scaled_pair<K, kMayReadC, kEpi>(acc[j], i, h, p, row_off + first + 2 * t, true, rt, ct(0, first + 2 * t))) : 0u;
                        const uint32_t w1 = row_ok ? pack_pair<Out>(scaled_pair<K, kMayReadC, kEpi>(acc[j], i + 1, h, p, row_off + first + 8 + 2 * t, true, rt, ct(1, first + 8 + 2 * t))) : 0u;
                        const uint32_t a0 = __shfl_sync(0xffffffffu, w0, lo), a1 = __shfl_sync(0xffffffffu, w1, lo);
                        const uint32_t b0 = __shfl_sync(0xffffffffu, w0, hi), b1 = __shfl_sync(0xffffffffu, w1, hi);
                        if (row_ok)
                            *reinterpret_cast<uint2*>(d + row_off + first + 4 * t) = t < 2 ? make_uint2(a0, b0) : make_uint2(a1, b1);
                        continue;
                    }
                }
                if (!row_ok) continue;
#pragma unroll
                for (int b = 0; b < 2; ++b) {
                    const int col = col0 + 8 * (i + b);
                    if (col >= p.n) continue;
                    const bool two = col + 1 < p.n;
                    const int64_t off = row_off + col;
                    store_pair<Out>(d + off, scaled_pair<K, kMayReadC, kEpi>(acc[j], i + b, h, p, off, two, rt, ct(b, col)), two, vec);
                }
            }
        }
}

__device__ __forceinline__ int32_t finish_int(int64_t v, bool saturate) {
    if (saturate) return static_cast<int32_t>(v < INT32_MIN ? INT32_MIN : (v > INT32_MAX ? INT32_MAX : v));
    return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

// alpha * (two adjacent s32 accumulators) + beta * C at d-offset off in 64-bit arithmetic, then
// wrapped or clamped (C read as in scaled_pair).
template <class K, bool kMayReadC = true, class Acc>
__device__ __forceinline__ int2 scaled_pair_int(const Acc* a, int i, int h, const KernelParams& p, int64_t off, bool two) {
    int64_t v0 = p.alpha_i * static_cast<int32_t>(a[acc_reg32(i, h)]);
    int64_t v1 = p.alpha_i * static_cast<int32_t>(a[acc_reg32(i, h) + 1]);
    if (kMayReadC && p.use_c) {
        const int32_t* c = static_cast<const int32_t*>(p.c);
        v0 += p.beta_i * c[off];
        if (two) v1 += p.beta_i * c[off + 1];
    }
    // NOTES: clamping is the kernel's (s32sat), known at compile time: the runtime test of
    // p.saturate cost the 8-bit 256x192 kernels local memory in the direct-store path.
    return make_int2(finish_int(v0, K::Instr::kSatfinite), finish_int(v1, K::Instr::kSatfinite));
}

// Integer epilogue: D = alpha * acc + beta * C in 64-bit arithmetic, then wrapped or clamped.
template <class K>
__device__ __forceinline__ void store_tile_int(const typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs],
                                               const KernelParams& p, int row0, int col0) {
    int32_t* d = static_cast<int32_t*>(p.d);
    const bool vec = (p.n % 2) == 0;
#pragma unroll
    for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + 64 * j + 8 * h;
            if (row >= p.m) continue;
#pragma unroll
            for (int i = 0; i < K::cfg.bn / 8; ++i) {
                const int col = col0 + 8 * i;
                if (col >= p.n) continue;
                const bool two = col + 1 < p.n;
                const int64_t off = static_cast<int64_t>(row) * p.n + col;
                const int2 v = scaled_pair_int<K>(acc[j], i, h, p, off, two);
                if (two && vec) {
                    *reinterpret_cast<int2*>(d + off) = v;
                } else {
                    d[off] = v.x;
                    if (two) d[off + 1] = v.y;
                }
            }
        }
}

// D through the epilogue buffer and TMA stores (p.tma_store: no C, rows of D a multiple of 16
// bytes): the consumer writes its m64 blocks chunk by chunk (64 rows x epi_row_bytes) into its
// buffer, and one thread copies each chunk out with a tma store (rows and columns outside D are
// not written). NOTES: the direct stores above keep the warps busy for the whole write to L2;
// here the warps only fill shared memory and go on to the next tile's main loop while the tensor
// copy engine writes D. Before a buffer is refilled, the issuing thread waits until the store
// that last used it has read it (bulk wait_group.read), and a named barrier of the consumer's 128
// threads passes that on; a second one orders the writes (fenced for the async proxy) before the
// store.
// With `Borrow`, the consumer also writes into two buffers of the tile's last pipeline stage, which
// the kernel body holds until these stores have read it (TileConfig::epi_borrows): chunk q goes to buffer
// q % 3 (its own, then the two borrowed), so only every third chunk waits for TMA to read the
// buffer it refills; the caller has waited for every store before the tile, so the first three
// never wait.
template <class K, class Out, bool Borrow = false, Epi kEpi = Epi::Plain>
__device__ __forceinline__ void store_tile_tma(const typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs],
                                               const KernelParams& p, const CUtensorMap* tm_d, uint8_t* buf0,
                                               uint32_t buf0_addr, int row0, int col0, int consumer, const TileTerms<K>& terms,
                                               uint8_t* borrowed = nullptr, uint32_t borrowed_addr = 0) {
    using namespace spmma_ptx;
    constexpr int kRowBytes = K::cfg.epi_row_bytes();
    static_assert(kRowBytes == 64 || kRowBytes == 128, "the epilogue buffer rows are one 64- or 128-byte swizzle span");
    constexpr int kCols = kRowBytes / static_cast<int>(sizeof(Out));  // columns per chunk
    constexpr int kBlocks = kCols / 8;                                 // accumulator blocks per chunk
    static_assert(kBlocks >= 1 && K::cfg.bn % kCols == 0, "a tile row must split into whole chunks");
    const int lane = static_cast<int>(threadIdx.x % 32), w4 = static_cast<int>(threadIdx.x / 32) % 4;
    const bool issuer = threadIdx.x % 128 == 0;
    const uint32_t bar = 1u + static_cast<uint32_t>(consumer);
    // NOTES: with two buffers, chunk q of a tile goes to buffer q % 2; a tile has an even number
    // of chunks, so the buffers alternate across tiles too and q is a compile-time constant (no
    // counter register next to the accumulators). The store that last read this
    // chunk's buffer is the one before the newest, so waiting until at most one store is still
    // reading lets the writes of this chunk overlap TMA's read of the previous one.
    constexpr int kBuffers = K::cfg.epi_buffers();
    constexpr int kChunksPerBlock = K::cfg.bn / kCols;
    static_assert(kBuffers == 1 || kBuffers == 2, "one or two epilogue buffers per consumer");
    static_assert(kBuffers == 1 || (K::kMBlocks * kChunksPerBlock) % 2 == 0,
                  "two buffers alternate across tiles only if a tile has an even number of chunks");
    static_assert(!Borrow || kBuffers == 1, "borrowed buffers stand in for a second buffer of one's own");
    constexpr int kRing = Borrow ? 3 : kBuffers;  // buffers chunk q cycles through (q % kRing)
    static_assert(64 % kCols == 0, "a chunk's columns lie in one 64-column group of TileTerms");
    [[maybe_unused]] spmma_epilogue::PairTerms group{};
#pragma unroll
    for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
        for (int c = 0; c < kChunksPerBlock; ++c) {
            const int q = j * kChunksPerBlock + c;
            // The chunk's column group, its load issued before the wait for the buffer.
            if ((c * kCols) % 64 == 0) group = group_of<kEpi>(terms, p, c * kCols / 64);
            const int slot = q % kRing;
            uint32_t buf_addr = buf0_addr + static_cast<uint32_t>(slot * K::cfg.epi_buffer_bytes());
            uint8_t* buf = buf0 + slot * K::cfg.epi_buffer_bytes();
            if constexpr (Borrow) {
                if (slot > 0) {
                    buf_addr = borrowed_addr + static_cast<uint32_t>((slot - 1) * K::cfg.epi_buffer_bytes());
                    buf = borrowed + (slot - 1) * K::cfg.epi_buffer_bytes();
                }
                // NOTES: the borrowed buffers are B rows, which the other consumer's last wgmmas
                // may still be reading: the first write into them waits until both consumers are
                // past their main loop (wgmma.wait_group 0). Without this wait a chunk of D
                // came out wrong where the other consumer's write overtook such a wgmma
                // (plugins/sm90a/NOTES.md, "The borrowed epilogue buffers' race").
                if constexpr (K::kConsumers == 2)
                    if (q == 1) named_barrier_sync(kBothConsumersBarrier, 256);
                if (issuer && q >= kRing) bulk_wait_group_read<kRing - 1>();
            } else {
                if (issuer) bulk_wait_group_read<kBuffers - 1>();
            }
            named_barrier_sync(bar, 128);
            // Element pair (block b of the chunk, row half h) into the buffer, with its row's
            // terms rt and its column pair's ct.
            auto put = [&](int h, int b, const spmma_epilogue::RowTerms& rt, const spmma_epilogue::PairTerms& ct) {
                constexpr int kEb = static_cast<int>(sizeof(Out));
                const int i = c * kBlocks + b;
                const uint32_t row_off = epi_offset_of(acc_row(w4, lane, h), acc_col(lane, 0) * kEb, kRowBytes);
                uint8_t* dst = buf + epi_block_offset(row_off, b, kEb);
                // No C on this path (p.use_c is 0), so no offset into it. NOTES: a runtime
                // test of p.use_c left in here measured slower (bench/NOTES.md, the A/B of
                // the runtime test of p.use_c).
                if constexpr (std::is_same_v<Out, int32_t>) {
                    *reinterpret_cast<int2*>(dst) = scaled_pair_int<K, false>(acc[j], i, h, p, 0, true);
                } else {
                    const float2 v = scaled_pair<K, false, kEpi>(acc[j], i, h, p, 0, true, rt, ct);
                    if constexpr (std::is_same_v<Out, float>) {
                        *reinterpret_cast<float2*>(dst) = v;
                    } else {
                        *reinterpret_cast<uint32_t*>(dst) = pack_pair<Out>(v);
                    }
                }
            };
            if constexpr (kEpi == Epi::Plain) {
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int b = 0; b < kBlocks; ++b) put(h, b, {}, {});
            } else {  // the chunk's two rows read once; a block's column pair serves both
                const spmma_epilogue::RowTerms rt[2] = {tma_row_of<kEpi>(terms, p, j, 0), tma_row_of<kEpi>(terms, p, j, 1)};
#pragma unroll
                for (int b = 0; b < kBlocks; ++b) {
                    const spmma_epilogue::PairTerms ct = pair_of<kEpi>(terms, group, c * kBlocks + b);
#pragma unroll
                    for (int h = 0; h < 2; ++h) put(h, b, rt[h], ct);
                }
            }
            fence_proxy_async_shared_cta();
            named_barrier_sync(bar, 128);
            if (issuer) {
                tma_store_2d(tm_d, buf_addr, col0 + c * kCols, row0 + 64 * j);
                bulk_commit_group();
            }
        }
}

// ================================ stream-K partials ================================================

// Slot `slot` of the stream-K workspace: 128 threads x m_blocks x acc registers words, four
// registers of a thread in one 16-byte word, the 128 threads' words adjacent (whole lines per
// warp).
template <class K>
__device__ __forceinline__ uint4* partial_slot(const KernelParams& p, int slot) {
    static_assert((K::kMBlocks * K::kAccRegs) % 4 == 0, "partials move four accumulator registers at a time");
    return reinterpret_cast<uint4*>(p.sk_partials) + static_cast<int64_t>(slot) * (K::kMBlocks * K::kAccRegs / 4) * 128;
}

// A consumer's partial sums into its slot, then its flag raised to this launch's epoch (named
// barrier `bar` of the consumer's 128 threads: every thread's stores precede the release).
// NOTES: the registers are stored as what they are (float4 of f32 accumulators): with a bit-cast
// (__float_as_uint) in between, ptxas serialised every wgmma of the main loop (info C7520,
// "WG.AR in divergent path": a wait after each) and spilled 5.7 KB per thread of the 256x192
// kernels.
template <class K>
__device__ __forceinline__ void store_partial(const typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs],
                                              const KernelParams& p, int slot, uint32_t bar) {
    using Acc = typename K::Acc;
    using Vec = std::conditional_t<std::is_same_v<Acc, float>, float4, uint4>;
    Vec* dst = reinterpret_cast<Vec*>(partial_slot<K>(p, slot)) + threadIdx.x % 128;
#pragma unroll
    for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
        for (int r = 0; r < K::kAccRegs; r += 4)
            __stcg(dst + ((j * K::kAccRegs + r) / 4) * 128, Vec{acc[j][r], acc[j][r + 1], acc[j][r + 2], acc[j][r + 3]});
    spmma_ptx::named_barrier_sync(bar, 128);
    if (threadIdx.x % 128 == 0) spmma_ptx::st_release_gpu_u32(p.sk_flags + slot, p.sk_epoch);
}

// One accumulator register plus its partial: f32 and packed f16 add, s32 wraps, or clamps in the
// s32sat kernels (as the epilogue clamps).
template <class K>
__device__ __forceinline__ void add_acc(typename K::Acc& a, uint32_t w) {
    if constexpr (K::Instr::kAcc == AccKind::F32) {
        a += __uint_as_float(w);
    } else if constexpr (K::Instr::kAcc == AccKind::F16) {
        const uint32_t x = a;
        const __half2 s = __hadd2(*reinterpret_cast<const __half2*>(&x), *reinterpret_cast<const __half2*>(&w));
        a = *reinterpret_cast<const uint32_t*>(&s);
    } else if constexpr (K::Instr::kSatfinite) {
        a = static_cast<uint32_t>(finish_int(static_cast<int64_t>(static_cast<int32_t>(a)) + static_cast<int32_t>(w), true));
    } else {
        a += w;
    }
}

// Word i of a thread's partial (four accumulator registers of one m64 block) added to the
// accumulators it was stored from (store_partial's order).
template <class K>
__device__ __forceinline__ void add_word(typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs], int i, const uint4& w) {
    const int j = (4 * i) / K::kAccRegs, r = (4 * i) % K::kAccRegs;
    add_acc<K>(acc[j][r], w.x);
    add_acc<K>(acc[j][r + 1], w.y);
    add_acc<K>(acc[j][r + 2], w.z);
    add_acc<K>(acc[j][r + 3], w.w);
}

// Waits (one thread per consumer, then the consumer's named barrier) until slot `slot` holds this
// launch's partials, and adds them to the accumulators.
template <class K>
__device__ __forceinline__ void add_partial(typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs], const KernelParams& p,
                                            int slot, uint32_t bar) {
    if (threadIdx.x % 128 == 0)
        while (spmma_ptx::ld_acquire_gpu_u32(p.sk_flags + slot) != p.sk_epoch) __nanosleep(64);
    spmma_ptx::named_barrier_sync(bar, 128);
    const uint4* src = partial_slot<K>(p, slot) + threadIdx.x % 128;
#pragma unroll
    for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
        for (int r = 0; r < K::kAccRegs; r += 4) {
            const uint4 w = __ldcg(src + ((j * K::kAccRegs + r) / 4) * 128);
            add_acc<K>(acc[j][r], w.x);
            add_acc<K>(acc[j][r + 1], w.y);
            add_acc<K>(acc[j][r + 2], w.z);
            add_acc<K>(acc[j][r + 3], w.w);
        }
}

// Waits until the `count` slots first_slot, first_slot + stride, ... hold this launch's partials
// (each flag acquired by a thread of its own, then the consumer's named barrier `bar`), and adds
// them to the accumulators in slot order, so the sums are those of add_partial one by one. For
// partials of at most 16 words a thread (partial_group: the decode tiles and 128x128).
// NOTES: add_partial one after the other waits a flag's round trip and a load's per partial, 660
// clocks each (fitted to the 2026-11-27 H100 sweeps, plugins/sm90a/NOTES.md, "How many ranges a
// decode tile takes"); here the flags are read side by side and the loads of kGroup partials are
// in flight together. The wide tiles keep add_partial: their registers are the accumulators'
// already (a thread per flag spilled 256x192), and any change to that code moved the 16-bit
// 128x256 kernels' register allocation and cost them 2 % (plugins/sm90a/NOTES.md).
template <class K>
__device__ __forceinline__ void add_partials(typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs], const KernelParams& p,
                                             int first_slot, int count, int stride, uint32_t bar) {
    static_assert(K::kAccRegs % 4 == 0, "a partial's 16-byte word holds four registers of one m64 block");
    constexpr int kWords = K::kMBlocks * K::kAccRegs / 4;  // 16-byte words a thread holds of one partial
    constexpr int kGroup = partial_group(kWords);
    static_assert(kGroup > 0, "the wide tiles add their partials one by one (add_partial)");
    const int t = threadIdx.x % 128;
    for (int r = t; r < count; r += 128)
        while (spmma_ptx::ld_acquire_gpu_u32(p.sk_flags + first_slot + r * stride) != p.sk_epoch) __nanosleep(64);
    spmma_ptx::named_barrier_sync(bar, 128);
    for (int r0 = 0; r0 < count; r0 += kGroup) {
        uint4 w[kGroup][kWords];
#pragma unroll
        for (int g = 0; g < kGroup; ++g)
            if (r0 + g < count) {
                const uint4* src = partial_slot<K>(p, first_slot + (r0 + g) * stride) + t;
#pragma unroll
                for (int i = 0; i < kWords; ++i) w[g][i] = __ldcg(src + i * 128);
            }
#pragma unroll
        for (int g = 0; g < kGroup; ++g)
            if (r0 + g < count)
#pragma unroll
                for (int i = 0; i < kWords; ++i) add_word<K>(acc, i, w[g][i]);
    }
}

// An earlier range of a split tile hands its partial to the owner (the last CTA of the tile's
// cluster, KernelParams::sk_cluster_ranges): every thread's words go straight from its registers
// into slot `rank` of this consumer in the owner's shared memory (`slot`, `bar`: this CTA's
// addresses of that slot and of the consumer's barrier, mapped to the owner's), laid out as
// store_partial lays out a workspace slot, each completing its 16 bytes on the owner's barrier.
// First the cluster barrier's wait: every thread of the cluster arrived after the barriers' init
// (spgemm_body), so the owner's barrier is ready.
// NOTES: through the workspace the partial, the flag and the owner's acquire and load cost
// 1.0-1.8 us a launch (plugins/sm90a/NOTES.md, "What a split tile's exchange costs").
template <class K>
__device__ __forceinline__ void send_partial_to_owner(const typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs],
                                                      uint32_t slot, uint32_t bar, uint32_t owner) {
    spmma_ptx::cluster_wait();
    const uint32_t dst = spmma_ptx::mapa_shared_cluster(slot, owner) + 16u * (threadIdx.x % 128);
    const uint32_t owner_bar = spmma_ptx::mapa_shared_cluster(bar, owner);
#pragma unroll
    for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
        for (int r = 0; r < K::kAccRegs; r += 4)
            spmma_ptx::st_async_v4(dst + ((j * K::kAccRegs + r) / 4) * 128 * 16, acc[j][r], acc[j][r + 1], acc[j][r + 2],
                                   acc[j][r + 3], owner_bar);
}

// The owner's side: one thread of the consumer expects the bytes of all `partials` slots (one
// per earlier range, `stride` bytes apart from `slot` on) on its barrier, every thread waits for
// them and adds its words to the accumulators slot by slot, the earlier ranges first
// (add_partials' order and sums).
template <class K>
__device__ __forceinline__ void add_partials_from_cluster(typename K::Acc (&acc)[K::kMBlocks][K::kAccRegs],
                                                          const uint8_t* slot, int stride, int partials, uint32_t bar) {
    constexpr int kWords = K::kMBlocks * K::kAccRegs / 4;
    if (threadIdx.x % 128 == 0) spmma_ptx::mbarrier_arrive_expect_tx(bar, static_cast<uint32_t>(partials) * kWords * 128 * 16);
    spmma_ptx::mbarrier_wait_parity<spmma_ptx::BarrierScope::Cluster>(bar, 0);
    for (int q = 0; q < partials; ++q) {
        const uint4* src = reinterpret_cast<const uint4*>(slot + q * stride) + threadIdx.x % 128;
#pragma unroll
        for (int i = 0; i < kWords; ++i) add_word<K>(acc, i, src[i * 128]);
    }
}

// ================================ the kernel =====================================================

template <class K>
__device__ __forceinline__ void spgemm_body(const CUtensorMap* tm_a, const CUtensorMap* tm_b, const CUtensorMap* tm_e,
                                            const CUtensorMap* tm_d, const KernelParams& p) {
    using namespace spmma_ptx;
    constexpr TileConfig cfg = K::cfg;
    constexpr int BM = cfg.bm, BN = cfg.bn, CM = cfg.cm, CN = cfg.cn, STAGES = cfg.stages;

    // ---- shared memory: [A stages][B stages][E stages][epilogue buffers][epilogue terms][full barriers][empty barriers] ----
    extern __shared__ uint8_t smem_raw[];
    const uint32_t raw_addr = smem_addr(smem_raw);
    const uint32_t base = (raw_addr + 1023u) & ~1023u;
    const uint8_t* smem = smem_raw + (base - raw_addr);
    auto a_stage = [&](int s) { return base + cfg.a_offset() + s * cfg.a_stage_bytes(); };
    auto b_stage = [&](int s) { return base + cfg.b_offset() + s * cfg.b_stage_bytes(); };
    auto e_stage_offset = [&](int s) { return cfg.e_offset() + s * cfg.e_stage_bytes(); };
    auto full_bar = [&](int s) { return base + cfg.barrier_offset() + 8 * s; };
    auto empty_bar = [&](int s) { return base + cfg.barrier_offset() + 8 * (STAGES + s); };

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wg = warp / 4;

    // ---- barriers ----
    // full[s]: one arrival (the local producer's arrive.expect_tx) + the stage's bytes.
    // empty[s]: one arrival per consumer warpgroup of every CTA this CTA's producer writes into
    // (its cluster row and column, itself included).
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbarrier_init(full_bar(s), 1);
            mbarrier_init(empty_bar(s), K::kConsumers * (CM + CN - 1));
        }
        // exchange[c]: the owner's consumer c arrives (expecting the partials' bytes); the earlier
        // ranges' st.async complete them (send_partial_to_owner).
        if constexpr (cfg.exchanges_in_cluster())
            for (int c = 0; c < K::kConsumers; ++c) mbarrier_init(base + cfg.exchange_barrier_offset(c), 1);
        fence_mbarrier_init_cluster();
    }
    if constexpr (K::kCluster > 1) {
        cluster_sync();
    } else {
        __syncthreads();
        // (a tile's ranges in one cluster: the earlier ones wait for this before they write into
        // the owner)
        if constexpr (cfg.exchanges_in_cluster())
            if (p.sk_cluster_ranges) cluster_arrive();
    }

    // NOTES: each role reads its place in the cluster and the scheduler's inputs after its
    // setmaxnreg, so that no value lives across the register reallocation (ptxas spilled such
    // values with a 24-register producer).
    auto cta_rank = [] { return K::kCluster > 1 ? static_cast<int>(cluster_ctarank()) : 0; };
    auto cluster_idx = [] { return K::kCluster > 1 ? static_cast<int>(cluster_id_x()) : static_cast<int>(blockIdx.x); };

    if (wg == 0) {
        // ================================ producer ================================
        if constexpr (cfg.uses_setmaxnreg()) setmaxnreg_dec<K::kProducerRegs>();
        const TileScheduler sched(p, CM, CN);
        const int cta_m = cta_rank() % CM, cta_n = cta_rank() / CM;
        if (warp == 0 && elect_one()) {
            if constexpr (!cfg.a_in_stage_order()) prefetch_tensormap(tm_a);
            prefetch_tensormap(tm_b);
            prefetch_tensormap(tm_e);
            // CTAs of this cluster row share A (same cta_m), of this column share B (same cta_n).
            uint16_t row_mask = 0, col_mask = 0;
            for (int i = 0; i < CN; ++i) row_mask |= static_cast<uint16_t>(1u << (cta_m + CM * i));
            for (int i = 0; i < CM; ++i) col_mask |= static_cast<uint16_t>(1u << (i + CM * cta_n));
            int stage = 0;
            uint32_t phase = 0;
            WorkUnit u;
            for (WorkCursor work(p.work, cluster_idx()); work.next(u);) {
                int tm, tn;
                sched.cluster_tile(u.tile, tm, tn);
                const int tile_m = p.tile_m0 + tm * CM + cta_m, tile_n = p.tile_n0 + tn * CN + cta_n;
                const int a_row = cfg.a_row(tile_m, cta_n);
                const int e_row = cfg.e_row(tile_m, cta_n);
                const int b_row = cfg.b_row(tile_n, cta_m);
                const uint32_t a_slice = cfg.a_slice_offset(cta_n);
                const uint32_t e_slice = cfg.e_slice_offset(cta_n);
                const uint32_t b_slice = cfg.b_slice_offset(cta_m);
                for (int kt = u.k_begin; kt < u.k_end; ++kt) {
                    mbarrier_wait_parity<BarrierScope::Cta>(empty_bar(stage), phase ^ 1u);
                    mbarrier_arrive_expect_tx(full_bar(stage), K::kStageTxBytes);
                    const int a_col = cfg.a_col(kt);
                    const int e_col = cfg.e_col(kt);
                    const int b_col = cfg.b_col(kt);
                    const uint32_t e_dst = base + e_stage_offset(stage) + e_slice;
                    if constexpr (CN > 1) {
                        tma_load_2d_multicast(a_stage(stage) + a_slice, tm_a, full_bar(stage), a_col, a_row, row_mask);
                        tma_load_2d_multicast(e_dst, tm_e, full_bar(stage), e_col, e_row, row_mask);
                    } else if constexpr (cfg.a_in_stage_order()) {
                        const uint8_t* a_src = p.a_stages + a_stage_block_offset(tile_m, p.k_tiles, kt, cfg.a_slice_rows());
                        bulk_load_1d(a_stage(stage), a_src, cfg.a_stage_bytes(), full_bar(stage));
                        tma_load_2d(e_dst, tm_e, full_bar(stage), e_col, e_row);
                    } else {
                        tma_load_2d(a_stage(stage) + a_slice, tm_a, full_bar(stage), a_col, a_row);
                        tma_load_2d(e_dst, tm_e, full_bar(stage), e_col, e_row);
                    }
                    if constexpr (CM > 1) {
                        tma_load_2d_multicast(b_stage(stage) + b_slice, tm_b, full_bar(stage), b_col, b_row, col_mask);
                    } else {
                        tma_load_2d(b_stage(stage) + b_slice, tm_b, full_bar(stage), b_col, b_row);
                    }
                    if (++stage == STAGES) {
                        stage = 0;
                        phase ^= 1u;
                    }
                }
            }
        }
    } else {
        // ================================ consumer ================================
        if constexpr (cfg.uses_setmaxnreg()) setmaxnreg_inc<K::kConsumerRegs>();
        const TileScheduler sched(p, CM, CN);
        const int cta_m = cta_rank() % CM, cta_n = cta_rank() / CM;
        const int consumer = wg - 1;
        const int w4 = warp % 4;  // = %warpid % 4: the 16 rows of each m64 block this warp's metadata covers

        // Releases stage s to every producer that writes into it (this CTA's and its peers').
        auto release = [&](int s) {
            if constexpr (K::kCluster == 1) {
                if (threadIdx.x % 128 == 0) mbarrier_arrive(empty_bar(s));
            } else {
                if (w4 == 0 && lane < K::kCluster) {
                    const int pm = lane % CM, pn = lane / CM;
                    if (pm == cta_m || pn == cta_n)
                        mbarrier_arrive_remote(mapa_shared_cluster(empty_bar(s), static_cast<uint32_t>(lane)));
                }
            }
        };

        // Metadata registers, two sets. NOTES: wgmma.mma_async.sp reads its metadata register
        // asynchronously, like its accumulators: a register may be written again only after the
        // wgmma.wait_group that retires every wgmma reading it. With one group in flight, the
        // words of k-tile kt go to set kt % 2, which the wait of k-tile kt - 1 has freed; each set
        // stays live (register_fence) up to that wait so that the compiler cannot hand its
        // registers to anything else while a wgmma may still read them (first device run: every
        // two-consumer kernel failed with a single set, the load of the next k-tile's words
        // overtaking the wgmma queued behind the other consumer's).
        uint32_t meta[2][K::kMBlocks][K::kUnits] = {};
        auto keep_meta = [&](int set) {
#pragma unroll
            for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
                for (int u = 0; u < K::kUnits; ++u) register_fence(meta[set][j][u]);
        };

        typename K::Acc acc[K::kMBlocks][K::kAccRegs];
        auto keep_acc = [&]() {
#pragma unroll
            for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
                for (int r = 0; r < K::kAccRegs; ++r) register_fence(acc[j][r]);
        };

        int stage = 0;
        uint32_t phase = 0;
        const int range = cluster_idx();
        WorkUnit u;
        for (WorkCursor work(p.work, range); work.next(u);) {
            int tm, tn;
            sched.cluster_tile(u.tile, tm, tn);
            const int tile_m = p.tile_m0 + tm * CM + cta_m, tile_n = p.tile_n0 + tn * CN + cta_n;
            int prev = -1;
            // ABI 1.2's epilogue terms of this tile (TileTerms): the narrow tiles start copying
            // them into shared memory here, 128x128 loads them into registers here (its first
            // wgmma waits for them: bench/NOTES.md, 2026-11-27 12:52), the others load them in
            // the stores. A stream-K unit without the tile's last k-tile leaves a partial and
            // writes no D, so it loads none.
            const bool leaves_partial = p.work.stream_k() && u.k_end < p.k_tiles;
            [[maybe_unused]] TileTerms<K> terms;
            [[maybe_unused]] auto load_terms = [&] {
                if constexpr (K::kFusesEpilogue)
                    if (p.epi.on && !leaves_partial)
                        terms.load(p, tile_m * BM + consumer * cfg.wg_m(), tile_n * BN,
                                   base + TileTerms<K>::region_offset(consumer, w4), 1u + consumer);
            };
            constexpr bool kTermsFirst = K::kTermsBeforeMainLoop || TileTerms<K>::kWide;
            if constexpr (kTermsFirst) load_terms();

            // One k-tile: wait for its stage, load its metadata into set SET, issue its wgmmas as
            // one group, retire the previous group and release that group's stage.
            auto k_tile = [&](int kt, auto set_c) {
                constexpr int SET = decltype(set_c)::value;
                mbarrier_wait_parity<BarrierScope::Cta>(full_bar(stage), phase);
                const uint8_t* e = smem + e_stage_offset(stage);
#pragma unroll
                for (int j = 0; j < K::kMBlocks; ++j)
#pragma unroll
                    for (int u = 0; u < K::kUnits; ++u)
                        meta[SET][j][u] = *reinterpret_cast<const uint32_t*>(
                            e + meta_word_offset(K::kUnits, cfg.consumer_meta_block(consumer, j, w4), u, lane));
                wgmma_fence();
                static_for<kStepsPerStage>([&](auto step_c) {
                    constexpr int step = decltype(step_c)::value;
#pragma unroll
                    for (int j = 0; j < K::kMBlocks; ++j) {
                        const uint64_t da = kmajor_desc(a_stage(stage), kStageARowBytes, cfg.consumer_a_row(consumer, j),
                                                        step * kInstrARowBytes);
                        const uint64_t db = kmajor_desc(b_stage(stage), kStageBRowBytes, 0, step * kInstrBRowBytes);
                        K::Instr::template mma<BN, meta_selector(K::kFamily, step)>(
                            acc[j], da, db, meta[SET][j][meta_unit_of_step(K::kFamily, step)],
                            (kt > u.k_begin || step > 0) ? 1u : 0u);
                    }
                });
                wgmma_commit_group();
                // The previous k-tile's group is complete once at most this one is pending: its
                // stage and its metadata set are free from here on.
                if (p.serial_wgmma) {
                    wgmma_wait_group<0>();
                } else {
                    wgmma_wait_group<1>();
                }
                keep_meta(SET ^ 1);
                if (prev >= 0) release(prev);
                prev = stage;
                if (++stage == STAGES) {
                    stage = 0;
                    phase ^= 1u;
                }
            };
            int kt = u.k_begin;
            for (; kt + 1 < u.k_end; kt += 2) {
                k_tile(kt, std::integral_constant<int, 0>{});
                k_tile(kt + 1, std::integral_constant<int, 1>{});
            }
            if (kt < u.k_end) k_tile(kt, std::integral_constant<int, 0>{});
            wgmma_wait_group<0>();
            keep_meta(0);
            keep_meta(1);
            keep_acc();
            // NOTES: every CTA writes its epilogue at the same moment (equal tiles) while no wgmma
            // runs, and with one buffer of its own a consumer's chunks wait in turn for TMA to read
            // it (plugins/sm90a/NOTES.md, "Where in the launch the 4096^3 kernel waits"). Where the tile's last
            // stage has room (TileConfig::epi_borrows), the consumers keep that stage and write D
            // into its B rows as well, and release it once those stores have read it.
            // (a unit that ends before the tile's last k-tile writes no D: it leaves a partial)
            // D leaves through the TMA stores unless this kernel fuses an epilogue in its direct
            // stores only (kFusesEpilogueTma; the host does not ask for TMA then either). NOTES:
            // a compile-time true elsewhere: the test of p.epi.on cost the 256x192 kernels,
            // which fuse no epilogue, a spilled register.
            constexpr bool kTmaEveryProblem = !K::kFusesEpilogue || K::kFusesEpilogueTma;
            [[maybe_unused]] const bool tma_d = p.tma_store && (kTmaEveryProblem || !p.epi.on);
            bool borrow = false;
            if constexpr (cfg.epi_borrows()) borrow = tma_d && p.borrow_stage && u.k_end == p.k_tiles;
            if (!borrow) release(prev);

            // ================================ stream-K ================================
            // A unit without the tile's last k-tile leaves its partial sums to the owner; the
            // owner of a split tile adds those of the ranges before its own, then writes D.
            // A tile's ranges in one cluster (KernelParams::sk_cluster_ranges): the partials go
            // through the owner's shared memory, the range of rank r into slot r.
            bool exchanged = false;
            if constexpr (cfg.exchanges_in_cluster()) {
                if (p.sk_cluster_ranges) {
                    // (clusters of two only: the owner, the slot and the count known at compile time)
                    constexpr bool kTwo = cfg.exchange_ranges() == 2;
                    const int ranges = kTwo ? 2 : p.sk_cluster_ranges;
                    const uint32_t bar = base + cfg.exchange_barrier_offset(consumer);
                    if (leaves_partial) {
                        const int rank = kTwo ? 0 : static_cast<int>(cluster_ctarank());
                        send_partial_to_owner<K>(acc, base + cfg.exchange_slot_offset(consumer, rank), bar,
                                                 static_cast<uint32_t>(ranges - 1));
                        continue;
                    }
                    add_partials_from_cluster<K>(acc, smem + cfg.exchange_slot_offset(consumer, 0), cfg.exchange_slot_stride(),
                                                 ranges - 1, bar);
                    exchanged = true;
                }
            }
            if (!exchanged && p.work.stream_k()) {
                const int slot_cta = cta_rank() * K::kConsumers + consumer;
                if (leaves_partial) {
                    store_partial<K>(acc, p, range * K::kCluster * K::kConsumers + slot_cta, 1u + consumer);
                    continue;
                }
                if (u.k_begin > 0) {
                    if constexpr (partial_group(K::kMBlocks * K::kAccRegs / 4) > 0) {
                        const int first = p.work.first_range_of_tile(u.tile);
                        constexpr int kStride = K::kCluster * K::kConsumers;
                        add_partials<K>(acc, p, first * kStride + slot_cta, range - first, kStride, 1u + consumer);
                    } else {
                        for (int r = p.work.first_range_of_tile(u.tile); r < range; ++r)
                            add_partial<K>(acc, p, r * K::kCluster * K::kConsumers + slot_cta, 1u + consumer);
                    }
                }
            }

            // ================================ epilogue ================================
            if constexpr (!kTermsFirst) load_terms();
            if constexpr (K::kFusesEpilogue)
                if (p.epi.on) terms.ready(p, smem + TileTerms<K>::region_offset(consumer, w4), 1u + consumer);
            if constexpr (cfg.tma_store()) {
                if (tma_d) {
                    uint8_t* buf = const_cast<uint8_t*>(smem) + cfg.epi_buffer_offset(consumer, 0);
                    const uint32_t buf_addr = base + cfg.epi_buffer_offset(consumer, 0);
                    const int wg_row0 = tile_m * BM + consumer * cfg.wg_m(), tile_col0 = tile_n * BN;
                    auto store_d = [&](auto borrow_c, auto epi_c) {
                        constexpr bool kBorrow = decltype(borrow_c)::value;
                        [[maybe_unused]] constexpr Epi kEpi = decltype(epi_c)::value;  // (the integer kernels take none)
                        const uint32_t bw_addr = b_stage(prev) + static_cast<uint32_t>(consumer * 2 * cfg.epi_buffer_bytes());
                        uint8_t* bw = const_cast<uint8_t*>(smem) + (bw_addr - base);
                        if constexpr (K::Instr::kAcc == AccKind::S32) {
                            store_tile_tma<K, int32_t, kBorrow>(acc, p, tm_d, buf, buf_addr, wg_row0, tile_col0, consumer, terms, bw, bw_addr);
                        } else {
                            switch (p.d_type) {
                                case SPMMA_F16: store_tile_tma<K, __half, kBorrow, kEpi>(acc, p, tm_d, buf, buf_addr, wg_row0, tile_col0, consumer, terms, bw, bw_addr); break;
                                case SPMMA_BF16: store_tile_tma<K, __nv_bfloat16, kBorrow, kEpi>(acc, p, tm_d, buf, buf_addr, wg_row0, tile_col0, consumer, terms, bw, bw_addr); break;
                                default: store_tile_tma<K, float, kBorrow, kEpi>(acc, p, tm_d, buf, buf_addr, wg_row0, tile_col0, consumer, terms, bw, bw_addr); break;
                            }
                        }
                    };
                    // The ABI 1.2 epilogue is its own instantiation of the stores (Epi); the
                    // integer kernels take none, and only Linear's comes this way (the host
                    // sends a column bias and an activation to the direct stores).
                    auto store_d_epi = [&](auto borrow_c) {
                        if constexpr (K::kFusesEpilogueTma) {
                            if (p.epi.on) return store_d(borrow_c, std::integral_constant<Epi, Epi::Linear>{});
                        }
                        store_d(borrow_c, std::integral_constant<Epi, Epi::Plain>{});
                    };
                    if constexpr (cfg.epi_borrows()) {
                        if (borrow) {
                            store_d_epi(std::true_type{});
                            // The borrowed stage goes back once TMA has read every chunk in it: the
                            // issuing thread waits, its warp (which arrives for the consumer) follows.
                            if (threadIdx.x % 128 == 0) bulk_wait_group_read<0>();
                            __syncwarp();
                            release(prev);
                            continue;
                        }
                    }
                    store_d_epi(std::false_type{});
                    continue;
                }
            }
            const int row0 = tile_m * BM + consumer * cfg.wg_m() + acc_row(w4, lane, 0);
            const int col0 = tile_n * BN + acc_col(lane, 0);
            if constexpr (K::Instr::kAcc == AccKind::S32) {
                store_tile_int<K>(acc, p, row0, col0);
            } else {
                // (Linear's stores without C are their own instantiation: one test of p.use_c a tile)
                auto store_float = [&](auto epi_c) {
                    constexpr Epi kEpi = decltype(epi_c)::value;
                    auto stores = [&](auto may_read_c) {
                        constexpr bool kC = decltype(may_read_c)::value;
                        switch (p.d_type) {
                            case SPMMA_F16: store_tile_float<K, __half, kEpi, kC>(acc, p, row0, col0, terms); break;
                            case SPMMA_BF16: store_tile_float<K, __nv_bfloat16, kEpi, kC>(acc, p, row0, col0, terms); break;
                            default: store_tile_float<K, float, kEpi, kC>(acc, p, row0, col0, terms); break;
                        }
                    };
                    if constexpr (kEpi == Epi::Linear) {
                        if (!p.use_c) return stores(std::false_type{});
                    }
                    stores(std::true_type{});
                };
                if constexpr (K::kFusesEpilogue) {
                    if (p.epi.on) {
                        if (epilogue_form(true, p.epi.activation, p.epi.bias_per_col != 0) == EpilogueForm::Linear)
                            store_float(std::integral_constant<Epi, Epi::Linear>{});
                        else
                            store_float(std::integral_constant<Epi, Epi::General>{});
                        continue;
                    }
                }
                store_float(std::integral_constant<Epi, Epi::Plain>{});
            }
        }
        // The last tma stores must be complete (their reads of this CTA's shared memory included)
        // before it exits.
        if constexpr (cfg.tma_store())
            if (p.tma_store && threadIdx.x % 128 == 0) bulk_wait_group<0>();
    }

    // No CTA may leave while its peers can still multicast into it or arrive on its barriers.
    if constexpr (K::kCluster > 1) {
        __syncwarp();
        cluster_sync();
    }
}

}  // namespace spmma_sm90a

// One kernel: extern "C", named sm90a_<a><b>_<acc>_<bm>x<bn>x<bk>_c<cm>x<cn>_s<stages>.
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S)                                                   \
    using spmma_sm90a_cfg_##A##B##_##ACC##_##BM##x##BN##x##BK##_c##CM##x##CN##_s##S =                          \
        spmma_sm90a::SpGemm<spmma_sm90a::instr_##A##B##_##ACC, BM, BN, CM, CN, S>;                              \
    static_assert(spmma_sm90a_cfg_##A##B##_##ACC##_##BM##x##BN##x##BK##_c##CM##x##CN##_s##S::kBK == BK,         \
                  "the kernel name's k must be the family's stage k");                                          \
    extern "C" __global__ void __launch_bounds__(                                                               \
        spmma_sm90a_cfg_##A##B##_##ACC##_##BM##x##BN##x##BK##_c##CM##x##CN##_s##S::kThreads, 1)                 \
        sm90a_##A##B##_##ACC##_##BM##x##BN##x##BK##_c##CM##x##CN##_s##S(                                        \
            const __grid_constant__ CUtensorMap tm_a, const __grid_constant__ CUtensorMap tm_b,                 \
            const __grid_constant__ CUtensorMap tm_e, const __grid_constant__ CUtensorMap tm_d,                 \
            const spmma_sm90a::KernelParams p) {                                                                \
        spmma_sm90a::spgemm_body<spmma_sm90a_cfg_##A##B##_##ACC##_##BM##x##BN##x##BK##_c##CM##x##CN##_s##S>(   \
            &tm_a, &tm_b, &tm_e, &tm_d, p);                                                                     \
    }

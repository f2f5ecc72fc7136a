// Read-bandwidth probe kernels for bench/dram/dram_read.cpp: each CTA reads its share of a buffer
// from DRAM and keeps nothing, in three ways a GEMM can stream an operand:
//   dram_read_ld     16-byte loads into registers (ld.global.nc, no L1 line), kUnroll in flight
//                    a thread;
//   dram_read_bulk   one thread issues 1-D bulk copies (cp.async.bulk) of `chunk` bytes into a
//                    ring of `stages` shared-memory slots, each refilled as soon as it lands;
//   dram_read_tma    the same ring filled with 2-D tensor copies of box_rows rows of a row-major
//                    matrix, a band of box_rows rows at a time, its columns left to right: the
//                    way the sm90a decode kernels take in A (128 rows of 64 bytes a box).
// What it measures: how fast DRAM can be read at all, over the whole GPU and per SM, with the
// same L2 flush and event timing as a GEMM record; the ceiling any kernel that must read those
// bytes meets.
#include <cuda.h>

#include <cstdint>

#include "dram_read.hpp"
#include "ptx_sm90.cuh"

namespace {

using namespace spmma_ptx;
using spmma_bench::TensorMaps;

constexpr int kUnroll = 4;

// This CTA's share [begin, end) of n items.
__device__ __forceinline__ void cta_share(unsigned long long n, unsigned long long& begin, unsigned long long& end) {
    begin = n * blockIdx.x / gridDim.x;
    end = n * (blockIdx.x + 1) / gridDim.x;
}

__device__ __forceinline__ uint32_t fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

// The ring of stage slots: item c goes to slot c % stages; `issue(slot, bar)` starts the next
// item's copy (items are issued in order), completing on `bar`. One thread (split false) waits
// for each copy to land and refills its slot at once; or, as the GEMM kernels run it (split true),
// thread 0 issues and waits for a slot to be released, thread 32 (another warp) waits for each
// copy and releases its slot. Barriers: `stages` full ones, then `stages` empty ones, 8 bytes
// each. NOTES: slots and phases are counted as the GEMM's producer counts them, never with a
// division: a 64-bit division by a run-time value is a long instruction sequence, and with a few
// of them an item the one issuing thread, not the copy engine, set the rate (20-32 GB/s an SM for
// 8 KB boxes; bench/NOTES.md, 2026-11-29).
template <class Issue>
__device__ __forceinline__ void stream_ring(uint32_t slots, unsigned slot_bytes, unsigned stages, unsigned n,
                                            uint32_t bars, bool split, Issue&& issue) {
    const uint32_t full = bars, empty = bars + 8 * stages;
    if (threadIdx.x == 0) {
        for (unsigned s = 0; s < 2 * stages; ++s) mbarrier_init(bars + 8 * s, 1);
        fence_mbarrier_init_cluster();
    }
    __syncthreads();
    unsigned s = 0;
    uint32_t phase = 0;
    const auto advance = [&] {
        if (++s == stages) {
            s = 0;
            phase ^= 1u;
        }
    };
    if (!split) {
        if (threadIdx.x != 0) return;
        const unsigned first = n < stages ? n : stages;
        for (unsigned c = 0; c < first; ++c) issue(slots + c * slot_bytes, full + 8 * c);
        for (unsigned c = 0; c < n; ++c) {
            mbarrier_wait_parity<BarrierScope::Cta>(full + 8 * s, phase);
            if (c + stages < n) issue(slots + s * slot_bytes, full + 8 * s);
            advance();
        }
    } else if (threadIdx.x == 0) {
        for (unsigned c = 0; c < n; ++c) {
            if (c >= stages) mbarrier_wait_parity<BarrierScope::Cta>(empty + 8 * s, phase ^ 1u);
            issue(slots + s * slot_bytes, full + 8 * s);
            advance();
        }
    } else if (threadIdx.x == 32) {
        for (unsigned c = 0; c < n; ++c) {
            mbarrier_wait_parity<BarrierScope::Cta>(full + 8 * s, phase);
            mbarrier_arrive(empty + 8 * s);
            advance();
        }
    }
}

// The ring's slots, as ring_smem_bytes lays them out.
__device__ __forceinline__ uint32_t aligned_slots(const uint8_t* dynamic_smem) {
    return (smem_addr(dynamic_smem) + 1023u) & ~1023u;
}

}  // namespace

// `vecs` 16-byte vectors; the buffer holds zeros, so the store to `sink` never happens (it keeps
// the loads, which the compiler cannot prove dead).
extern "C" __global__ void __launch_bounds__(1024) dram_read_ld(const uint4* buf, unsigned long long vecs, unsigned* sink) {
    unsigned long long begin, end;
    cta_share(vecs, begin, end);
    const unsigned step = blockDim.x;
    uint32_t acc = 0;
    unsigned long long i = begin + threadIdx.x;
    for (; i + (kUnroll - 1) * step < end; i += kUnroll * step) {
        uint4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = ld_global_nc_no_allocate_v4(buf + i + u * step);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) acc ^= fold(v[u]);
    }
    for (; i < end; i += step) acc ^= fold(ld_global_nc_no_allocate_v4(buf + i));
    if (acc == 1u) *sink = acc;
}

// `bytes` (a multiple of `chunk`, itself a multiple of 16) in chunks; 64 threads; dynamic shared
// memory as ring_smem_bytes says; `split` as stream_ring's.
extern "C" __global__ void dram_read_bulk(const uint8_t* buf, unsigned long long bytes, unsigned chunk, unsigned stages,
                                          unsigned split) {
    extern __shared__ __align__(16) uint8_t smem[];
    const uint32_t slots = aligned_slots(smem), bars = slots + stages * chunk;
    unsigned long long begin, end;
    cta_share(bytes / chunk, begin, end);
    const uint8_t* src = buf + begin * chunk;
    stream_ring(slots, chunk, stages, static_cast<unsigned>(end - begin), bars, split != 0, [&](uint32_t dst, uint32_t bar) {
        mbarrier_arrive_expect_tx(bar, chunk);
        bulk_load_1d(dst, src, chunk, bar);
        src += chunk;
    });
}

// `bands` bands of box_rows rows, each `boxes` boxes wide (box_bytes bytes a box); CTA b takes
// bands b, b + gridDim.x, ... as a persistent GEMM takes its tiles; 64 threads; dynamic shared
// memory as ring_smem_bytes says; `split` as stream_ring's.
extern "C" __global__ void dram_read_tma(const __grid_constant__ TensorMaps maps, unsigned bands, unsigned boxes,
                                         unsigned box_cols, unsigned box_rows, unsigned box_bytes, unsigned stages,
                                         unsigned split) {
    extern __shared__ __align__(16) uint8_t smem[];
    const uint32_t slots = aligned_slots(smem), bars = slots + stages * box_bytes;
    if (threadIdx.x == 0)
        for (unsigned i = 0; i < maps.count; ++i) prefetch_tensormap(&maps.map[i]);
    const unsigned mine = blockIdx.x < bands ? (bands - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    unsigned band = blockIdx.x, box = 0, map = 0;
    stream_ring(slots, box_bytes, stages, mine * boxes, bars, split != 0, [&](uint32_t dst, uint32_t bar) {
        mbarrier_arrive_expect_tx(bar, box_bytes);
        tma_load_2d(dst, &maps.map[map], bar, static_cast<int32_t>(box * box_cols), static_cast<int32_t>(band * box_rows));
        if (++map == maps.count) map = 0;
        if (++box == boxes) {
            box = 0;
            band += gridDim.x;
        }
    });
}

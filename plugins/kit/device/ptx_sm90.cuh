// PTX wrappers shared by the Hopper-and-later plugins (sm_90a, sm_100a): mbarriers, the tensor
// copy engine (cp.async.bulk.tensor, multicast included), proxy fences, cluster ids, barriers and
// shared::cluster addressing, elect.sync. One small inline function per instruction form; each
// cites its section of the PTX ISA (docs.nvidia.com/cuda/parallel-thread-execution, anchor names
// in brackets). Kernels contain no asm of their own.
//
// Shared-memory operands are 32-bit shared::cta addresses (smem_addr() below) unless the name
// says cluster.
#pragma once

#include <cstdint>

#include "ptx_addr.cuh"

namespace spmma_ptx {

// ---- addresses -----------------------------------------------------------------------------

// PTX ISA mapa [data-movement-and-conversion-instructions-mapa]: the shared::cluster
// address of the same offset in the CTA of rank `cta_rank` in this cluster.
__device__ __forceinline__ uint32_t mapa_shared_cluster(uint32_t smem_cta_addr, uint32_t cta_rank) {
    uint32_t out;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(smem_cta_addr), "r"(cta_rank));
    return out;
}

// ---- ids -----------------------------------------------------------------------------------

// PTX ISA special register %cluster_ctarank [special-registers-cluster-ctarank]: this CTA's rank in its cluster.
__device__ __forceinline__ uint32_t cluster_ctarank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

// PTX ISA special register %clusterid [special-registers-clusterid]: x of this CTA's cluster in the grid.
__device__ __forceinline__ uint32_t cluster_id_x() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
    return r;
}

// PTX ISA special register %nclusterid [special-registers-nclusterid]: clusters in the grid along x.
__device__ __forceinline__ uint32_t cluster_count_x() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
    return r;
}

// PTX ISA elect.sync [parallel-synchronization-and-communication-instructions-elect-sync]:
// true in exactly one active lane of the full warp.
__device__ __forceinline__ bool elect_one() {
    uint32_t pred = 0;
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "elect.sync _|p, 0xffffffff;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(pred));
    return pred != 0;
}

// ---- cluster barrier -----------------------------------------------------------------------

// PTX ISA barrier.cluster [parallel-synchronization-and-communication-instructions-barrier-cluster]:
// arrive (release) and wait (acquire) of all threads of all CTAs of the cluster.
__device__ __forceinline__ void cluster_arrive() {
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_sync() {
    cluster_arrive();
    cluster_wait();
}

// ---- fences --------------------------------------------------------------------------------

// PTX ISA membar/fence [parallel-synchronization-and-communication-instructions-membar]:
// fence.mbarrier_init makes mbarrier.init of this thread visible to the cluster (before peers
// arrive on, or multicast into, this CTA's barriers).
__device__ __forceinline__ void fence_mbarrier_init_cluster() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// PTX ISA membar/fence, proxy fences: orders this thread's generic-proxy shared-memory accesses
// before later async-proxy accesses (TMA, wgmma) to shared memory.
__device__ __forceinline__ void fence_proxy_async_shared_cta() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// ---- mbarrier ------------------------------------------------------------------------------

// PTX ISA mbarrier.init [parallel-synchronization-and-communication-instructions-mbarrier-init].
__device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t arrive_count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrive_count) : "memory");
}

// PTX ISA mbarrier.arrive [parallel-synchronization-and-communication-instructions-mbarrier-arrive]:
// arrive on a barrier of this CTA (release at CTA scope).
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// PTX ISA mbarrier.arrive: arrive on a barrier in the CTA that owns `cluster_bar` (a
// shared::cluster address from mapa_shared_cluster), release at cluster scope.
__device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t cluster_bar) {
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_bar) : "memory");
}

// PTX ISA mbarrier.arrive: arrive on a barrier in the CTA that owns `cluster_bar` (a
// shared::cluster address from mapa_shared_cluster) with the default semantics (release, CTA
// scope). NOTES: for a consumer that only read the stage through the async proxy (wgmma, whose
// completion wgmma.wait_group already established) nothing generic needs ordering at cluster
// scope; the .release.cluster form above costs a MEMBAR.ALL.GPU per arrival in SASS.
__device__ __forceinline__ void mbarrier_arrive_remote(uint32_t cluster_bar) {
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(cluster_bar) : "memory");
}

// PTX ISA mbarrier.expect_tx / mbarrier.arrive.expect_tx
// [parallel-synchronization-and-communication-instructions-mbarrier-arrive]: one arrival that
// also expects `bytes` more of asynchronous transactions (complete-tx) in the current phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
}

// PTX ISA mbarrier.test_wait/try_wait
// [parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait]: true
// once the phase with parity `parity` has completed (the instruction suspends for a time limit
// per try).
// BarrierScope::Cluster: .acquire.cluster, so that data multicast by peer CTAs and their remote
// arrivals are visible (sm100a). BarrierScope::Cta: the default semantics (acquire, CTA scope):
// enough for data that TMA (multicast included) delivers with complete-tx on this CTA's barrier
// and for arrivals from peers that only release async-proxy reads (sm90a). NOTES: the cluster
// form adds a CCTL.IVALL (L1 invalidation) after every successful wait.
enum class BarrierScope { Cta, Cluster };

template <BarrierScope S = BarrierScope::Cluster>
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint32_t bar, uint32_t parity) {
    uint32_t done;
// One asm statement per semantics; QUAL is the qualifier text between .parity and .shared.
#define SPMMA_MBARRIER_TRY_WAIT_PARITY(QUAL)                                                         \
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity" QUAL ".shared::cta.b64 p, [%1], %2;\n" \
                 "selp.u32 %0, 1, 0, p;\n}\n"                                                        \
                 : "=r"(done)                                                                      \
                 : "r"(bar), "r"(parity)                                                           \
                 : "memory")
    if constexpr (S == BarrierScope::Cluster) {
        SPMMA_MBARRIER_TRY_WAIT_PARITY(".acquire.cluster");
    } else {
        SPMMA_MBARRIER_TRY_WAIT_PARITY("");
    }
#undef SPMMA_MBARRIER_TRY_WAIT_PARITY
    return done != 0;
}

template <BarrierScope S = BarrierScope::Cluster>
__device__ __forceinline__ void mbarrier_wait_parity(uint32_t bar, uint32_t parity) {
    while (!mbarrier_try_wait_parity<S>(bar, parity)) {
    }
}

// ---- distributed shared memory -------------------------------------------------------------

// PTX ISA st.async [data-movement-and-conversion-instructions-st-async]: four 32-bit words into the
// shared memory of a peer CTA of the cluster (`dst`, 16-byte aligned, and `remote_bar`, both
// shared::cluster addresses from mapa), completing 16 bytes of complete-tx on that CTA's mbarrier
// `remote_bar`. Non-blocking: the words are taken from the registers as it issues. The float form
// passes f32 registers as they are (a .b32 operand takes any 32-bit register).
__device__ __forceinline__ void st_async_v4(uint32_t dst, uint32_t a, uint32_t b, uint32_t c, uint32_t d,
                                            uint32_t remote_bar) {
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(dst),
                 "r"(a), "r"(b), "r"(c), "r"(d), "r"(remote_bar)
                 : "memory");
}
__device__ __forceinline__ void st_async_v4(uint32_t dst, float a, float b, float c, float d, uint32_t remote_bar) {
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(dst),
                 "f"(a), "f"(b), "f"(c), "f"(d), "r"(remote_bar)
                 : "memory");
}

// ---- tensor copy engine (TMA) --------------------------------------------------------------

// PTX ISA cp.async.bulk [data-movement-and-conversion-instructions-cp-async-bulk]: `bytes` (a
// multiple of 16; both addresses 16-byte aligned) from global memory into this CTA's shared
// memory, completing `bytes` of complete-tx on the mbarrier `bar` of this CTA.
__device__ __forceinline__ void bulk_load_1d(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}

// PTX ISA prefetch{.tensormap} [data-movement-and-conversion-instructions-prefetch-prefetchu]:
// brings a tensor map (a __grid_constant__ kernel parameter) into the cache ahead of its first use.
__device__ __forceinline__ void prefetch_tensormap(const void* tensor_map) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(tensor_map)) : "memory");
}

// PTX ISA cp.async.bulk.tensor [data-movement-and-conversion-instructions-cp-async-bulk-tensor]:
// a 2-D tile (coordinates c0 innermost, c1) from global memory into this CTA's shared memory,
// completing `bytes` of complete-tx on the mbarrier `bar` of this CTA. Out-of-bound elements
// are filled with zeros.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const void* tensor_map, uint32_t bar, int32_t c0,
                                            int32_t c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(bar), "r"(c0), "r"(c1)
        : "memory");
}

// As tma_load_2d, with .multicast::cluster: the tile lands at the same shared-memory offset in
// every CTA whose bit is set in `cta_mask`, and each of those CTAs' mbarrier at offset `bar`
// receives the complete-tx.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const void* tensor_map, uint32_t bar,
                                                      int32_t c0, int32_t c1, uint16_t cta_mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(bar), "r"(c0), "r"(c1), "h"(cta_mask)
        : "memory");
}

// PTX ISA cp.async.bulk.tensor, shared::cta -> global direction with bulk_group completion:
// stores a 2-D tile; elements outside the tensor are not written.
__device__ __forceinline__ void tma_store_2d(const void* tensor_map, uint32_t src, int32_t c0, int32_t c1) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
                     reinterpret_cast<uint64_t>(tensor_map)),
                 "r"(src), "r"(c0), "r"(c1)
                 : "memory");
}

// PTX ISA cp.async.bulk.commit_group [data-movement-and-conversion-instructions-cp-async-bulk-commit-group].
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }

// PTX ISA cp.async.bulk.wait_group.read [data-movement-and-conversion-instructions-cp-async-bulk-wait-group]:
// waits until at most N bulk groups are pending their reads of shared memory.
template <int N>
__device__ __forceinline__ void bulk_wait_group_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

// PTX ISA cp.async.bulk.wait_group: waits until at most N bulk groups are complete.
template <int N>
__device__ __forceinline__ void bulk_wait_group() {
    asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}

// ---- named barriers ------------------------------------------------------------------------

// PTX ISA bar.sync/barrier.sync [parallel-synchronization-and-communication-instructions-bar]:
// `threads` threads (a multiple of 32) synchronise on named barrier `id` (1..15; 0 is __syncthreads).
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// ---- global loads --------------------------------------------------------------------------

// PTX ISA ld.global.nc [data-movement-and-conversion-instructions-ld-global-nc], .L1::no_allocate:
// 16 bytes of read-only global memory that do not take a line in L1 (data used once, straight to
// registers).
__device__ __forceinline__ uint4 ld_global_nc_no_allocate_v4(const uint4* p) {
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}

// ---- global flags between CTAs -------------------------------------------------------------

// PTX ISA st [data-movement-and-conversion-instructions-st], .release.gpu: stores `v` after every
// memory access this thread made before it (and, cumulatively, those a barrier ordered before
// them) is visible at GPU scope. The releasing half of a flag handshake between CTAs.
__device__ __forceinline__ void st_release_gpu_u32(uint32_t* p, uint32_t v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// PTX ISA ld [data-movement-and-conversion-instructions-ld], .acquire.gpu: a load after which
// this thread (and, through a later barrier, its CTA peers) sees what the releasing store made
// visible. The acquiring half of the handshake.
__device__ __forceinline__ uint32_t ld_acquire_gpu_u32(const uint32_t* p) {
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

}  // namespace spmma_ptx

// PTX wrappers of the tcgen05 instructions (5th-generation tensor cores, sm_100a) the sparse GEMM
// uses: tensor-memory allocation, the shared-to-tensor-memory copy, tcgen05.mma.sp of every kind
// (block-scaled ones included), commit to an mbarrier, loads of D, waits and fences; plus the
// .cta_group::2 form of the tensor copy engine's load. One small inline function per instruction
// form; each cites its section of the PTX ISA (docs.nvidia.com/cuda/parallel-thread-execution,
// anchor names in brackets). Kernels contain no asm of their own.
//
// CG is the .cta_group (1 or 2); PTX requires every tcgen05 instruction of a kernel to name the
// same one.
#pragma once

#include <spmma_sm100a/kind.hpp>

#include <cstdint>

namespace spmma_ptx {

// ---- tensor memory allocation (PTX ISA 9.7.16.7.1 [tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit])
// Warp-wide (.sync.aligned). alloc writes the base address of `columns` columns (a power of two
// >= 32) to the shared-memory word `dst`; cta_group::2 is issued by one warp in each CTA of the
// pair (same warp id), and allocates in both.

template <int CG>
__device__ __forceinline__ void tmem_alloc(uint32_t dst, uint32_t columns) {
    if constexpr (CG == 1)
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(dst), "r"(columns) : "memory");
    else
        asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(dst), "r"(columns) : "memory");
}

template <int CG>
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t columns) {
    if constexpr (CG == 1)
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(taddr), "r"(columns) : "memory");
    else
        asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(taddr), "r"(columns) : "memory");
}

// Gives up the right to allocate again (this CTA allocates once, at the start).
template <int CG>
__device__ __forceinline__ void tmem_relinquish_alloc_permit() {
    if constexpr (CG == 1)
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    else
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
}

// ---- fences (PTX ISA 9.7.16.11.1 [tcgen05-special-sync-operations-fence]) ----------------------
// before_thread_sync: orders this thread's prior tcgen05 operations before a following
// synchronisation (barrier, mbarrier arrive); after_thread_sync: orders a preceding
// synchronisation before this thread's following tcgen05 operations.
__device__ __forceinline__ void tcgen05_fence_before_thread_sync() {
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
__device__ __forceinline__ void tcgen05_fence_after_thread_sync() {
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// ---- commit (PTX ISA 9.7.16.12.1 [tcgen-async-sync-operations-commit]) --------------------------
// The mbarrier `bar` gets one arrival once every tcgen05.mma / tcgen05.cp this thread issued
// before has completed. cta_group::2: the arrival goes to the barrier at the same offset in each
// CTA of the pair whose bit is set in `cta_mask`.
template <int CG>
__device__ __forceinline__ void tcgen05_commit(uint32_t bar, uint16_t cta_mask) {
    if constexpr (CG == 1) {
        (void)cta_mask;
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar) : "memory");
    } else {
        asm volatile(
            "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%0], %1;" ::"r"(bar),
            "h"(cta_mask)
            : "memory");
    }
}

// ---- shared memory -> tensor memory (PTX ISA 9.7.16.9.2 [tcgen05-instructions-tcgen05-cp]) -------
// 128x128b: 128 rows of 16 bytes (matrix descriptor `src`) into lanes 0..127, 4 columns from
// `taddr`. 32x128b.warpx4: 32 rows of 16 bytes into lanes 0..31 of every 32-lane quarter (the
// copy is multicast to the four warps' lanes). cta_group::2: into the tensor memory of both
// CTAs of the pair, each from its own shared memory at the descriptor's address.
template <int CG>
__device__ __forceinline__ void tcgen05_cp_128x128b(uint32_t taddr, uint64_t src) {
    if constexpr (CG == 1)
        asm volatile("tcgen05.cp.cta_group::1.128x128b [%0], %1;" ::"r"(taddr), "l"(src) : "memory");
    else
        asm volatile("tcgen05.cp.cta_group::2.128x128b [%0], %1;" ::"r"(taddr), "l"(src) : "memory");
}

template <int CG>
__device__ __forceinline__ void tcgen05_cp_32x128b_warpx4(uint32_t taddr, uint64_t src) {
    if constexpr (CG == 1)
        asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;" ::"r"(taddr), "l"(src) : "memory");
    else
        asm volatile("tcgen05.cp.cta_group::2.32x128b.warpx4 [%0], %1;" ::"r"(taddr), "l"(src) : "memory");
}

// ---- tensor memory -> registers (PTX ISA 9.7.16.8.3 [tcgen05-instructions-tcgen05-ld]) -----------
// 32x32b.x16: lane i of the warp reads 16 consecutive 32-bit columns of tensor-memory lane
// (taddr's lane + i); the warp may only name the 32 lanes of its quarter (warp id % 4).
__device__ __forceinline__ void tcgen05_ld_32x32b_x16(uint32_t taddr, uint32_t (&r)[16]) {
    asm volatile(
        "tcgen05.ld.sync.aligned.32x32b.x16.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, "
        "%15}, [%16];"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8]),
          "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15])
        : "r"(taddr)
        : "memory");
}

// PTX ISA 9.7.16.8.5 [tcgen05-instructions-tcgen05-wait]: waits for this thread's tcgen05.ld.
__device__ __forceinline__ void tcgen05_wait_ld() { asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory"); }

// ---- tcgen05.mma.sp (PTX ISA 9.7.16.10.9.2 [tcgen05-mma-instructions-mma-sp]) --------------------
// D[d_tmem] (+)= A(a_desc, compressed, metadata at meta_tmem) * B(b_desc), the shape, types and
// sparsity selector in `idesc`; block-scaled kinds scale with scale_A / scale_B at sfa_tmem /
// sfb_tmem (scale-factor ids in idesc). accumulate == 0 computes D = A*B. Issued by one thread.

#define SPMMA_TCGEN05_MMA_SP(QUALS)                                                           \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"                                  \
                 "tcgen05.mma.sp" QUALS " [%0], %1, %2, [%3], %5, p;\n}\n" ::"r"(d_tmem),       \
                 "l"(a_desc), "l"(b_desc), "r"(meta_tmem), "r"(accumulate), "r"(idesc)         \
                 : "memory")
#define SPMMA_TCGEN05_MMA_SP_SCALED(QUALS)                                                         \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"                                       \
                 "tcgen05.mma.sp" QUALS " [%0], %1, %2, [%3], %5, [%6], [%7], p;\n}\n" ::"r"(d_tmem), \
                 "l"(a_desc), "l"(b_desc), "r"(meta_tmem), "r"(accumulate), "r"(idesc), "r"(sfa_tmem), \
                 "r"(sfb_tmem)                                                                      \
                 : "memory")

template <spmma_sm100a::Kind K, int CG, spmma_sm100a::ScaleVec SV>
__device__ __forceinline__ void tcgen05_mma_sp(uint32_t d_tmem, uint64_t a_desc, uint64_t b_desc, uint32_t meta_tmem,
                                               uint32_t idesc, uint32_t sfa_tmem, uint32_t sfb_tmem,
                                               uint32_t accumulate) {
    using spmma_sm100a::Kind;
    using spmma_sm100a::ScaleVec;
    static_assert(CG == 1 || CG == 2, "cta_group is 1 or 2");
    static_assert(spmma_sm100a::valid_scale_vec(K, SV), "no such tcgen05.mma.sp form");
    if constexpr (!spmma_sm100a::is_block_scaled(K)) {
        (void)sfa_tmem;
        (void)sfb_tmem;
    }
    if constexpr (CG == 1) {
        if constexpr (K == Kind::F16) SPMMA_TCGEN05_MMA_SP(".cta_group::1.kind::f16");
        else if constexpr (K == Kind::TF32) SPMMA_TCGEN05_MMA_SP(".cta_group::1.kind::tf32");
        else if constexpr (K == Kind::F8F6F4) SPMMA_TCGEN05_MMA_SP(".cta_group::1.kind::f8f6f4");
        else if constexpr (K == Kind::I8) SPMMA_TCGEN05_MMA_SP(".cta_group::1.kind::i8");
        else if constexpr (K == Kind::MXF8F6F4) SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X");
        else if constexpr (K == Kind::MXF4) SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::1.kind::mxf4.block_scale.scale_vec::2X");
        else if constexpr (SV == ScaleVec::X2) SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X");
        else SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X");
    } else {
        if constexpr (K == Kind::F16) SPMMA_TCGEN05_MMA_SP(".cta_group::2.kind::f16");
        else if constexpr (K == Kind::TF32) SPMMA_TCGEN05_MMA_SP(".cta_group::2.kind::tf32");
        else if constexpr (K == Kind::F8F6F4) SPMMA_TCGEN05_MMA_SP(".cta_group::2.kind::f8f6f4");
        else if constexpr (K == Kind::I8) SPMMA_TCGEN05_MMA_SP(".cta_group::2.kind::i8");
        else if constexpr (K == Kind::MXF8F6F4) SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X");
        else if constexpr (K == Kind::MXF4) SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::2.kind::mxf4.block_scale.scale_vec::2X");
        else if constexpr (SV == ScaleVec::X2) SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::2X");
        else SPMMA_TCGEN05_MMA_SP_SCALED(".cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X");
    }
}

#undef SPMMA_TCGEN05_MMA_SP
#undef SPMMA_TCGEN05_MMA_SP_SCALED

// ---- TMA with .cta_group::2 (PTX ISA 9.7.9.25.5.1 [data-movement-and-conversion-instructions-cp-async-bulk-tensor])
// As spmma_ptx::tma_load_2d (ptx_sm90.cuh) into this CTA's shared memory, but the complete-tx
// goes to the mbarrier `cluster_bar` (a shared::cluster address from mapa), which .cta_group::2
// allows to be in the peer CTA of the pair: both CTAs' loads then count on the even CTA's
// barrier, the one its MMA thread waits on.
__device__ __forceinline__ void tma_load_2d_cta_pair(uint32_t dst, const void* tensor_map, uint32_t cluster_bar,
                                                     int32_t c0, int32_t c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(cluster_bar), "r"(c0), "r"(c1)
        : "memory");
}

}  // namespace spmma_ptx

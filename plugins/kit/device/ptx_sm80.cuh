// PTX wrappers for the sm_80 data-movement instructions that several plugins share
// (read-only global loads, asynchronous global->shared copies and warp-level matrix loads). One wrapper per
// instruction form, each citing its PTX ISA section; kernels contain no asm of their own.
#pragma once

#include <cstdint>

#include "ptx_addr.cuh"

namespace spmma_ptx {

// PTX ISA ld.global.nc [data-movement-and-conversion-instructions-ld-global-nc]: an f32 of
// read-only global memory through the non-coherent path. NOTES: asm volatile, unlike __ldg,
// whose loads the compiler may merge and hoist: one load per call, in program order among the
// other volatile asm (barriers), which ptxas may still start ahead of unrelated stores.
__device__ __forceinline__ float ld_global_nc_f32(const float* p) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

// The same, two adjacent f32 (8-byte aligned) in one load.
__device__ __forceinline__ float2 ld_global_nc_v2_f32(const float2* p) {
    float2 v;
    asm volatile("ld.global.nc.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p));
    return v;
}

// PTX ISA 9.7.9.25.3.1 cp.async: 16 bytes global -> shared, cached in L2 only (.cg), with a
// 128-byte L2 prefetch hint. Both addresses 16-byte aligned.
__device__ __forceinline__ void cp_async_16(uint32_t dst_smem, const void* src_global) {
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(dst_smem), "l"(src_global));
}

// PTX ISA 9.7.9.25.3.1 cp.async with src-size: copies src_bytes (0..16) and zero-fills the rest
// of the 16 destination bytes (src_bytes == 0 reads nothing).
__device__ __forceinline__ void cp_async_16_zfill(uint32_t dst_smem, const void* src_global, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst_smem), "l"(src_global), "r"(src_bytes));
}

// PTX ISA 9.7.9.25.3.1 cp.async, cached at all levels (.ca): kBytes (4 or 8) global -> shared,
// both addresses kBytes-aligned: the small copies (a scale, a pair of them).
template <int kBytes>
__device__ __forceinline__ void cp_async_ca(uint32_t dst_smem, const void* src_global) {
    static_assert(kBytes == 4 || kBytes == 8, "cp.async.ca copies 4, 8 or 16 bytes; 16 go through cp_async_16");
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst_smem), "l"(src_global), "n"(kBytes) : "memory");
}

// PTX ISA 9.7.9.25.3.2 cp.async.commit_group: closes the group of this thread's cp.async so far.
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// PTX ISA 9.7.9.25.3.3 cp.async.wait_group: waits until at most N of this thread's groups are
// pending (their writes to shared memory are then visible to this thread; a barrier makes them
// visible to the others).
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// PTX ISA 9.7.14.5.15 ldmatrix: four 8x8 matrices of 16-bit elements (8 rows of 16 bytes each).
// Lane l gives the address of row l%8 of matrix l/8; register q of lane l receives bytes
// [4*(l%4), +4) of row l/4 of matrix q. Used byte-wise for every element type.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem));
}

}  // namespace spmma_ptx

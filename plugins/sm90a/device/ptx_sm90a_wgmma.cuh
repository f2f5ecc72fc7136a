// PTX wrappers of the sm_90a-only instructions the sparse GEMM uses: wgmma.mma_async.sp (both
// operands from shared memory through matrix descriptors), wgmma.fence / commit_group /
// wait_group, and setmaxnreg. One wrapper per instruction form; the section of the PTX ISA is
// cited on each (docs.nvidia.com/cuda/parallel-thread-execution). Kernels contain no asm.
#pragma once

#include <cstdint>

#include "wgmma_operands.inc"

namespace spmma_ptx {

// ---- wgmma.mma_async.sp ----------------------------------------------------------------------
// PTX ISA 9.7.15.6.3 wgmma.mma_async.sp: D(64 x N) (+)= A(64 x K, 2:4 or 1:2 sparse, compressed
// to 64 x K/2 in shared memory, descriptor desc_a) * B(K x N, shared memory, descriptor desc_b),
// with the metadata word `meta` of this thread and the sparsity selector Sel (0 or 1 for 16- and
// 32-bit types: the thread pair of each quad that supplies metadata; 0 for 8-bit types).
// scale_d == 0 computes D = A*B (the accumulator is not read). Matrices are K-major (no
// transpose), no negation. N must be one of 8, 16, 32, 64, 96, 128, 192, 256 here.
//   d: N/2 registers (f32 or s32 accumulators) or N/4 (f16 accumulators, two per register),
//   in the accumulator fragment layout of PTX ISA 9.7.15.5.1.1 (wgmma D fragments).

#define SPMMA_WGMMA_SP_ASM(N, K, TYPES, SUFFIX, R, KIND)                                                \
    asm volatile("{\n.reg .pred p;\n" SPMMA_WG_SETP_##R "wgmma.mma_async.sp.sync.aligned.m64n" #N "k" #K \
                 TYPES " " SPMMA_WG_REGS_##R ", " SPMMA_WG_TAIL_##R SUFFIX ";\n}\n"                     \
                 : SPMMA_WG_OUT_##KIND##_##R(d)                                                         \
                 : "l"(desc_a), "l"(desc_b), "r"(meta), "r"(scale_d), "n"(Sel))

// N -> register count for two accumulators per n-column pair (f32, s32) ...
#define SPMMA_WGMMA_SP_CHAIN_2(K, TYPES, SUFFIX, KIND)                      \
    if constexpr (N == 8) SPMMA_WGMMA_SP_ASM(8, K, TYPES, SUFFIX, 4, KIND);        \
    else if constexpr (N == 16) SPMMA_WGMMA_SP_ASM(16, K, TYPES, SUFFIX, 8, KIND);  \
    else if constexpr (N == 32) SPMMA_WGMMA_SP_ASM(32, K, TYPES, SUFFIX, 16, KIND); \
    else if constexpr (N == 64) SPMMA_WGMMA_SP_ASM(64, K, TYPES, SUFFIX, 32, KIND); \
    else if constexpr (N == 96) SPMMA_WGMMA_SP_ASM(96, K, TYPES, SUFFIX, 48, KIND); \
    else if constexpr (N == 128) SPMMA_WGMMA_SP_ASM(128, K, TYPES, SUFFIX, 64, KIND); \
    else if constexpr (N == 192) SPMMA_WGMMA_SP_ASM(192, K, TYPES, SUFFIX, 96, KIND); \
    else if constexpr (N == 256) SPMMA_WGMMA_SP_ASM(256, K, TYPES, SUFFIX, 128, KIND);

// ... and for f16 accumulators, two per register.
#define SPMMA_WGMMA_SP_CHAIN_4(K, TYPES, SUFFIX, KIND)                      \
    if constexpr (N == 8) SPMMA_WGMMA_SP_ASM(8, K, TYPES, SUFFIX, 2, KIND);        \
    else if constexpr (N == 16) SPMMA_WGMMA_SP_ASM(16, K, TYPES, SUFFIX, 4, KIND);  \
    else if constexpr (N == 32) SPMMA_WGMMA_SP_ASM(32, K, TYPES, SUFFIX, 8, KIND);  \
    else if constexpr (N == 64) SPMMA_WGMMA_SP_ASM(64, K, TYPES, SUFFIX, 16, KIND); \
    else if constexpr (N == 96) SPMMA_WGMMA_SP_ASM(96, K, TYPES, SUFFIX, 24, KIND); \
    else if constexpr (N == 128) SPMMA_WGMMA_SP_ASM(128, K, TYPES, SUFFIX, 32, KIND); \
    else if constexpr (N == 192) SPMMA_WGMMA_SP_ASM(192, K, TYPES, SUFFIX, 48, KIND); \
    else if constexpr (N == 256) SPMMA_WGMMA_SP_ASM(256, K, TYPES, SUFFIX, 64, KIND);

#define SPMMA_DEFINE_WGMMA_SP(NAME, K, TYPES, SUFFIX, ACC_T, KIND, DIV)                                      \
    template <int N, int Sel>                                                                              \
    __device__ __forceinline__ void NAME(ACC_T (&d)[N / DIV], uint64_t desc_a, uint64_t desc_b, uint32_t meta, \
                                         uint32_t scale_d) {                                               \
        static_assert(N == 8 || N == 16 || N == 32 || N == 64 || N == 96 || N == 128 || N == 192 || N == 256, \
                      "wgmma.mma_async.sp wrapper: N not provided");                                      \
        SPMMA_WGMMA_SP_CHAIN_##DIV(K, TYPES, SUFFIX, KIND)                                                 \
    }

// 16-bit types: m64nNk32; the trailing immediates are imm-scale-a, imm-scale-b, imm-trans-a,
// imm-trans-b (no negation, no transpose: both operands K-major).
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f32_f16_f16, 32, ".f32.f16.f16", ", 1, 1, 0, 0", float, F, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f16_f16_f16, 32, ".f16.f16.f16", ", 1, 1, 0, 0", uint32_t, R, 4)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f32_bf16_bf16, 32, ".f32.bf16.bf16", ", 1, 1, 0, 0", float, F, 2)
// tf32: m64nNk16, imm-scale-a, imm-scale-b only.
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f32_tf32_tf32, 16, ".f32.tf32.tf32", ", 1, 1", float, F, 2)
// fp8: m64nNk64, any A/B combination, f32 or f16 accumulators.
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f32_e4m3_e4m3, 64, ".f32.e4m3.e4m3", ", 1, 1", float, F, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f32_e4m3_e5m2, 64, ".f32.e4m3.e5m2", ", 1, 1", float, F, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f32_e5m2_e4m3, 64, ".f32.e5m2.e4m3", ", 1, 1", float, F, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f32_e5m2_e5m2, 64, ".f32.e5m2.e5m2", ", 1, 1", float, F, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f16_e4m3_e4m3, 64, ".f16.e4m3.e4m3", ", 1, 1", uint32_t, R, 4)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f16_e4m3_e5m2, 64, ".f16.e4m3.e5m2", ", 1, 1", uint32_t, R, 4)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f16_e5m2_e4m3, 64, ".f16.e5m2.e4m3", ", 1, 1", uint32_t, R, 4)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_f16_e5m2_e5m2, 64, ".f16.e5m2.e5m2", ", 1, 1", uint32_t, R, 4)
// 8-bit integers: m64nNk64, s32 accumulators, wrapping or .satfinite; no immediates.
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32_s8_s8, 64, ".s32.s8.s8", "", uint32_t, R, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32_s8_u8, 64, ".s32.s8.u8", "", uint32_t, R, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32_u8_s8, 64, ".s32.u8.s8", "", uint32_t, R, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32_u8_u8, 64, ".s32.u8.u8", "", uint32_t, R, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32sat_s8_s8, 64, ".satfinite.s32.s8.s8", "", uint32_t, R, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32sat_s8_u8, 64, ".satfinite.s32.s8.u8", "", uint32_t, R, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32sat_u8_s8, 64, ".satfinite.s32.u8.s8", "", uint32_t, R, 2)
SPMMA_DEFINE_WGMMA_SP(wgmma_sp_s32sat_u8_u8, 64, ".satfinite.s32.u8.u8", "", uint32_t, R, 2)

#undef SPMMA_DEFINE_WGMMA_SP
#undef SPMMA_WGMMA_SP_CHAIN_2
#undef SPMMA_WGMMA_SP_CHAIN_4
#undef SPMMA_WGMMA_SP_ASM

// ---- wgmma.mma_async (dense) -------------------------------------------------------------------
// PTX ISA 9.7.15.5.2 wgmma.mma_async: D(64 x N) (+)= A(64 x K) * B(K x N), both K-major in shared
// memory. Not used by the GEMM kernels: bench/sm90a's throughput probe issues it next to the
// sparse form to tell the shared-memory operand bandwidth from the tensor-core rate. `meta` and
// the selector are ignored (same operand numbering as the sparse wrappers).
#define SPMMA_WGMMA_DENSE_ASM(N, K, TYPES, SUFFIX, R)                                                    \
    asm volatile("{\n.reg .pred p;\n" SPMMA_WG_SETP_##R "wgmma.mma_async.sync.aligned.m64n" #N "k" #K    \
                 TYPES " " SPMMA_WG_REGS_##R ", " SPMMA_WG_DTAIL_##R SUFFIX ";\n}\n"                       \
                 : SPMMA_WG_OUT_F_##R(d)                                                                \
                 : "l"(desc_a), "l"(desc_b), "r"(0u), "r"(scale_d), "n"(0))

#define SPMMA_DEFINE_WGMMA_DENSE(NAME, K, TYPES, SUFFIX)                                                      \
    template <int N>                                                                                        \
    __device__ __forceinline__ void NAME(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, uint32_t scale_d) { \
        static_assert(N == 128 || N == 256, "dense wgmma wrapper: N not provided");                        \
        if constexpr (N == 128) SPMMA_WGMMA_DENSE_ASM(128, K, TYPES, SUFFIX, 64);                            \
        else SPMMA_WGMMA_DENSE_ASM(256, K, TYPES, SUFFIX, 128);                                              \
    }

// f16: m64nNk16 (imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b); e4m3: m64nNk32.
SPMMA_DEFINE_WGMMA_DENSE(wgmma_f32_f16_f16, 16, ".f32.f16.f16", ", 1, 1, 0, 0")
SPMMA_DEFINE_WGMMA_DENSE(wgmma_f32_e4m3_e4m3, 32, ".f32.e4m3.e4m3", ", 1, 1")

#undef SPMMA_DEFINE_WGMMA_DENSE
#undef SPMMA_WGMMA_DENSE_ASM

// PTX ISA 9.7.15.6.3 wgmma.mma_async.sp with A in registers (f16, f32 accumulators): the
// compressed 64 x 16 A fragment in four registers per thread (the layout of PTX ISA 9.7.15.6.2),
// B through its descriptor. Used by bench/sm90a's probe only, to measure the rate without the
// A operand's shared-memory reads.
#define SPMMA_WGMMA_SP_RS_ASM(N, R)                                                                           \
    asm volatile("{\n.reg .pred p;\n" SPMMA_WG_RSSETP_##R "wgmma.mma_async.sp.sync.aligned.m64n" #N            \
                 "k32.f32.f16.f16 " SPMMA_WG_REGS_##R ", " SPMMA_WG_RSTAIL_##R ", 1, 1, 0;\n}\n"                \
                 : SPMMA_WG_OUT_F_##R(d)                                                                       \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(meta), "r"(scale_d), "n"(Sel))

template <int N, int Sel>
__device__ __forceinline__ void wgmma_sp_f32_f16_f16_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t desc_b,
                                                        uint32_t meta, uint32_t scale_d) {
    static_assert(N == 128 || N == 256, "register-A sparse wgmma wrapper: N not provided");
    if constexpr (N == 128) SPMMA_WGMMA_SP_RS_ASM(128, 64);
    else SPMMA_WGMMA_SP_RS_ASM(256, 128);
}

#undef SPMMA_WGMMA_SP_RS_ASM

// ---- ordering of the asynchronous wgmma ------------------------------------------------------

// PTX ISA 9.7.15.7.1 wgmma.fence: orders this warpgroup's earlier register accesses (accumulators)
// before the wgmma.mma_async that follow. Before the first wgmma of a tile, and after any
// ordinary access of the accumulators.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

// PTX ISA 9.7.15.7.2 wgmma.commit_group: closes the group of wgmma.mma_async issued so far.
__device__ __forceinline__ void wgmma_commit_group() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }

// PTX ISA 9.7.15.7.3 wgmma.wait_group: waits until at most N committed groups are pending; the
// accumulators (and shared memory) of the completed groups may then be used.
template <int N>
__device__ __forceinline__ void wgmma_wait_group() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// Tells the compiler that `r` is read and written here, so that it keeps accesses of an
// accumulator on the right side of wgmma_fence / wgmma_wait_group (emits no instruction).
__device__ __forceinline__ void register_fence(float& r) { asm volatile("" : "+f"(r)::"memory"); }
__device__ __forceinline__ void register_fence(uint32_t& r) { asm volatile("" : "+r"(r)::"memory"); }

// ---- register budget -------------------------------------------------------------------------

// PTX ISA setmaxnreg [miscellaneous-instructions-setmaxnreg]: the warp's register
// budget becomes N (a multiple of 8 in 24..256); every warp of the warpgroup executes it. Takes
// effect only when the kernel has a register cap at entry (__launch_bounds__(threads, 1)).
template <int N>
__device__ __forceinline__ void setmaxnreg_inc() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
}
template <int N>
__device__ __forceinline__ void setmaxnreg_dec() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
}

}  // namespace spmma_ptx

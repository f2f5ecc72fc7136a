// Test kernels for tests/sm90a/test_device_wgmma.cpp: one warpgroup copies a shared-memory
// image in, issues ONE wgmma.mma_async.sp (the plugin's PTX wrapper) with the given per-thread
// metadata and accumulators, and writes the accumulators out, so that the test can compare the
// hardware with the instruction model bit for bit.
#include <cstdint>
#include <type_traits>

#include "ptx_sm90.cuh"
#include "sm90a_instr.cuh"

namespace {

// Descriptors come relative to the image; the image lands at a 1024-byte aligned address.
template <class Instr, int N, int Sel>
__device__ __forceinline__ void probe(const uint8_t* image, uint32_t image_bytes, const uint32_t* meta,
                                      const uint32_t* d_in, uint64_t desc_a, uint64_t desc_b, uint32_t scale_d,
                                      uint32_t* d_out) {
    using namespace spmma_ptx;
    extern __shared__ uint8_t smem_raw[];
    const uint32_t raw = smem_addr(smem_raw);
    const uint32_t base = (raw + 1023u) & ~1023u;
    uint8_t* smem = smem_raw + (base - raw);
    for (uint32_t i = threadIdx.x * 16u; i < image_bytes; i += blockDim.x * 16u)
        *reinterpret_cast<uint4*>(smem + i) = *reinterpret_cast<const uint4*>(image + i);
    fence_proxy_async_shared_cta();
    __syncthreads();

    constexpr int R = Instr::regs(N);
    typename Instr::Acc d[R];
    const int t = threadIdx.x;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const uint32_t bits = d_in[t * R + r];
        if constexpr (std::is_same_v<typename Instr::Acc, float>) {
            d[r] = __uint_as_float(bits);
        } else {
            d[r] = bits;
        }
    }
    const uint64_t shift = base >> 4;  // start-address field: bits 0..13, in 16-byte units
    wgmma_fence();
    Instr::template mma<N, Sel>(d, desc_a + shift, desc_b + shift, meta[t], scale_d);
    wgmma_commit_group();
    wgmma_wait_group<0>();
#pragma unroll
    for (int r = 0; r < R; ++r) {
        if constexpr (std::is_same_v<typename Instr::Acc, float>) {
            d_out[t * R + r] = __float_as_uint(d[r]);
        } else {
            d_out[t * R + r] = d[r];
        }
    }
}

}  // namespace

#define SPMMA_PROBE(INSTR, N, SEL)                                                                               \
    extern "C" __global__ void __launch_bounds__(128, 1) probe_##INSTR##_n##N##_sel##SEL(                        \
        const uint8_t* image, uint32_t image_bytes, const uint32_t* meta, const uint32_t* d_in, uint64_t desc_a, \
        uint64_t desc_b, uint32_t scale_d, uint32_t* d_out) {                                                    \
        probe<spmma_sm90a::INSTR, N, SEL>(image, image_bytes, meta, d_in, desc_a, desc_b, scale_d, d_out);      \
    }

#include "sm90a_wgmma_probes.inc"

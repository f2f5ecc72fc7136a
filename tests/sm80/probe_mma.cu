// Probe kernels for the device test: one warp runs one mma.sp through the plugin's own wrappers
// (plugins/sm80/device/mma_ops.cuh) on register contents given per lane, and writes back d.
// probe_<TAG>_<ordered 0|1>_s<selector>(a, b, c, e, d): a, b, c, d 4 words per lane, e 1 word.
#include "mma_ops.cuh"

#include <cstdint>

namespace {

template <class Op, int Sel>
__device__ __forceinline__ void probe(const uint32_t* a, const uint32_t* b, const uint32_t* c, const uint32_t* e, uint32_t* d) {
    const int lane = threadIdx.x & 31;
    uint32_t ra[4], rb[4];
    typename Op::AccT acc[Op::kAccRegs];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        ra[r] = a[lane * 4 + r];
        rb[r] = b[lane * 4 + r];
    }
#pragma unroll
    for (int r = 0; r < Op::kAccRegs; ++r) {
        const uint32_t bits = c[lane * 4 + r];
        acc[r] = *reinterpret_cast<const typename Op::AccT*>(&bits);
    }
    Op::template mma<Sel>(acc, ra, rb, e[lane]);
#pragma unroll
    for (int r = 0; r < 4; ++r) d[lane * 4 + r] = r < Op::kAccRegs ? *reinterpret_cast<const uint32_t*>(&acc[r]) : 0u;
}

}  // namespace

#define SPMMA_PROBE(tag, ord, sel)                                                                      \
    extern "C" __global__ void probe_##tag##_##ord##_s##sel(const uint32_t* a, const uint32_t* b,     \
                                                            const uint32_t* c, const uint32_t* e, uint32_t* d) { \
        probe<spmma_sm80::op::tag<bool(ord)>, sel>(a, b, c, e, d);                                      \
    }
#define SPMMA_PROBE_SEL2(tag) SPMMA_PROBE(tag, 1, 0) SPMMA_PROBE(tag, 1, 1) SPMMA_PROBE(tag, 0, 0) SPMMA_PROBE(tag, 0, 1)
#define SPMMA_PROBE_SEL1(tag) SPMMA_PROBE(tag, 1, 0) SPMMA_PROBE(tag, 0, 0)

#include "probe_mma_list.inc"

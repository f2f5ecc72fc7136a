// The end of an epilogue that computes in float, for kernels that write D (and read C) as f32,
// f16 or bf16 row-major: C's elements read back as float, and up to four consecutive elements of
// D rounded to nearest even into D's type, with one vector store when all four exist and are
// aligned. Shared by the sm80 and sm120a kernels.
#pragma once

#include <spmma/plugin.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace spmma_epilogue {

// Element i of a row-major matrix of `type` (SPMMA_F16, SPMMA_BF16, else f32) as float.
__device__ __forceinline__ float load_float(const void* m, int type, int64_t i) {
    switch (type) {
        case SPMMA_F16: return __half2float(static_cast<const __half*>(m)[i]);
        case SPMMA_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(m)[i]);
        default: return static_cast<const float*>(m)[i];
    }
}

// Elements i .. i + count - 1 (count <= 4) of `d` (of `type`: SPMMA_F16, SPMMA_BF16, else f32)
// from v, rounded to nearest even; `vec`: all four exist and are aligned for one vector store.
__device__ __forceinline__ void store_float4(void* d, int type, int64_t i, int count, bool vec, const float (&v)[4]) {
    switch (type) {
        case SPMMA_F16: {
            __half* h = static_cast<__half*>(d) + i;
            if (vec) {
                const __half2 lo = __floats2half2_rn(v[0], v[1]), hi = __floats2half2_rn(v[2], v[3]);
                *reinterpret_cast<uint2*>(h) = make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
            } else {
                for (int e = 0; e < count; ++e) h[e] = __float2half_rn(v[e]);
            }
            break;
        }
        case SPMMA_BF16: {
            __nv_bfloat16* b = static_cast<__nv_bfloat16*>(d) + i;
            if (vec) {
                const __nv_bfloat162 lo = __floats2bfloat162_rn(v[0], v[1]), hi = __floats2bfloat162_rn(v[2], v[3]);
                *reinterpret_cast<uint2*>(b) = make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
            } else {
                for (int e = 0; e < count; ++e) b[e] = __float2bfloat16_rn(v[e]);
            }
            break;
        }
        default: {
            float* f = static_cast<float*>(d) + i;
            if (vec) *reinterpret_cast<float4*>(f) = make_float4(v[0], v[1], v[2], v[3]);
            else for (int e = 0; e < count; ++e) f[e] = v[e];
            break;
        }
    }
}

}  // namespace spmma_epilogue

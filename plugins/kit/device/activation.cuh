// The activations of the ABI 1.2 epilogue (plugin.h) on the device, in f32. relu as written;
// gelu-tanh and silu in one form, x / (1 + exp(-z)), with z = x for silu and z = 2u for
// gelu-tanh (u = sqrt(2/pi) (x + 0.044715 x^3)): 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u))
// exactly, so plugin.h's formula holds to the rounding of expf, the division and z.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>

namespace spmma_epilogue {

// `activation` is relu, gelu-tanh or silu (the caller keeps none away). NOTES: no branch: the
// fused epilogues are unrolled over every accumulator of a tile, and a test per element (and
// the IEEE division's slow path, a branch of its own) made ptxas several times slower on the
// sm90a kernels; here the activation picks constants and the result by selection. expf is the
// accurate one (branch-free); the division is div.approx (2 ulp; a denominator past 2^126, where
// x / (1 + exp(-z)) is below 2^-126 |x|, gives 0), inside the 2^-20 |x| the tolerance allows for
// the activation's evaluation (reference/src/tolerance.cpp).
__device__ __forceinline__ float activate(int32_t activation, float x) {
    const bool gelu = activation == SPMMA_ACTIVATION_GELU_TANH;
    const float a = gelu ? 1.5957691216f : 1.0f;           // 2 sqrt(2/pi), or 1 for silu
    const float b = gelu ? 1.5957691216f * 0.044715f : 0.0f;  // 2 sqrt(2/pi) 0.044715, or 0
    const float z = x * fmaf(b, x * x, a);
    const float sig = __fdividef(x, 1.0f + expf(-z));
    return activation == SPMMA_ACTIVATION_RELU ? (x > 0.0f ? x : 0.0f) : sig;
}

}  // namespace spmma_epilogue

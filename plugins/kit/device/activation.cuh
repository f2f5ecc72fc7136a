// The activations of the ABI 1.2 epilogue (plugin.h) on the device, in f32. relu as written;
// gelu-tanh and silu in one form, x / (1 + exp(-z)), with z = x for silu and z = 2u for
// gelu-tanh (u = sqrt(2/pi) (x + 0.044715 x^3)): 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u))
// exactly, so plugin.h's formula holds to the rounding of expf and one division.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>

namespace spmma_epilogue {

// NOTES: one transcendental path instead of tanhf and expf each: the fused epilogues are unrolled
// over every accumulator of a tile, and with both expansions in each place the sm90a kernels
// took several times longer to compile. `activation` is uniform across the warp (a kernel
// parameter), so the tests do not diverge; accurate expf and division, not the fast intrinsics.
__device__ __forceinline__ float activate(int32_t activation, float x) {
    if (activation == SPMMA_ACTIVATION_NONE) return x;
    if (activation == SPMMA_ACTIVATION_RELU) return x > 0.0f ? x : 0.0f;
    const float two_sqrt_2_over_pi = 1.5957691216f;
    const float z = activation == SPMMA_ACTIVATION_GELU_TANH ? two_sqrt_2_over_pi * (x + 0.044715f * x * x * x) : x;
    return x / (1.0f + expf(-z));
}

}  // namespace spmma_epilogue

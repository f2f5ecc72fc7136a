// The activations of the ABI 1.2 epilogue (plugin.h) on the device, in f32, by the formulas
// plugin.h writes and the host plugins use (host_epilogue.cpp): accurate tanhf and expf, not
// the fast intrinsics, so a fused epilogue stays within the reference's activation bound.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>

namespace spmma_epilogue {

// `activation` is uniform across the warp (a kernel parameter), so the switch does not diverge.
__device__ __forceinline__ float activate(int32_t activation, float x) {
    switch (activation) {
        case SPMMA_ACTIVATION_RELU: return x > 0.0f ? x : 0.0f;
        case SPMMA_ACTIVATION_GELU_TANH: {
            const float sqrt_2_over_pi = 0.7978845608f;
            return 0.5f * x * (1.0f + tanhf(sqrt_2_over_pi * (x + 0.044715f * x * x * x)));
        }
        case SPMMA_ACTIVATION_SILU: return x / (1.0f + expf(-x));
        default: return x;
    }
}

}  // namespace spmma_epilogue

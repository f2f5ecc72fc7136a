// The kit example's one kernel: D = alpha * A * B + beta * C with A f16 2:4 in the canonical
// compressed form exactly as the host hands it over (values m x k/2, one index byte per group of
// four), B f16 column-major, f32 accumulation, C and D f32 row-major. One thread per element of
// D, no tensor cores: the point is the plugin around it.
#include <cuda_fp16.h>

#include <cstdint>

extern "C" __global__ void kit_example_f16_2x4(const __half* a_values, const uint8_t* a_indices, const __half* b,
                                               const float* c, float* d, int m, int n, int k, float alpha, float beta) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (i >= m || j >= n) return;
    const __half* values = a_values + static_cast<int64_t>(i) * (k / 2);
    const uint8_t* indices = a_indices + static_cast<int64_t>(i) * (k / 4);
    const __half* column = b + static_cast<int64_t>(j) * k;
    float acc = 0.0f;
    for (int g = 0; g < k / 4; ++g) {
        const unsigned kept = indices[g];
        acc += __half2float(values[2 * g]) * __half2float(column[4 * g + (kept & 3u)]);
        acc += __half2float(values[2 * g + 1]) * __half2float(column[4 * g + ((kept >> 2) & 3u)]);
    }
    const int64_t at = static_cast<int64_t>(i) * n + j;
    d[at] = alpha * acc + (c ? beta * c[at] : 0.0f);
}

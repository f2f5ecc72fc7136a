// The elements of D that a sampled verification reads, gathered on the device so that only they
// cross to the host (ABI 1.1 download_elements). One thread per element; D is row-major with a
// pitch (padded in the vendor baselines). Built as PTX for compute_80 (JIT on newer devices)
// plus sm_80 and sm_90 code; embedded into every CUDA plugin through spmma_plugin_cuda.
#include <cstdint>

extern "C" __global__ void spmma_gather_elements(const unsigned char* d, unsigned long long row_pitch_bytes,
                                                 unsigned long long n, const long long* indices,
                                                 unsigned long long count, int elem_bytes, unsigned char* out) {
    for (unsigned long long x = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; x < count;
         x += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
        const unsigned long long flat = static_cast<unsigned long long>(indices[x]);
        const unsigned char* src = d + (flat / n) * row_pitch_bytes + (flat % n) * elem_bytes;
        if (elem_bytes == 4)
            reinterpret_cast<uint32_t*>(out)[x] = *reinterpret_cast<const uint32_t*>(src);
        else
            reinterpret_cast<uint16_t*>(out)[x] = *reinterpret_cast<const uint16_t*>(src);
    }
}

// The canonical compressed A (plugin.h: values m x k/2, one index byte per group) expanded into a
// dense, zero-padded row-major matrix on the device, for the vendor baselines (cuBLASLt and
// cuSPARSELt take a plain A): half the bytes cross the bus, and no host thread walks A.
// One thread per group; an invalid index byte (not a sorted selection) records the lowest such
// group in *bad. The destination is zeroed by the caller. Built like gather.cu.
extern "C" __global__ void spmma_expand_a(const unsigned char* values, const unsigned char* indices, long long m, long long k, int group,
                                          int elem_bytes, unsigned char* dense, unsigned long long pitch_bytes,
                                          unsigned long long* bad) {
    const long long groups_per_row = k / group, total = m * groups_per_row;
    const int kept = group / 2;
    for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < total;
         g += static_cast<long long>(gridDim.x) * blockDim.x) {
        const long long i = g / groups_per_row, gg = g % groups_per_row;
        const unsigned idx = indices[g];
        int pos[2];
        bool ok;
        if (group == 2) {
            pos[0] = idx & 1;
            ok = idx <= 1;
        } else {
            pos[0] = idx & 3;
            pos[1] = (idx >> 2) & 3;
            ok = idx <= 0xf && pos[0] < pos[1];
        }
        if (!ok) {
            atomicMin(bad, static_cast<unsigned long long>(g));
            continue;
        }
        for (int r = 0; r < kept; ++r) {
            const unsigned char* src = values + (i * (k / 2) + gg * kept + r) * elem_bytes;
            unsigned char* dst = dense + i * pitch_bytes + (gg * group + pos[r]) * elem_bytes;
            for (int b = 0; b < elem_bytes; ++b) dst[b] = src[b];
        }
    }
}

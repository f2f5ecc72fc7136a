// The L2 flush before a timed launch (SPMMA_RUN_FLUSH_L2): reads a buffer twice the L2's size
// through L2 (ld.global.cg), so that every line a launch could reuse is evicted and L2 holds only
// clean lines when the launch starts. NOTES (bench/NOTES.md, "The L2 flush"): a memset of the
// buffer evicts as well, but leaves L2 full of dirty lines, whose write-back then runs inside the
// timed launch and takes DRAM bandwidth from it. Built like gather.cu; embedded into every CUDA
// plugin through spmma_plugin_cuda.
#include <cstdint>

extern "C" __global__ void spmma_l2_flush(const uint4* buf, unsigned long long count, unsigned int* sink) {
    unsigned int acc = 0;
    for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
        const uint4 v = __ldcg(buf + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    // The buffer holds zeros (set once when it is made), so this store never happens; it keeps the
    // loads, which the compiler cannot prove dead.
    if (acc == 1u) *sink = acc;
}

// What dram_read.cu's kernels and dram_read.cpp's launches share: the tensor-copy kernel's first
// parameter and the dynamic shared memory of a ring of stage slots.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace spmma_bench {

// dram_read_tma's first parameter: `count` tensor maps of the same matrix (1 to kMaxMaps), which
// the copies take in turn, to tell a limit of the copy engine per map from one per SM.
constexpr unsigned kMaxMaps = 4;
struct TensorMaps {
    CUtensorMap map[kMaxMaps];
    unsigned count;
};

// A ring of `stages` slots of `slot_bytes`: the slots from the first 1024-byte boundary of dynamic
// shared memory (a swizzled tensor copy's destination needs it; the region itself is only
// 16-byte aligned), then a full and an empty barrier of 8 bytes per slot.
constexpr unsigned ring_smem_bytes(unsigned slot_bytes, unsigned stages) { return 1024 + stages * (slot_bytes + 16); }

}  // namespace spmma_bench

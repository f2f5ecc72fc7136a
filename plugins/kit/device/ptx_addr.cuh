// The shared-memory address form every PTX wrapper header takes (ptx_sm80.cuh, ptx_sm90.cuh):
// one definition, so a kernel may include several of them.
#pragma once

#include <cstdint>

namespace spmma_ptx {

// The shared::cta address (32-bit, .shared window) of a generic pointer into this CTA's shared
// memory (PTX ISA cvta, through the compiler's intrinsic).
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

}  // namespace spmma_ptx

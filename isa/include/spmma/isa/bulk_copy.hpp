// CPU model of the 1-D bulk copy some sm90a kernels fill a shared-memory stage with:
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes (PTX ISA, "cp.async.bulk"),
// into the issuing CTA's own shared memory. What it writes: `bytes` bytes from `src`, in order,
// from `dst`; no swizzle and no zero fill (what the bytes hold is what lands, so a packer that
// wants a swizzled stage writes it swizzled).
#pragma once

#include <spmma/isa/smem.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace spmma::isa {

// Copies `bytes` from `src` into `smem` at `dst`. Returns the problems the instruction would
// reject (a size or destination that is not a multiple of 16 bytes, a copy past shared memory);
// nothing is written then.
std::vector<std::string> bulk_load_1d(SharedMemory& smem, uint32_t dst, const uint8_t* src, size_t bytes);

}  // namespace spmma::isa

// CPU model of tcgen05.cp (PTX ISA 9.7.16.8.5), cta_group::1, the shapes the sparse kernels move
// their metadata and block scales with, no decompression (.b8x16 source formats not modelled):
//   tcgen05.cp.cta_group::1.128x128b          [taddr], s-desc;  128 rows of 16 bytes -> lanes
//                                                                taddr.lane + 0..127, 4 columns
//   tcgen05.cp.cta_group::1.32x128b.warpx4    [taddr], s-desc;  32 rows of 16 bytes -> lanes
//                                                                0..31 of each of the four 32-lane
//                                                                partitions (the same rows four times)
// Row r's 16 bytes land in columns taddr.column + 0..3, byte b in column b / 4, bits 8*(b % 4).
// The source is a matrix of rows x 16 one-byte elements read through the shared-memory
// descriptor as a K-major operand (smem.hpp: for no swizzle, row r at (r % 8) * 16 + (r / 8) * SBO).
#pragma once

#include <spmma/isa/smem.hpp>
#include <spmma/isa/tcgen05_mma_sp.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace spmma::isa {

enum class Tcgen05CpShape { R128x128b, R32x128b_Warpx4 };

// Copies the source rows into tensor memory. Returns the problems (descriptor fields the model
// rejects, a source past shared memory, a destination past tensor memory or not at lane 0);
// nothing is written then.
std::vector<std::string> tcgen05_cp(TensorMemory& tmem, const SharedMemory& smem, uint32_t taddr, uint64_t s_desc,
                                    Tcgen05CpShape shape);

}  // namespace spmma::isa

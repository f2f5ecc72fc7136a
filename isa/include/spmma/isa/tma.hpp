// CPU model of the tensor-memory-accelerator tile load the sparse GEMM kernels feed their
// shared-memory stages with: cp.async.bulk.tensor.2d.shared::cluster.global.tile (PTX ISA
// 9.7.9.25.5.1) through a tiled 2-D tensor map (CUDA driver API cuTensorMapEncodeTiled), as the
// kernels use it: no interleave, no elementStrides, out-of-bounds elements filled with zeros.
// What it writes: box row r (0 .. box_rows-1) is stored contiguously, box_cols * elem_bytes bytes
// per row, from `dst`; with a 32/64/128-byte swizzle the 16-byte chunk bits (4..) of each
// shared-memory byte address are XORed with its bits 7.. (the row of the 8-row pattern), the
// same swizzle the matrix descriptors name (smem.hpp swizzle_address), taken from the absolute
// address (so the destination must sit at the pattern's 256/512/1024-byte boundary, which the
// tensor map requires of a swizzled box anyway).
#pragma once

#include <spmma/isa/smem.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace spmma::isa {

// A row-major 2-D tensor in global memory as a tensor map describes it: `rows` rows of `cols`
// elements of `elem_bytes` bytes, rows `cols * elem_bytes` apart.
struct TmaTensor {
    const uint8_t* data = nullptr;
    int64_t cols = 0, rows = 0;
    int elem_bytes = 1;
};

// The box of box_cols x box_rows elements whose first element is (column c0, row r0) of `t`,
// written into `smem` at `dst` with `swizzle` (None, B32, B64, B128). Returns the problems a
// tensor map or the copy would reject (box wider than the swizzle span, a misaligned swizzled
// destination, a box past shared memory); nothing is written then.
std::vector<std::string> tma_load_2d(SharedMemory& smem, uint32_t dst, const TmaTensor& t, int box_cols, int box_rows,
                                     int64_t c0, int64_t r0, Swizzle swizzle);

}  // namespace spmma::isa

// The sm80 sparse GEMM kernels of s4/u4 inputs (pairwise 4:8; s32, wrapping or .satfinite): one
// extern "C" kernel per tile of include/spmma_sm80/kernels/i4.inc, all from the template in
// sm80_spgemm.cuh.
#include "sm80_spgemm.cuh"

#include <spmma_sm80/kernels/i4.inc>

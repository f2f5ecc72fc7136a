// The sm80 sparse GEMM kernels of f16 inputs (f32 and f16 accumulation): one extern "C" kernel per
// tile of include/spmma_sm80/kernels/f16.inc, all from the template in sm80_spgemm.cuh.
#include "sm80_spgemm.cuh"

#include <spmma_sm80/kernels/f16.inc>

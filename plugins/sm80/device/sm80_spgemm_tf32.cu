// The sm80 sparse GEMM kernels of tf32 inputs (1:2): one extern "C" kernel per tile of
// include/spmma_sm80/kernels/tf32.inc, all from the template in sm80_spgemm.cuh.
#include "sm80_spgemm.cuh"

#include <spmma_sm80/kernels/tf32.inc>

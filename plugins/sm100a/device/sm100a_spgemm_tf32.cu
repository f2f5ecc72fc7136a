// The sm100a sparse GEMM kernels of kind::tf32: one extern "C" kernel per line of
// include/spmma_sm100a/kernels/tf32.inc, all from the template in sm100a_spgemm.cuh.
#include "sm100a_spgemm.cuh"

#include <spmma_sm100a/kernels/tf32.inc>

// The sm90a sparse GEMM kernels of the bf16 family: one extern "C" kernel per line of
// include/spmma_sm90a/kernels/bf16.inc, all from the template in sm90a_spgemm.cuh.
#include "sm90a_spgemm.cuh"

#include <spmma_sm90a/kernels/bf16.inc>

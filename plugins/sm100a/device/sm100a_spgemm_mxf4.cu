// The sm100a sparse GEMM kernels of kind::mxf4: one extern "C" kernel per line of
// include/spmma_sm100a/kernels/mxf4.inc, all from the template in sm100a_spgemm.cuh.
#include "sm100a_spgemm.cuh"

#include <spmma_sm100a/kernels/mxf4.inc>

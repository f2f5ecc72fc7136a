// The sm120a sparse GEMM kernels of kind::mxf8f6f4 (scale_vec::1X, ue8m0), every A x B pair of
// e4m3/e5m2/e3m2/e2m3/e2m1: one extern "C" kernel per tile of
// include/spmma_sm120a/kernels/mxf8f6f4.inc, all from the template in sm120a_spgemm.cuh.
#include "sm120a_spgemm.cuh"

#include <spmma_sm120a/kernels/mxf8f6f4.inc>

// The sm120a sparse GEMM kernels of kind::mxf4 (packed e2m1, pairwise 4:8, scale_vec::2X, ue8m0):
// one extern "C" kernel per tile of include/spmma_sm120a/kernels/mxf4.inc, all from the template in
// sm120a_spgemm.cuh.
#include "sm120a_spgemm.cuh"

#include <spmma_sm120a/kernels/mxf4.inc>

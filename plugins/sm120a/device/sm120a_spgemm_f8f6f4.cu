// The sm120a sparse GEMM kernels of kind::f8f6f4 (unscaled), every A x B pair of
// e4m3/e5m2/e3m2/e2m3/e2m1, f32 and f16 accumulation: one extern "C" kernel per tile of
// include/spmma_sm120a/kernels/f8f6f4.inc, all from the template in sm120a_spgemm.cuh.
#include "sm120a_spgemm.cuh"

#include <spmma_sm120a/kernels/f8f6f4.inc>

// sm120a sparse GEMM kernels, kind::mxf8f6f4 (scale_vec::1X, ue8m0), every A x B pair of e4m3/e5m2/e3m2/e2m3/e2m1: every entry of SPMMA_SM120A_KERNELS_MXF8F6F4
// (include/spmma_sm120a/kernel_list.hpp), each an instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm120a/kernel_list.hpp>

SPMMA_SM120A_KERNELS_MXF8F6F4(SPMMA_SM120A_DEFINE_KERNEL)

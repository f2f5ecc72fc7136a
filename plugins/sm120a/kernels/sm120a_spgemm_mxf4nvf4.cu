// sm120a sparse GEMM kernels, kind::mxf4nvf4 (packed e2m1, pairwise 4:8; scale_vec::2X ue8m0 and scale_vec::4X ue4m3): every entry of SPMMA_SM120A_KERNELS_MXF4NVF4
// (include/spmma_sm120a/kernel_list.hpp), each an instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm120a/kernel_list.hpp>

SPMMA_SM120A_KERNELS_MXF4NVF4(SPMMA_SM120A_DEFINE_KERNEL)

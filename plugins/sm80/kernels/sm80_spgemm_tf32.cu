// sm80 sparse GEMM kernels, tf32 inputs (1:2): every tile and
// metadata variant of SPMMA_SM80_KERNELS_TF32 (include/spmma_sm80/kernel_list.hpp), each an
// instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm80/kernel_list.hpp>

SPMMA_SM80_KERNELS_TF32(SPMMA_SM80_DEFINE_KERNEL)

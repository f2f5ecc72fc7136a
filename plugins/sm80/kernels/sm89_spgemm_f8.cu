// sm89 sparse GEMM kernels, e4m3/e5m2 inputs (sm_89 and newer): every tile and
// metadata variant of SPMMA_SM80_KERNELS_F8 (include/spmma_sm80/kernel_list.hpp), each an
// instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm80/kernel_list.hpp>

SPMMA_SM80_KERNELS_F8(SPMMA_SM80_DEFINE_KERNEL)

// sm80 sparse GEMM kernels, s8/u8 inputs (s32, wrapping or .satfinite): every tile and
// metadata variant of SPMMA_SM80_KERNELS_I8 (include/spmma_sm80/kernel_list.hpp), each an
// instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm80/kernel_list.hpp>

SPMMA_SM80_KERNELS_I8(SPMMA_SM80_DEFINE_KERNEL)

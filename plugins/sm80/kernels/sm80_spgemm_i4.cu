// sm80 sparse GEMM kernels, s4/u4 inputs (pairwise 4:8; s32, wrapping or .satfinite): every tile and
// metadata variant of SPMMA_SM80_KERNELS_I4 (include/spmma_sm80/kernel_list.hpp), each an
// instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm80/kernel_list.hpp>

SPMMA_SM80_KERNELS_I4(SPMMA_SM80_DEFINE_KERNEL)

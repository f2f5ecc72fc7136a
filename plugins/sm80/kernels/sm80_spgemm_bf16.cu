// sm80 sparse GEMM kernels, bf16 inputs: every tile and
// metadata variant of SPMMA_SM80_KERNELS_BF16 (include/spmma_sm80/kernel_list.hpp), each an
// instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm80/kernel_list.hpp>

SPMMA_SM80_KERNELS_BF16(SPMMA_SM80_DEFINE_KERNEL)

// sm80 sparse GEMM kernels, f16 inputs (f32 and f16 accumulation): every tile and
// metadata variant of SPMMA_SM80_KERNELS_F16 (include/spmma_sm80/kernel_list.hpp), each an
// instantiation of device/spgemm.cuh.
#include "../device/spgemm.cuh"

#include <spmma_sm80/kernel_list.hpp>

SPMMA_SM80_KERNELS_F16(SPMMA_SM80_DEFINE_KERNEL)

// sm80 sparse GEMM kernels whose stages arrive through the tensor copy engine (sm_90 and newer):
// f16 (f32 and f16 accumulation) and bf16, every entry of SPMMA_SM80_KERNELS_TMA
// (include/spmma_sm80/kernel_list.hpp), each an instantiation of device/spgemm.cuh with Copy::Tma,
// and the f16 entries of SPMMA_SM80_KERNELS_BULKA (A and metadata by bulk copies, B by cp.async).
#include "../device/spgemm.cuh"

#include <spmma_sm80/kernel_list.hpp>

SPMMA_SM80_KERNELS_TMA(SPMMA_SM80_DEFINE_TMA_KERNEL)
SPMMA_SM80_KERNELS_BULKA(SPMMA_SM80_DEFINE_BULKA_KERNEL)

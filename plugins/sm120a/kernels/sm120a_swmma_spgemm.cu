// The CHECK BUILD of the sm120a kernels (SPMMA_SM120A_SOFTWARE_MMA, for sm_80 / sm_90 GPUs): every
// entry of SPMMA_SM120A_KERNELS_SWMMA (include/spmma_sm120a/kernel_list.hpp), device/spgemm.cuh
// with the mma.sp replaced by device/mma_software.cuh. Built only with the CMake option
// SPMMA_SM120A_SOFTWARE_MMA_PLUGIN, into the plugin sm120a-swmma; never into sm120a.
#if !defined(SPMMA_SM120A_SOFTWARE_MMA)
#error "sm120a_swmma_spgemm.cu is the software-mma check build: compile with -DSPMMA_SM120A_SOFTWARE_MMA"
#endif
#include "../device/spgemm.cuh"

#include <spmma_sm120a/kernel_list.hpp>

SPMMA_SM120A_KERNELS_SWMMA(SPMMA_SM120A_DEFINE_KERNEL)

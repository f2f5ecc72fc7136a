// The CHECK BUILD of the sm120a kernels (SPMMA_SM120A_SOFTWARE_MMA, for sm_80 / sm_90 GPUs): one
// extern "C" kernel per tile of include/spmma_sm120a/kernels/swmma.inc, the template in
// sm120a_spgemm.cuh with the mma.sp replaced by mma_software.cuh. Built only with the CMake
// option SPMMA_SM120A_SOFTWARE_MMA_PLUGIN, into the plugin sm120a-swmma; never into sm120a.
#if !defined(SPMMA_SM120A_SOFTWARE_MMA)
#error "sm120a_spgemm_swmma.cu is the software-mma check build: compile with -DSPMMA_SM120A_SOFTWARE_MMA"
#endif
#include "sm120a_spgemm.cuh"

#include <spmma_sm120a/kernels/swmma.inc>

// Probe kernels for e4m3/e5m2 mma.sp (sm_89 and newer); see probe_mma.cu.
#define SPMMA_PROBE_ONLY_F8 1
#include "probe_mma.cu"

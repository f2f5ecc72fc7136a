// The sm80 sparse GEMM kernels of f16 inputs (f32 and f16 accumulation): one extern "C" kernel per
// tile of include/spmma_sm80/kernels/f16.inc, all from the template in sm80_spgemm.cuh.
#include "sm80_spgemm.cuh"

#include <spmma_sm80/kernels/f16.inc>
// The split-K reductions its kernels launch after them (sm80_add_k_splits_f32 / _s32).
SPMMA_SM80_SPLIT_REDUCTIONS()

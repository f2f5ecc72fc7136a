// The sm80 sparse GEMM kernels of s8/u8 inputs (s32, wrapping or .satfinite): one extern "C" kernel
// per tile of include/spmma_sm80/kernels/i8.inc, all from the template in sm80_spgemm.cuh.
#include "sm80_spgemm.cuh"

#include <spmma_sm80/kernels/i8.inc>
// The split-K reductions its kernels launch after them (sm80_add_k_splits_f32 / _s32).
SPMMA_SM80_SPLIT_REDUCTIONS()

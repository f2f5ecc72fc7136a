// The sm90a decode kernels of the bf16 family (narrow tiles, deep stage rings): one extern "C"
// kernel per line of include/spmma_sm90a/kernels/bf16_decode.inc, from the template in
// sm90a_spgemm.cuh.
#include "sm90a_spgemm.cuh"

#include <spmma_sm90a/kernels/bf16_decode.inc>

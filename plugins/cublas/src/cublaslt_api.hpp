// cuBLASLt, loaded at run time (libcublasLt.so.13) so that the cublas plugin loads everywhere and
// says why it cannot run where the library is missing. Every call goes through CUBLAS_CHECK,
// which throws an spmma_plugin::Error naming file, line, the call and cuBLASLt's status.
#pragma once

#include <spmma_baseline/loaded_library.hpp>
#include <spmma_plugin/boundary.hpp>

#include <cublasLt.h>

#include <string>

namespace spmma_cublas {

struct CublasLt {
#define SPMMA_CUBLASLT_FN(name) decltype(&::name) name = nullptr;
#include "cublaslt_functions.inc"
#undef SPMMA_CUBLASLT_FN
};

using CublasLtLibrary = spmma_baseline::LoadedLibrary<CublasLt>;

// The library, searched and loaded once: the loader's path, $CUDA_PATH/$CUDA_HOME/lib64,
// the toolkit this plugin was built with, /usr/local/cuda, then the Python environments'
// nvidia/cu13/lib and nvidia/cublas/lib (pip wheels, PyTorch).
const CublasLtLibrary& cublaslt_library();
// The functions; throws Error(SPMMA_UNSUPPORTED, why_not) when the library is missing.
const CublasLt& require_cublaslt();

[[noreturn]] void throw_cublas_error(cublasStatus_t s, const char* call, const char* file, int line);

#define CUBLAS_CHECK(call)                                                                        \
    do {                                                                                          \
        const cublasStatus_t spmma_cublas_status_ = (call);                                       \
        if (spmma_cublas_status_ != CUBLAS_STATUS_SUCCESS)                                        \
            ::spmma_cublas::throw_cublas_error(spmma_cublas_status_, #call, __FILE__, __LINE__);  \
    } while (0)

}  // namespace spmma_cublas

// cuSPARSELt, loaded at run time (libcusparseLt.so.0) so that the cusparselt plugin loads
// everywhere and says why it cannot run where the library is missing. Every call goes through
// CUSPARSELT_CHECK, which throws an spmma_plugin::Error naming file, line, the call and
// cuSPARSELt's status. Built against a newer header (0.10) than the oldest library it runs
// with (0.8): it uses only functions and constants 0.8 has, whose opaque structs have the
// same size in both (512 bytes).
#pragma once

#include <spmma_baseline/loaded_library.hpp>
#include <spmma_plugin/boundary.hpp>

#include <cusparseLt.h>

#include <string>

namespace spmma_cusparselt {

struct CusparseLt {
#define SPMMA_CUSPARSELT_FN(name) decltype(&::name) name = nullptr;
#include "cusparselt_functions.inc"
#undef SPMMA_CUSPARSELT_FN
};

// The oldest cuSPARSELt this plugin runs with.
inline constexpr int kMinMajor = 0, kMinMinor = 8;

using CusparseLtLibrary = spmma_baseline::LoadedLibrary<CusparseLt>;

// The library, searched and loaded once: the loader's path, $CUSPARSELT_ROOT/lib, the folder
// the build found it in, then the Python environments' nvidia/cusparselt/lib and
// nvidia/cu13/lib (pip's nvidia-cusparselt-cu13, PyTorch's dependency).
const CusparseLtLibrary& cusparselt_library();
// The functions; throws Error(SPMMA_UNSUPPORTED, why_not) when the library is not usable.
const CusparseLt& require_cusparselt();

[[noreturn]] void throw_cusparselt_error(cusparseStatus_t s, const char* call, const char* file, int line);

#define CUSPARSELT_CHECK(call)                                                                        \
    do {                                                                                              \
        const cusparseStatus_t spmma_cusparselt_status_ = (call);                                     \
        if (spmma_cusparselt_status_ != CUSPARSE_STATUS_SUCCESS)                                      \
            ::spmma_cusparselt::throw_cusparselt_error(spmma_cusparselt_status_, #call, __FILE__, __LINE__); \
    } while (0)

}  // namespace spmma_cusparselt

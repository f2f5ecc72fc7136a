#include "cublaslt_api.hpp"

#include <spmma_baseline/vendor_library.hpp>

#include <dlfcn.h>

namespace spmma_cublas {
namespace {

using spmma_baseline::env_or_empty;

// Baked in at configure time (see CMakeLists.txt): the library folders of the toolkit this
// plugin was built with.
#ifndef SPMMA_CUBLAS_TOOLKIT_LIB_DIRS
#define SPMMA_CUBLAS_TOOLKIT_LIB_DIRS ""
#endif

std::vector<std::string> candidate_folders() {
    std::vector<std::string> folders;
    for (const char* var : {"CUDA_PATH", "CUDA_HOME"}) {
        const std::string root = env_or_empty(var);
        if (root.empty()) continue;
        folders.push_back(root + "/lib64");
        folders.push_back(root + "/targets/x86_64-linux/lib");
    }
    for (const auto& d : spmma_baseline::split_path_list(SPMMA_CUBLAS_TOOLKIT_LIB_DIRS)) folders.push_back(d);
    folders.push_back("/usr/local/cuda/lib64");
    folders.push_back("/usr/local/cuda/targets/x86_64-linux/lib");
    const auto py = spmma_baseline::python_package_dirs();
    for (const auto& d : spmma_baseline::join_all(py, {"nvidia/cu13/lib", "nvidia/cublas/lib"})) folders.push_back(d);
    return folders;
}

CublasLtLibrary load() {
    static CublasLt fns;
    CublasLtLibrary lib;
    const std::string soname = "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR);
    const auto opened = spmma_baseline::open_library(soname, candidate_folders());
    if (!opened.handle) {
        lib.why_not = "cuBLASLt not found: tried " + opened.tried_text();
        return lib;
    }
    lib.path = opened.path;
    std::string missing;
#define SPMMA_CUBLASLT_FN(name)                                                          \
    fns.name = reinterpret_cast<decltype(fns.name)>(dlsym(opened.handle, #name));        \
    if (!fns.name) missing += missing.empty() ? #name : ", " #name;
#include "cublaslt_functions.inc"
#undef SPMMA_CUBLASLT_FN
    if (!missing.empty()) {
        lib.why_not = "cuBLASLt at " + opened.path + " lacks " + missing;
        return lib;
    }
    const size_t v = fns.cublasLtGetVersion();  // major * 10000 + minor * 100 + patch
    lib.version = std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
    if (static_cast<int>(v / 10000) != CUBLAS_VER_MAJOR) {
        lib.why_not = "cuBLASLt at " + opened.path + " is " + lib.version + ", this plugin was built for " +
                      std::to_string(CUBLAS_VER_MAJOR) + ".x";
        return lib;
    }
    lib.fns = &fns;
    return lib;
}

}  // namespace

const CublasLtLibrary& cublaslt_library() {
    static const CublasLtLibrary lib = load();
    return lib;
}

const CublasLt& require_cublaslt() { return cublaslt_library().require(); }

void throw_cublas_error(cublasStatus_t s, const char* call, const char* file, int line) {
    const CublasLt* lt = cublaslt_library().fns;
    spmma_status st = SPMMA_DEVICE_ERROR;
    if (s == CUBLAS_STATUS_NOT_SUPPORTED) st = SPMMA_UNSUPPORTED;
    if (s == CUBLAS_STATUS_ALLOC_FAILED) st = SPMMA_OUT_OF_MEMORY;
    if (s == CUBLAS_STATUS_INVALID_VALUE) st = SPMMA_INVALID_ARGUMENT;
    spmma_baseline::fail_library_call(st, file, line, call, lt ? lt->cublasLtGetStatusName(s) : nullptr,
                                      lt ? lt->cublasLtGetStatusString(s) : nullptr,
                                      "cuBLAS status " + std::to_string(static_cast<int>(s)));
}

}  // namespace spmma_cublas

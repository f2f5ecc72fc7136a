#include "cusparselt_api.hpp"

#include <spmma_baseline/vendor_library.hpp>

#include <dlfcn.h>

namespace spmma_cusparselt {
namespace {

using spmma_baseline::env_or_empty;

// Baked in at configure time (see CMakeLists.txt): where the build found cuSPARSELt.
#ifndef SPMMA_CUSPARSELT_BUILD_LIB_DIRS
#define SPMMA_CUSPARSELT_BUILD_LIB_DIRS ""
#endif

const char* const kSoname = "libcusparseLt.so.0";

std::vector<std::string> candidate_folders() {
    std::vector<std::string> folders;
    const std::string root = env_or_empty("CUSPARSELT_ROOT");
    if (!root.empty()) {
        folders.push_back(root + "/lib");
        folders.push_back(root + "/lib64");
    }
    for (const auto& d : spmma_baseline::split_path_list(SPMMA_CUSPARSELT_BUILD_LIB_DIRS)) folders.push_back(d);
    const auto py = spmma_baseline::python_package_dirs();
    for (const auto& d : spmma_baseline::join_all(py, {"nvidia/cusparselt/lib", "nvidia/cu13/lib"})) folders.push_back(d);
    folders.push_back("/usr/local/cuda/lib64");
    return folders;
}

CusparseLtLibrary load() {
    static CusparseLt fns;
    CusparseLtLibrary lib;
    const auto opened = spmma_baseline::open_library(kSoname, candidate_folders());
    if (!opened.handle) {
        lib.why_not = "cuSPARSELt not found: tried " + opened.tried_text();
        return lib;
    }
    lib.path = opened.path;
    std::string missing;
#define SPMMA_CUSPARSELT_FN(name)                                                        \
    fns.name = reinterpret_cast<decltype(fns.name)>(dlsym(opened.handle, #name));        \
    if (!fns.name) missing += missing.empty() ? #name : ", " #name;
#include "cusparselt_functions.inc"
#undef SPMMA_CUSPARSELT_FN
    if (!missing.empty()) {
        lib.why_not = "cuSPARSELt at " + opened.path + " lacks " + missing + " (this plugin needs 0.8 or newer)";
        return lib;
    }
    int major = -1, minor = -1, patch = -1;
    fns.cusparseLtGetProperty(MAJOR_VERSION, &major);
    fns.cusparseLtGetProperty(MINOR_VERSION, &minor);
    fns.cusparseLtGetProperty(PATCH_LEVEL, &patch);
    lib.version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
    // NOTES: releases before 0.8 had other sizes for the opaque structs this plugin allocates.
    if (major < kMinMajor || (major == kMinMajor && minor < kMinMinor)) {
        lib.why_not = "cuSPARSELt at " + opened.path + " is " + lib.version + ", older than 0." + std::to_string(kMinMinor) +
                      " (the oldest this plugin speaks)";
        return lib;
    }
    lib.fns = &fns;
    return lib;
}

}  // namespace

const CusparseLtLibrary& cusparselt_library() {
    static const CusparseLtLibrary lib = load();
    return lib;
}

const CusparseLt& require_cusparselt() { return cusparselt_library().require(); }

void throw_cusparselt_error(cusparseStatus_t s, const char* call, const char* file, int line) {
    const CusparseLt* lt = cusparselt_library().fns;
    spmma_status st = SPMMA_DEVICE_ERROR;
    if (s == CUSPARSE_STATUS_NOT_SUPPORTED || s == CUSPARSE_STATUS_ARCH_MISMATCH) st = SPMMA_UNSUPPORTED;
    if (s == CUSPARSE_STATUS_ALLOC_FAILED || s == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES) st = SPMMA_OUT_OF_MEMORY;
    if (s == CUSPARSE_STATUS_INVALID_VALUE) st = SPMMA_INVALID_ARGUMENT;
    spmma_baseline::fail_library_call(st, file, line, call, lt ? lt->cusparseLtGetErrorName(s) : nullptr,
                                      lt ? lt->cusparseLtGetErrorString(s) : nullptr,
                                      "cuSPARSE status " + std::to_string(static_cast<int>(s)));
}

}  // namespace spmma_cusparselt

// Finding and opening a vendor shared library (libcublasLt.so.13, libcusparseLt.so.0) at run
// time, so that a baseline plugin always loads and can say exactly why it cannot run: the
// dynamic loader's own path first, then the folders a toolkit or a Python environment (pip's
// NVIDIA wheels, PyTorch's dependencies) puts it in. Pure C++ (dlopen), no CUDA.
#pragma once

#include <string>
#include <vector>

namespace spmma_baseline {

struct OpenedLibrary {
    void* handle = nullptr;          // dlopen handle (never closed: the plugin keeps it while loaded)
    std::string path;                // the file that was opened
    std::vector<std::string> tried;  // each attempt that failed, with why
    int absent_folders = 0;          // candidate folders that do not exist (not listed in tried)
    // "the loader's path (libx.so: cannot open ...), /a (no libx.so), and 3 candidate folders that do not exist"
    std::string tried_text() const;
};

// dlopen(soname) through the loader's search path (LD_LIBRARY_PATH, the ld.so cache), then
// folder/soname for each folder in order (absent folders are only counted). handle is null
// when none opened.
OpenedLibrary open_library(const std::string& soname, const std::vector<std::string>& folders);

// Folders where Python packages live on this machine, for NVIDIA's pip wheels (nvidia/cu13/lib,
// nvidia/cusparselt/lib, ...): $VIRTUAL_ENV and $CONDA_PREFIX's site-packages, the entries of
// PYTHONPATH, the system's dist-/site-packages folders (/usr/local/lib/python3.*, /usr/lib/python3,
// ~/.local, /opt/conda), then `extra`, then the build machine's (baked in at configure time,
// with the project's .tools/python).
// Only existing folders, each once, in that order.
std::vector<std::string> python_package_dirs(const std::vector<std::string>& extra = {});

// For each base folder, base/suffix for each suffix (in base-major order).
std::vector<std::string> join_all(const std::vector<std::string>& bases, const std::vector<std::string>& suffixes);

// The value of an environment variable, or "" when unset.
std::string env_or_empty(const char* name);

// Splits "a:b::c" into {"a", "b", "c"} (empty entries dropped).
std::vector<std::string> split_path_list(const std::string& list);

}  // namespace spmma_baseline

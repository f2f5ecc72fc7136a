#include <spmma_baseline/vendor_library.hpp>

#include <dlfcn.h>
#include <glob.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

// The build machine's Python package folders, baked in at configure time (CMakeLists.txt).
#ifndef SPMMA_BASELINE_PYTHON_DIRS
#define SPMMA_BASELINE_PYTHON_DIRS ""
#endif

namespace spmma_baseline {
namespace {

bool is_dir(const std::string& p) {
    struct stat st {};
    return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

std::vector<std::string> glob_dirs(const std::string& pattern) {
    std::vector<std::string> out;
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; ++i)
            if (is_dir(g.gl_pathv[i])) out.emplace_back(g.gl_pathv[i]);
    }
    globfree(&g);
    // Newest Python first (glob sorts ascending: python3.10 < python3.12).
    std::reverse(out.begin(), out.end());
    return out;
}

// The real path of a library opened by soname (what the loader chose).
std::string loaded_path(void* handle, const std::string& fallback) {
    link_map* lm = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0]) return lm->l_name;
    return fallback;
}

std::string dl_error(const std::string& fallback) {
    const char* e = dlerror();
    return e ? e : fallback;
}

}  // namespace

std::string OpenedLibrary::tried_text() const {
    std::string s;
    for (const auto& t : tried) s += (s.empty() ? "" : ", ") + t;
    if (absent_folders > 0)
        s += (s.empty() ? "" : ", ") + std::string("and ") + std::to_string(absent_folders) + " candidate folder" +
             (absent_folders == 1 ? " that does" : "s that do") + " not exist";
    return s.empty() ? "nothing" : s;
}

OpenedLibrary open_library(const std::string& soname, const std::vector<std::string>& folders) {
    OpenedLibrary r;
    if (void* h = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL)) {
        r.handle = h;
        r.path = loaded_path(h, soname);
        return r;
    }
    r.tried.push_back("the loader's path (" + dl_error(soname + ": not found") + ")");
    std::vector<std::string> seen;
    for (const auto& folder : folders) {
        if (folder.empty()) continue;
        const std::string path = folder + "/" + soname;
        if (std::find(seen.begin(), seen.end(), path) != seen.end()) continue;
        seen.push_back(path);
        if (!is_dir(folder)) {
            ++r.absent_folders;
            continue;
        }
        if (!is_file(path)) {
            r.tried.push_back(folder + " (no " + soname + ")");
            continue;
        }
        if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            r.handle = h;
            r.path = path;
            return r;
        }
        r.tried.push_back(path + " (" + dl_error("dlopen failed") + ")");
    }
    return r;
}

std::vector<std::string> python_package_dirs(const std::vector<std::string>& extra) {
    std::vector<std::string> candidates;
    auto add_prefix = [&](const std::string& prefix) {
        if (prefix.empty()) return;
        for (const char* pat : {"/lib/python3*/site-packages", "/lib/python3*/dist-packages", "/lib64/python3*/site-packages"})
            for (auto& d : glob_dirs(prefix + pat)) candidates.push_back(d);
    };
    add_prefix(env_or_empty("VIRTUAL_ENV"));
    add_prefix(env_or_empty("CONDA_PREFIX"));
    for (const auto& d : split_path_list(env_or_empty("PYTHONPATH"))) candidates.push_back(d);
    // NOTES: the python3 first on PATH is the one a user's PyTorch runs with; its prefix is the
    // folder above its bin/ (a venv, conda, or /usr/local) — sys.prefix without running Python.
    for (const auto& bin : split_path_list(env_or_empty("PATH")))
        if (access((bin + "/python3").c_str(), X_OK) == 0) add_prefix(bin + "/..");
    add_prefix("/usr/local");
    add_prefix("/usr");
    for (auto& d : glob_dirs("/usr/lib/python3/dist-packages")) candidates.push_back(d);
    const std::string home = env_or_empty("HOME");
    if (!home.empty()) add_prefix(home + "/.local");
    add_prefix("/opt/conda");
    for (const auto& d : extra) candidates.push_back(d);
    for (const auto& d : split_path_list(SPMMA_BASELINE_PYTHON_DIRS)) candidates.push_back(d);

    std::vector<std::string> out;
    std::vector<std::string> real_seen;
    for (const auto& d : candidates) {
        if (!is_dir(d)) continue;
        char buf[PATH_MAX];
        const std::string real = realpath(d.c_str(), buf) ? std::string(buf) : d;
        if (std::find(real_seen.begin(), real_seen.end(), real) != real_seen.end()) continue;
        real_seen.push_back(real);
        out.push_back(real);
    }
    return out;
}

std::vector<std::string> join_all(const std::vector<std::string>& bases, const std::vector<std::string>& suffixes) {
    std::vector<std::string> out;
    for (const auto& b : bases)
        for (const auto& s : suffixes) out.push_back(b + "/" + s);
    return out;
}

std::string env_or_empty(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::vector<std::string> split_path_list(const std::string& list) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t end = list.find(':', start);
        const std::string part = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!part.empty()) out.push_back(part);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

}  // namespace spmma_baseline

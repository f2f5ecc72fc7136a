// Runs the spmma binary and captures what it prints and its exit code.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

struct CliResult {
    int code = -1;
    std::string out;  // stdout and stderr together
};

// Runs spmma with environment variables set for this one command ("A=1 B=2", or "").
inline CliResult spmma_cli_env(const std::string& env, const std::string& args) {
    const std::string cmd = "env " + env + " " + std::string(SPMMA_EXE) + " " + args + " 2>&1";
    CliResult r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = pclose(p);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

inline CliResult spmma_cli(const std::string& args) { return spmma_cli_env("", args); }

// This process's folder for test files, emptied at its first use. NOTES: it is named by the
// process id, which the system hands out again: a folder an earlier process of the same id left
// behind gave a test its stale records, and the app refused to write over them ("already holds
// records").
inline std::filesystem::path fresh_dir(const std::filesystem::path& d) {
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}
inline const std::filesystem::path& temp_dir() {
    static const std::filesystem::path dir =
        fresh_dir(std::filesystem::temp_directory_path() / ("spmma-test-" + std::to_string(::getpid())));
    return dir;
}

inline std::string temp_path(const std::string& name) { return (temp_dir() / name).string(); }

inline std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = temp_path(name);
    std::ofstream(path) << text;
    return path;
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// External tools the tests drive (xmllint, chromium): run a shell command and capture its output;
// find a tool or say why it is missing. Header-only: include it as "../common/tools.hpp".
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

struct ShellResult {
    int code = -1;
    std::string out;  // stdout (and stderr when the command redirects it)
};

inline ShellResult run_shell(const std::string& command) {
    ShellResult r;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = pclose(p);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

// The first of `names` on the PATH, or "".
inline std::string find_tool(const std::vector<std::string>& names) {
    for (const auto& n : names) {
        const ShellResult r = run_shell("command -v " + n + " 2>/dev/null");
        if (r.code == 0 && !r.out.empty()) return r.out.substr(0, r.out.find('\n'));
    }
    return "";
}

// xmllint --schema tests/schemas/junit.xsd FILE: code 0 when FILE is valid JUnit as we write it.
inline ShellResult validate_junit(const std::string& file) {
    const std::string xmllint = find_tool({"xmllint"});
    if (xmllint.empty()) return {-1, "xmllint not found: scripts/test.sh installs it (Debian package libxml2-utils)"};
    return run_shell(xmllint + " --noout --schema '" SPMMA_SOURCE_DIR "/tests/schemas/junit.xsd' '" + file + "' 2>&1");
}

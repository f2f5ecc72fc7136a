// What the plugin SASS tests (tests/<arch>/test_sass.cpp) share: cuobjdump as CMake found it and
// a plugin's embedded cubins disassembled with `cuobjdump -sass`, split per (arch, function)
// (the plugin's kernel list: plugin.hpp). Header-only: a suite's test_sass.cpp includes it as
// "../common/sass.hpp" (spmma_add_test_suite defines SPMMA_CUOBJDUMP and SPMMA_SOURCE_DIR).
// Every helper fails the running test (REQUIRE / FAIL) when it cannot do its job.
#pragma once

#include <catch2/catch.hpp>

#include <cctype>
#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace spmma_test::sass {

// The cuobjdump CMake found; the test fails, saying how to install it, when there was none.
inline std::string cuobjdump() {
    const std::string tool = SPMMA_CUOBJDUMP;
    if (tool.empty())
        FAIL("cuobjdump was not found when CMake ran. Install it with\n"
             "  pip install --target " SPMMA_SOURCE_DIR "/.tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm\n"
             "then re-run cmake (tests/CMakeLists.txt looks in .tools/nvidia/cu13/bin).");
    return tool;
}

// Runs `cuobjdump -sass <options> so` (options e.g. "-arch sm_121a") and reads its output line by
// line (it can be tens of MB): on_function(arch, name) at each "Function : name" header, then
// on_line(line) (without its newline) for each line of that function's listing, up to the next
// function or cubin ("arch = sm_XX"). Fails the test when cuobjdump cannot run or exits non-zero.
template <class OnFunction, class OnLine>
void for_each_function_line(const std::string& cuobjdump, const std::string& so, const std::string& options,
                            OnFunction&& on_function, OnLine&& on_line) {
    const std::string dir = cuobjdump.substr(0, cuobjdump.find_last_of('/'));
    const std::string cmd = "PATH='" + dir + "':\"$PATH\" '" + cuobjdump + "' -sass " + options + " '" + so + "' 2>&1";
    INFO(cmd);
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    const std::string arch_tag = "arch = ", fn_tag = "Function : ";
    auto trimmed = [](std::string s) {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
        return s;
    };
    std::string arch, line;
    bool in_function = false;
    char chunk[4096];
    while (fgets(chunk, sizeof chunk, p)) {
        line += chunk;
        if (line.back() != '\n' && !feof(p)) continue;  // a longer line: read on
        if (line.back() == '\n') line.pop_back();
        if (const auto at = line.find(arch_tag); at != std::string::npos && line.find("/*") == std::string::npos) {
            arch = trimmed(line.substr(at + arch_tag.size()));
            in_function = false;
        } else if (const auto at = line.find(fn_tag); at != std::string::npos) {
            on_function(arch, trimmed(line.substr(at + fn_tag.size())));
            in_function = true;
        } else if (in_function) {
            on_line(line);
        }
        line.clear();
    }
    const int rc = pclose(p);
    REQUIRE(rc == 0);
}

// Function name -> its SASS listing, one line each (functions of the same name in several cubins
// run together: select one with options "-arch sm_XX").
inline std::map<std::string, std::string> function_texts(const std::string& cuobjdump, const std::string& so,
                                                         const std::string& options = "") {
    std::map<std::string, std::string> funcs;
    std::string* current = nullptr;
    for_each_function_line(
        cuobjdump, so, options, [&](const std::string&, const std::string& name) { current = &funcs[name]; },
        [&](const std::string& line) { *current += line + "\n"; });
    return funcs;
}

// Whether SASS text loads or stores local memory (LDL/STL: register spills, a call stack).
inline bool touches_local_memory(const std::string& text) {
    static const std::regex local(R"(\b(LDL|STL)(\.[A-Z0-9]+)*\s)");
    return std::regex_search(text, local);
}

inline std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace spmma_test::sass

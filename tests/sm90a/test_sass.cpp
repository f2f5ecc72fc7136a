// The embedded sm90a kernels, disassembled with cuobjdump: each must issue the sparse
// warpgroup MMA of its type (HGMMA.SP for f16/bf16/tf32, QGMMA.SP for e4m3/e5m2, IGMMA.SP for
// s8/u8) and touch no local memory (no spills: LDL/STL). Runs without a GPU.
#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

std::vector<std::string> plugin_kernel_names(const std::string& so) {
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    INFO("dlopen " << so << ": " << (h ? "ok" : dlerror()));
    REQUIRE(h != nullptr);
    auto entry = reinterpret_cast<spmma_plugin_entry_fn>(dlsym(h, SPMMA_ENTRY_SYMBOL));
    REQUIRE(entry != nullptr);
    const spmma_plugin_api* api = entry();
    std::vector<std::string> names;
    for (int32_t i = 0; i < api->kernel_count(); ++i) {
        spmma_kernel_info k{};
        k.struct_size = sizeof k;
        REQUIRE(api->get_kernel(i, &k) == SPMMA_OK);
        names.emplace_back(k.name);
    }
    return names;  // the plugin stays loaded: its strings were copied
}

// What the SASS of one function shows.
struct FunctionSass {
    std::string sparse_mma;  // "HGMMA", "QGMMA" or "IGMMA" when the function issues its .SP form
    std::string local_memory;  // the first LDL/STL line, if any
};

// Function name -> what its SASS shows (read line by line: the disassembly is tens of MB).
std::map<std::string, FunctionSass> disassemble(const std::string& cuobjdump, const std::string& so) {
    const std::string dir = cuobjdump.substr(0, cuobjdump.find_last_of('/'));
    const std::string cmd = "PATH='" + dir + "':\"$PATH\" '" + cuobjdump + "' -sass '" + so + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::map<std::string, FunctionSass> funcs;
    FunctionSass* current = nullptr;
    char line[4096];
    const std::string tag = "Function : ";
    const std::regex local(R"(\b(LDL|STL)(\.[A-Z0-9]+)*\s)");
    while (fgets(line, sizeof line, p)) {
        const std::string s(line);
        const auto at = s.find(tag);
        if (at != std::string::npos) {
            std::string name = s.substr(at + tag.size());
            while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
            current = &funcs[name];
            continue;
        }
        if (!current) continue;
        for (const char* op : {"HGMMA", "QGMMA", "IGMMA"})
            if (s.find(std::string(op) + ".SP.64x") != std::string::npos) current->sparse_mma = op;
        if ((s.find("LDL") != std::string::npos || s.find("STL") != std::string::npos) && current->local_memory.empty() &&
            std::regex_search(s, local))
            current->local_memory = s;
    }
    const int rc = pclose(p);
    INFO(cmd);
    REQUIRE(rc == 0);
    return funcs;
}

}  // namespace

TEST_CASE("sm90a SASS: every kernel issues sparse HGMMA/QGMMA/IGMMA of its type and uses no local memory",
          "[sm90a][sass]") {
    const std::string cuobjdump = SPMMA_CUOBJDUMP;
    if (cuobjdump.empty())
        FAIL("cuobjdump was not found when CMake ran. Install it with\n"
             "  pip install --target " SPMMA_SOURCE_DIR "/.tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm\n"
             "then re-run cmake (tests/CMakeLists.txt looks in .tools/nvidia/cu13/bin).");
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm90a.so";
    const auto names = plugin_kernel_names(so);
    REQUIRE(names.size() > 20);
    const auto funcs = disassemble(cuobjdump, so);
    for (const std::string& name : names) {
        INFO(name);
        const auto it = funcs.find(name);
        REQUIRE(it != funcs.end());
        std::string op = "IGMMA";
        if (name.rfind("sm90a_f16", 0) == 0 || name.rfind("sm90a_bf16", 0) == 0 || name.rfind("sm90a_tf32", 0) == 0)
            op = "HGMMA";
        else if (name.rfind("sm90a_e4m3", 0) == 0 || name.rfind("sm90a_e5m2", 0) == 0)
            op = "QGMMA";
        CHECK(it->second.sparse_mma == op);
        INFO("local memory: " << it->second.local_memory);
        CHECK(it->second.local_memory.empty());
    }
}

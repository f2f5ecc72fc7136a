// The embedded sm80 kernels, disassembled with cuobjdump: every kernel has SASS for each arch it
// is built for (sm_80, sm_86, sm_89, sm_90; e4m3/e5m2: sm_89, sm_90), issues the sparse MMA of
// its exact type (HMMA.SP for f16/bf16/tf32, IMMA.SP for s8/u8/s4/u4 with .SAT where satfinite,
// QMMA.SP for e4m3/e5m2) and touches no local memory (no spills). Runs without a GPU.
//
// NOTES: sm_90 has no native 4-bit or 8-bit-float mma.sp; ptxas emulates them, and the test pins
// what it emits so a change is noticed: s4/u4 run through the 8-bit IMMA.SP.16864 (nibbles
// widened, satfinite applied around it), e4m3/e5m2 through HMMA.SP.16832.F32 after
// F2FP.F16.<type>.UNPACK_B conversions; both emulations may use local memory (spills, the call
// stack of the s4 subroutine): those are the only kernels allowed to.
#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
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
    return names;  // the plugin stays loaded
}

// (arch, function) -> SASS text, for every cubin embedded in `so`.
std::map<std::pair<std::string, std::string>, std::string> disassemble(const std::string& cuobjdump, const std::string& so) {
    const std::string dir = cuobjdump.substr(0, cuobjdump.find_last_of('/'));
    const std::string cmd = "PATH='" + dir + "':\"$PATH\" '" + cuobjdump + "' -sass '" + so + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::map<std::pair<std::string, std::string>, std::string> funcs;
    std::string arch, fn;
    char line[4096];
    const std::regex arch_re(R"(^\s*arch = (sm_\d+))");
    const std::string tag = "Function : ";
    std::smatch mt;
    while (fgets(line, sizeof line, p)) {
        const std::string s(line);
        if (std::regex_search(s, mt, arch_re)) {
            arch = mt[1];
            fn.clear();
            continue;
        }
        const auto at = s.find(tag);
        if (at != std::string::npos) {
            fn = s.substr(at + tag.size());
            while (!fn.empty() && (fn.back() == '\n' || fn.back() == ' ' || fn.back() == '\r')) fn.pop_back();
            continue;
        }
        if (!fn.empty()) funcs[{arch, fn}] += s;
    }
    const int rc = pclose(p);
    INFO(cmd);
    REQUIRE(rc == 0);
    return funcs;
}

// The SASS mnemonics a kernel of this name must issue on `arch`, e.g. sm80_s8u8_s32_sat_... ->
// IMMA.SP.16864.S8.U8.SAT, sm80_f16f16_f32_... -> HMMA.SP.16832.F32 (not .BF16).
std::vector<std::string> expected_mma(const std::string& name, const std::string& arch) {
    const std::regex re(R"(^sm(80|89)_([a-z0-9]+)_(f32|f16|s32)(_sat)?_\d+x\d+x\d+_s\d_(om|sp)$)");
    static const std::vector<std::string> types = {"f16", "bf16", "tf32", "s8", "u8", "s4", "u4", "e4m3", "e5m2"};
    std::smatch m;
    REQUIRE(std::regex_match(name, m, re));
    // Split the operand part (e.g. "s8u8") into its two types.
    const std::string ab = m[2].str();
    std::string a, b;
    for (const auto& t : types)
        if (ab.rfind(t, 0) == 0 && std::find(types.begin(), types.end(), ab.substr(t.size())) != types.end()) {
            a = t;
            b = ab.substr(t.size());
        }
    REQUIRE(!a.empty());
    auto up = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return s;
    };
    const std::string acc = m[3], sat = m[4];
    const bool sm90 = arch == "sm_90";
    if (a == "f16") return {acc == "f16" ? "HMMA.SP.16832.F16" : "HMMA.SP.16832.F32"};
    if (a == "bf16") return {"HMMA.SP.16832.F32.BF16"};
    if (a == "tf32") return {"HMMA.SP.16816.F32.TF32"};
    if (a == "e4m3" || a == "e5m2") {
        if (sm90) return {"HMMA.SP.16832.F32", "F2FP.F16." + up(a) + ".UNPACK_B", "F2FP.F16." + up(b) + ".UNPACK_B"};
        return {"QMMA.SP.16864.F32." + up(a) + "." + up(b)};
    }
    if (a == "s8" || a == "u8") return {"IMMA.SP.16864." + up(a) + "." + up(b) + (sat.empty() ? "" : ".SAT")};
    if (sm90) return {"IMMA.SP.16864." + up(a.substr(0, 1)) + "8." + up(b.substr(0, 1)) + "8"};
    return {"IMMA.SP.168128." + up(a) + "." + up(b) + (sat.empty() ? "" : ".SAT")};
}

}  // namespace

TEST_CASE("sm80 SASS: every kernel issues the sparse MMA of its type on every built arch, without spills",
          "[sm80][sass]") {
    const std::string cuobjdump = SPMMA_CUOBJDUMP;
    if (cuobjdump.empty())
        FAIL("cuobjdump was not found when CMake ran. Install it with\n"
             "  pip install --target " SPMMA_SOURCE_DIR "/.tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm\n"
             "then re-run cmake (tests/CMakeLists.txt looks in .tools/nvidia/cu13/bin).");
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm80.so";
    const auto names = plugin_kernel_names(so);
    REQUIRE(names.size() > 50);
    const auto funcs = disassemble(cuobjdump, so);
    const std::regex local(R"(\b(LDL|STL)(\.[A-Z0-9]+)*\s)");
    std::set<std::string> families_seen;
    for (const std::string& name : names) {
        const bool fp8 = name.rfind("sm89_", 0) == 0;
        const std::vector<std::string> archs =
            fp8 ? std::vector<std::string>{"sm_89", "sm_90"} : std::vector<std::string>{"sm_80", "sm_86", "sm_89", "sm_90"};
        for (const std::string& arch : archs) {
            const auto it = funcs.find({arch, name});
            INFO(name << " on " << arch);
            REQUIRE(it != funcs.end());
            for (const std::string& mma : expected_mma(name, arch)) {
                INFO("expects " << mma);
                // The exact mnemonic, then an operand: ".SAT" must not match the wrapping form.
                const std::regex mma_re(std::regex_replace(mma, std::regex(R"(\.)"), R"(\.)") + R"(\s)");
                CHECK(std::regex_search(it->second, mma_re));
                families_seen.insert(mma.substr(0, 4));
            }
            const bool int4 = name.find("4s4_") != std::string::npos || name.find("4u4_") != std::string::npos;
            const bool emulated = (fp8 || int4) && arch == "sm_90";
            if (!emulated) CHECK_FALSE(std::regex_search(it->second, local));
        }
    }
    CHECK(families_seen == std::set<std::string>{"HMMA", "IMMA", "QMMA", "F2FP"});
}

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
#include "../common/plugin.hpp"
#include "../common/sass.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace sass = spmma_test::sass;

// (arch, function) -> the opcodes its SASS uses (predicates stripped), for every cubin in `so`.
std::map<std::pair<std::string, std::string>, std::set<std::string>> disassemble(const std::string& cuobjdump,
                                                                                  const std::string& so) {
    std::map<std::pair<std::string, std::string>, std::set<std::string>> funcs;
    std::set<std::string>* current = nullptr;
    sass::for_each_function_line(
        cuobjdump, so, "",
        [&](const std::string& arch, const std::string& fn) { current = &funcs[{arch, fn}]; },
        [&](const std::string& s) {
            // An instruction line: "        /*0c30*/   @!P0 OPCODE.MODS operands ;  /* encoding */".
            const auto open = s.find("/*");
            const auto close = s.find("*/", open == std::string::npos ? 0 : open);
            if (open == std::string::npos || close == std::string::npos || s.find_first_not_of(" \t") != open) return;
            std::istringstream in(s.substr(close + 2));
            std::string op;
            in >> op;
            if (!op.empty() && op[0] == '@') in >> op;
            if (!op.empty() && op != "/*") current->insert(op);
        });
    return funcs;
}

bool uses_local_memory(const std::set<std::string>& ops) {
    for (const std::string& op : ops)
        if (op.rfind("LDL", 0) == 0 || op.rfind("STL", 0) == 0) return true;
    return false;
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
    const auto up = sass::upper;
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

TEST_CASE("sm80 SASS: every kernel issues the sparse MMA of its type on every built arch, the split-K reductions "
          "beside them, without spills (sm_90 s4/fp8 emulation excepted)",
          "[sm80][sass]") {
    const std::string cuobjdump = sass::cuobjdump();
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm80.so";
    const auto names = spmma_test::plugin_kernel_names(so);
    REQUIRE(names.size() > 50);
    const auto funcs = disassemble(cuobjdump, so);
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
                CHECK(it->second.count(mma) == 1);  // the exact opcode: .SAT is not the wrapping form
                families_seen.insert(mma.substr(0, 4));
            }
            const bool int4 = name.find("4s4_") != std::string::npos || name.find("4u4_") != std::string::npos;
            const bool emulated = (fp8 || int4) && arch == "sm_90";
            if (!emulated) CHECK_FALSE(uses_local_memory(it->second));
        }
    }
    CHECK(families_seen == std::set<std::string>{"HMMA", "IMMA", "QMMA", "F2FP"});
    // The reductions a split-K launch runs after the GEMM (sm80_spgemm.cuh, add_k_splits).
    for (const char* name : {"sm80_add_k_splits_f32", "sm80_add_k_splits_s32"})
        for (const char* arch : {"sm_80", "sm_86", "sm_89", "sm_90"}) {
            const auto it = funcs.find({arch, name});
            INFO(name << " on " << arch);
            REQUIRE(it != funcs.end());
            CHECK_FALSE(uses_local_memory(it->second));
        }
}

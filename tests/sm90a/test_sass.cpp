// The embedded sm90a kernels, disassembled with cuobjdump: each must issue the sparse
// warpgroup MMA of its type (HGMMA.SP for f16/bf16/tf32, QGMMA.SP for e4m3/e5m2, IGMMA.SP for
// s8/u8), touch no local memory (no spills: LDL/STL), and never overwrite the metadata register
// of a sparse MMA that may still be in flight. Runs without a GPU.
#include "../common/plugin.hpp"
#include "../common/sass.hpp"

#include <catch2/catch.hpp>

#include <spmma_sm90a/tile_config.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace sass = spmma_test::sass;

// One SASS instruction: address, guard predicate (empty when none), opcode, operands.
struct Instr {
    uint32_t addr = 0;
    std::string guard, op;
    std::vector<std::string> args;
    std::string text;
};

// "        /*07a0*/   @!P0 HGMMA.SP.64x128x32.F32 R24, gdesc[UR20], R24, UP0, R91, 0x0 ;  /* 0x... */"
bool parse_instr(const std::string& line, Instr& in) {
    static const std::regex re(R"(^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Za-z0-9_.]*)\s*([^;]*);)");
    std::smatch m;
    if (!std::regex_search(line, m, re)) return false;
    in.addr = static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16));
    in.guard = m[2].str();
    while (!in.guard.empty() && in.guard.back() == ' ') in.guard.pop_back();
    in.op = m[3].str();
    in.args.clear();
    std::stringstream ss(m[4].str());
    std::string a;
    while (std::getline(ss, a, ',')) {
        const auto b = a.find_first_not_of(' '), e = a.find_last_not_of(' ');
        if (b != std::string::npos) in.args.push_back(a.substr(b, e - b + 1));
    }
    in.text = line.substr(0, line.find(" /* 0x"));
    return true;
}

bool is_reg(const std::string& a) { return std::regex_match(a, std::regex(R"(R[0-9]+)")); }
bool is_pred(const std::string& a) { return std::regex_match(a, std::regex(R"(!?U?P([0-9]+|T))")); }
int reg_index(const std::string& a) { return std::stoi(a.substr(1)); }

bool is_sparse_mma(const Instr& in) {
    return in.op.find("GMMA.SP.") != std::string::npos;
}

// The general registers an instruction writes, as [first, first + count): its destination is the
// first operand (or the second, after a predicate destination such as SHFL's), widened by the
// opcode's size suffix; warpgroup MMAs write their accumulator range.
std::pair<int, int> written_regs(const Instr& in) {
    if (in.args.empty()) return {-1, 0};
    std::string d = in.args[0];
    if (is_pred(d) && in.args.size() > 1) d = in.args[1];
    if (!is_reg(d)) return {-1, 0};
    int count = 1;
    static const std::regex mma_shape(R"(GMMA(\.SP)?\.64x([0-9]+)x[0-9]+\.([A-Z0-9]+))");
    std::smatch m;
    if (std::regex_search(in.op, m, mma_shape)) {
        const int n = std::stoi(m[2].str());
        count = m[3].str() == "F16" ? n / 4 : n / 2;
    } else if (in.op.find(".128") != std::string::npos) {
        count = 4;
    } else if (in.op.find(".64") != std::string::npos || in.op.find(".WIDE") != std::string::npos) {
        count = 2;
    } else if (in.op.rfind("LDSM", 0) == 0) {
        count = in.op.back() == '4' ? 4 : in.op.back() == '2' ? 2 : 1;
    }
    return {reg_index(d), count};
}

// The metadata register of a sparse MMA: the first general register after the accumulator input.
int meta_reg(const Instr& in) {
    for (size_t i = 3; i < in.args.size(); ++i)
        if (is_reg(in.args[i])) return reg_index(in.args[i]);
    return -1;
}

bool closes_group(const Instr& in) {
    return in.op.find("GMMA") != std::string::npos && !in.args.empty() && in.args.back() == "gsb0";
}

// WARPGROUP.DEPBAR.LE gsb0, N (unguarded): N, else -1.
int depbar_limit(const Instr& in) {
    if (in.op != "WARPGROUP.DEPBAR.LE" || !in.guard.empty() || in.args.size() != 2 || in.args[0] != "gsb0") return -1;
    return static_cast<int>(std::stoul(in.args[1], nullptr, 16));
}

// Every path from each sparse MMA X (addr, its metadata register) to the wait that retires X's
// group: a write of the register on such a path is a hazard. Groups retire in order, so after
// "WARPGROUP.DEPBAR.LE gsb0, N" X is complete when X's group is closed (a gsb0 MMA, X itself or
// a later one) and at least N groups were closed after it. Branches are followed both ways when
// guarded, loops through a visited set of (instruction, closed, groups after).
std::vector<std::string> metadata_hazards(const std::vector<Instr>& code) {
    std::map<uint32_t, size_t> at;
    for (size_t i = 0; i < code.size(); ++i) at[code[i].addr] = i;
    std::vector<std::string> out;
    for (size_t x = 0; x < code.size(); ++x) {
        if (!is_sparse_mma(code[x])) continue;
        const int reg = meta_reg(code[x]);
        if (reg < 0) {
            out.push_back("no metadata register in: " + code[x].text);
            continue;
        }
        using State = std::tuple<size_t, bool, int>;
        std::set<State> seen;
        std::vector<State> todo{{x + 1, closes_group(code[x]), 0}};
        while (!todo.empty() && out.size() < 8) {
            auto [i, closed, after] = todo.back();
            todo.pop_back();
            for (;;) {
                if (i >= code.size() || !seen.insert({i, closed, after}).second) break;
                const Instr& in = code[i];
                const int lim = depbar_limit(in);
                if (lim >= 0 && closed && after >= lim) break;  // retired
                const auto [first, count] = written_regs(in);
                if (first >= 0 && reg >= first && reg < first + count) {
                    out.push_back("R" + std::to_string(reg) + " of" + code[x].text + "\n  is overwritten by" + in.text);
                    break;
                }
                if (closes_group(in)) {
                    if (!closed) closed = true;
                    else after = std::min(after + 1, 3);
                }
                if (in.op.rfind("BRA", 0) == 0) {
                    const auto t = at.find(static_cast<uint32_t>(std::stoul(in.args.back(), nullptr, 16)));
                    if (t == at.end()) {
                        out.push_back("branch target not found: " + in.text);
                        break;
                    }
                    const bool conditional = !in.guard.empty() || in.args.size() > 1;
                    if (!conditional) {
                        i = t->second;
                        continue;
                    }
                    todo.push_back({t->second, closed, after});
                } else if ((in.op == "EXIT" || in.op.rfind("RET", 0) == 0) && in.guard.empty()) {
                    break;
                } else if (in.op.rfind("BRX", 0) == 0 || in.op.rfind("JMX", 0) == 0 || in.op.rfind("CALL", 0) == 0) {
                    out.push_back("indirect control flow is not followed: " + in.text);
                    break;
                }
                ++i;
            }
        }
    }
    return out;
}

// What the SASS of one function shows.
struct FunctionSass {
    std::string sparse_mma;  // "HGMMA", "QGMMA" or "IGMMA" when the function issues its .SP form
    std::string local_memory;  // the first LDL/STL line, if any
    int mmas = 0;     // sparse MMA instructions
    int arrives = 0;  // WARPGROUP.ARRIVE (one per group of MMAs; one per MMA when ptxas serialises them)
    std::vector<Instr> code;
};

// Function name -> what its SASS shows (read line by line: the disassembly is tens of MB).
std::map<std::string, FunctionSass> disassemble(const std::string& cuobjdump, const std::string& so) {
    std::map<std::string, FunctionSass> funcs;
    FunctionSass* current = nullptr;
    sass::for_each_function_line(
        cuobjdump, so, "", [&](const std::string&, const std::string& name) { current = &funcs[name]; },
        [&](const std::string& s) {
            Instr in;
            if (parse_instr(s, in)) current->code.push_back(std::move(in));
            for (const char* op : {"HGMMA", "QGMMA", "IGMMA"})
                if (s.find(std::string(op) + ".SP.64x") != std::string::npos) {
                    current->sparse_mma = op;
                    ++current->mmas;
                }
            if (s.find("WARPGROUP.ARRIVE") != std::string::npos) ++current->arrives;
            if ((s.find("LDL") != std::string::npos || s.find("STL") != std::string::npos) &&
                current->local_memory.empty() && sass::touches_local_memory(s))
                current->local_memory = s;
        });
    return funcs;
}

// The function a kernel name runs: its own, or for a split kernel (..._c4x1+2x1_...) its main
// grid's (..._c4x1_...; the rest grid's ..._c2x1_... is a kernel of its own in the table).
std::string main_function(const std::string& name) {
    const std::string split = "+2x1_";
    const size_t at = name.find(split);
    return at == std::string::npos ? name : name.substr(0, at) + "_" + name.substr(at + split.size());
}

// Every kernel function of the plugin (kernels/all.inc) and its tile configuration.
std::map<std::string, spmma_sm90a::TileConfig> kernel_configs() {
    using spmma_sm90a::Family;
    std::map<std::string, spmma_sm90a::TileConfig> m;
    auto fam = [](const std::string& a) { return a == "f16" || a == "bf16" ? Family::B16 : a == "tf32" ? Family::B32 : Family::B8; };
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S) \
    m["sm90a_" #A #B "_" #ACC "_" #BM "x" #BN "x" #BK "_c" #CM "x" #CN "_s" #S] = spmma_sm90a::TileConfig{fam(#A), BM, BN, CM, CN, S};
#include <spmma_sm90a/kernels/all.inc>
#undef SPMMA_SM90A_KERNEL
    return m;
}

// bar.sync 3, 256: both consumers' threads (sm90a_spgemm.cuh, kBothConsumersBarrier).
bool syncs_both_consumers(const std::vector<Instr>& code) {
    for (const Instr& in : code)
        if (in.op.rfind("BAR.SYNC", 0) == 0 && in.args.size() == 2 && in.args[0] == "0x3" && in.args[1] == "0x100") return true;
    return false;
}

}  // namespace

TEST_CASE("sm90a SASS: the two-consumer kernels that borrow epilogue buffers from B rows sync both consumers first, and only they",
          "[sm90a][sass]") {
    const std::string cuobjdump = sass::cuobjdump();
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm90a.so";
    const auto funcs = disassemble(cuobjdump, so);
    int borrowing = 0;
    for (const auto& [name, cfg] : kernel_configs()) {
        INFO(name);
        const auto it = funcs.find(name);
        REQUIRE(it != funcs.end());
        const bool must = cfg.epi_borrows() && cfg.consumers() == 2;
        borrowing += must;
        CHECK(syncs_both_consumers(it->second.code) == must);
    }
    CHECK(borrowing >= 10);
}

TEST_CASE("sm90a SASS: every kernel issues sparse HGMMA/QGMMA/IGMMA of its type, unserialised, and uses no local memory",
          "[sm90a][sass]") {
    const std::string cuobjdump = sass::cuobjdump();
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm90a.so";
    const auto names = spmma_test::plugin_kernel_names(so);
    REQUIRE(names.size() > 20);
    const auto funcs = disassemble(cuobjdump, so);
    for (const std::string& name : names) {
        INFO(name);
        const auto it = funcs.find(main_function(name));
        REQUIRE(it != funcs.end());
        std::string op = "IGMMA";
        if (name.rfind("sm90a_f16", 0) == 0 || name.rfind("sm90a_bf16", 0) == 0 || name.rfind("sm90a_tf32", 0) == 0)
            op = "HGMMA";
        else if (name.rfind("sm90a_e4m3", 0) == 0 || name.rfind("sm90a_e5m2", 0) == 0)
            op = "QGMMA";
        CHECK(it->second.sparse_mma == op);
        INFO("local memory: " << it->second.local_memory);
        CHECK(it->second.local_memory.empty());
        // Every k-tile issues at least two MMAs after one fence; an ARRIVE per MMA means ptxas
        // serialised them (info C7520: a bit-cast accumulator in the stream-K store did that).
        INFO("sparse MMAs " << it->second.mmas << ", WARPGROUP.ARRIVE " << it->second.arrives);
        CHECK(2 * it->second.arrives <= it->second.mmas);
    }
}

TEST_CASE("sm90a SASS: no sparse wgmma's metadata register is written before the wait that retires it",
          "[sm90a][sass]") {
    const std::string cuobjdump = sass::cuobjdump();
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm90a.so";
    const auto names = spmma_test::plugin_kernel_names(so);
    const auto funcs = disassemble(cuobjdump, so);
    for (const std::string& name : names) {
        INFO(name);
        const auto it = funcs.find(main_function(name));
        REQUIRE(it != funcs.end());
        REQUIRE(it->second.code.size() > 100);
        const auto hazards = metadata_hazards(it->second.code);
        for (const std::string& h : hazards) UNSCOPED_INFO(h);
        CHECK(hazards.empty());
    }
}

TEST_CASE("sm90a SASS hazard check: flags a metadata register reloaded while its wgmma is in flight",
          "[sm90a][sass]") {
    // The loop of the first device run's two-consumer kernels (one metadata register, one group
    // in flight): the back edge reloads R88 while the group of the second HGMMA is pending.
    const char* bad[] = {
        "        /*0570*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR9+0x32000], R6 ;",
        "        /*0580*/                   LDS R88, [R88+UR4] ;",
        "        /*0590*/                   WARPGROUP.ARRIVE ;",
        "        /*05a0*/                   HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, UP0, R88, 0x0 ;",
        "        /*05b0*/                   HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R88, 0x1, gsb0 ;",
        "        /*05c0*/                   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;",
        "        /*05d0*/              @!P0 SYNCS.ARRIVE.TRANS64.A1T0 RZ, [R6+URZ+0x32040], RZ ;",
        "        /*05e0*/              @!P0 BRA 0x570 ;",
        "        /*05f0*/                   WARPGROUP.DEPBAR.LE gsb0, 0x0 ;",
        "        /*0600*/                   EXIT ;",
    };
    // The same loop waiting for every group (wgmma.wait_group 0) before the reload is safe.
    std::vector<Instr> code;
    for (const char* l : bad) {
        Instr in;
        REQUIRE(parse_instr(l, in));
        code.push_back(in);
    }
    CHECK(metadata_hazards(code).size() == 2);
    code[5].args[1] = "0x0";
    CHECK(metadata_hazards(code).empty());
    // Two metadata registers alternating between the two halves of an unrolled loop are safe
    // with one group in flight.
    const char* good[] = {
        "        /*0570*/                   LDS R88, [R9+UR4] ;",
        "        /*0580*/                   HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R88, 0x1, gsb0 ;",
        "        /*0590*/                   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;",
        "        /*05a0*/                   LDS R91, [R9+UR4] ;",
        "        /*05b0*/                   HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R91, 0x1, gsb0 ;",
        "        /*05c0*/                   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;",
        "        /*05d0*/               @P1 BRA 0x570 ;",
        "        /*05e0*/                   WARPGROUP.DEPBAR.LE gsb0, 0x0 ;",
        "        /*05f0*/                   EXIT ;",
    };
    code.clear();
    for (const char* l : good) {
        Instr in;
        REQUIRE(parse_instr(l, in));
        code.push_back(in);
    }
    CHECK(metadata_hazards(code).empty());
    CHECK(written_regs(code[1]) == std::make_pair(24, 64));
    CHECK(meta_reg(code[4]) == 91);
}
